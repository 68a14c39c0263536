package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	dgraph "github.com/dominikbraun/graph"

	"github.com/skillc/skillc/compiler"
)

// Edge is one edge of the step graph, as the author wrote it or as the
// format's defaults filled it in.
type Edge struct {
	From string
	To   string // a step ID, compiler.End or compiler.Fail
	Kind compiler.EdgeKind
	// Label is what a drawing writes on the edge: the author's LABEL, else
	// the key word of an explicit edge ("yes", "on failure"), else "".
	Label string
	// Explicit is false when the edge is a default of the format.
	Explicit bool
}

// Graph is the step graph of one skill. It is immutable once built and safe
// for concurrent use.
type Graph struct {
	skill *compiler.Skill

	libOnce sync.Once
	lib     dgraph.Graph[string, string]
	libErr  error

	// nodes holds the step IDs in source order, then End, then Fail; every
	// analysis works on these indexes.
	nodes []string
	index map[string]int
	entry int // -1 when the skill has no steps

	// edges are in source order: each step's success edge, then its
	// failure edge. Edges to unknown targets are left out (the compiler
	// reports them) and counted in dropped.
	edges   []Edge
	ends    [][2]int32 // the node indexes of each edge's From and To
	dropped int

	// succ and pred are the arcs by node index: one arc per (from, to)
	// pair, as in the library's graph. succ is sorted so every walk, and so
	// every message, is deterministic.
	succ [][]int32
	pred [][]int32

	// The analyses, computed once in New so a Graph is immutable and safe
	// to share.
	reach []bool
	toEnd []bool
	sccs  [][]int32
}

// New builds the step graph of s. An edge whose target names no step is left
// out: the compiler already reports it as unknown-target. An empty target
// takes the format's default (next step or end on success, fail on
// failure), so hand-built skills need not spell every edge. New fails only
// when the steps cannot be told apart: an empty, duplicate or reserved ID,
// or an entry that is not a step.
func New(s *compiler.Skill) (*Graph, error) {
	if s == nil {
		return nil, errors.New("no skill to build a graph from")
	}
	n := len(s.Steps)
	g := &Graph{
		skill: s,
		nodes: make([]string, 0, n+2),
		index: make(map[string]int, n+2),
		entry: -1,
		edges: make([]Edge, 0, 2*n),
		ends:  make([][2]int32, 0, 2*n),
	}
	for _, st := range s.Steps {
		switch {
		case st == nil || st.ID == "":
			return nil, fmt.Errorf("step %d has no id", len(g.nodes)+1)
		case strings.EqualFold(st.ID, compiler.End) || strings.EqualFold(st.ID, compiler.Fail):
			return nil, fmt.Errorf("step id %q is reserved for the terminal %q", st.ID, strings.ToLower(st.ID))
		}
		if _, dup := g.index[st.ID]; dup {
			return nil, fmt.Errorf("duplicate step id %q", st.ID)
		}
		g.addNode(st.ID)
	}
	g.addNode(compiler.End)
	g.addNode(compiler.Fail)

	if n > 0 {
		g.entry = 0
		if s.Entry != "" {
			i, ok := g.index[s.Entry]
			if !ok || i >= n {
				return nil, fmt.Errorf("entry %q is not a step of the skill", s.Entry)
			}
			g.entry = i
		}
	}

	for i, st := range s.Steps {
		next := compiler.End
		if i+1 < n {
			next = s.Steps[i+1].ID
		}
		g.addEdge(i, st, compiler.Success, st.Success, next)
		g.addEdge(i, st, compiler.Failure, st.Failure, compiler.Fail)
	}
	g.buildArcs()
	g.reach = g.reachable()
	g.toEnd = g.reachesEnd()
	g.sccs = g.components()
	return g, nil
}

func (g *Graph) addNode(id string) {
	g.index[id] = len(g.nodes)
	g.nodes = append(g.nodes, id)
}

func (g *Graph) addEdge(from int, st *compiler.Step, kind compiler.EdgeKind, e compiler.Edge, def string) {
	to := e.Target
	if to == "" {
		to = def
	}
	// Most edges go to the next step or to a terminal, whose indexes are
	// known; only the others pay for a map lookup.
	var toIndex int
	ok := true
	switch {
	case to == compiler.End:
		toIndex = g.endIndex()
	case to == compiler.Fail:
		toIndex = g.failIndex()
	case from+1 < g.steps() && to == g.nodes[from+1]:
		toIndex = from + 1
	default:
		toIndex, ok = g.numbered(to)
		if !ok {
			toIndex, ok = g.index[to]
		}
	}
	if !ok {
		g.dropped++
		return
	}
	label := e.Label
	if label == "" && e.Explicit {
		label = e.Key
	}
	g.edges = append(g.edges, Edge{From: st.ID, To: to, Kind: kind, Label: label, Explicit: e.Explicit})
	g.ends = append(g.ends, [2]int32{int32(from), int32(toIndex)})
}

// numbered finds a step whose ID is its list number without the map: in a
// numbered skill step "k" sits at k minus the first number. At 100,000
// steps the map's random reads miss the cache; this reads one slot.
func (g *Graph) numbered(id string) (int, bool) {
	k, ok := smallNumber(id)
	if !ok || g.steps() == 0 {
		return 0, false
	}
	first, ok := smallNumber(g.nodes[0])
	if !ok {
		return 0, false
	}
	i := k - first
	if i < 0 || i >= g.steps() || g.nodes[i] != id {
		return 0, false
	}
	return i, true
}

// smallNumber reads a decimal of at most 9 digits without a leading zero.
func smallNumber(s string) (int, bool) {
	if len(s) == 0 || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// buildArcs turns the edge list into index lists, O(V+E): at most two arcs
// out of each step (one when both edges share a target), and the same arcs
// turned round for the walks back from end. The predecessor lists share one
// backing array, so this is a handful of allocations, not one per vertex.
func (g *Graph) buildArcs() {
	n := len(g.nodes)
	g.succ = make([][]int32, n)
	out := make([]int32, 0, len(g.edges))
	indeg := make([]int32, n)
	for i := 0; i < len(g.ends); {
		from := g.ends[i][0]
		start := len(out)
		for ; i < len(g.ends) && g.ends[i][0] == from; i++ {
			w := g.ends[i][1]
			if !slices.Contains(out[start:], w) {
				out = append(out, w)
				indeg[w]++
			}
		}
		l := out[start:len(out):len(out)]
		slices.Sort(l)
		g.succ[from] = l
	}
	flat := make([]int32, len(out))
	g.pred = make([][]int32, n)
	off := 0
	for v := range g.pred {
		g.pred[v] = flat[off : off : off+int(indeg[v])]
		off += int(indeg[v])
	}
	for v, l := range g.succ {
		for _, w := range l {
			g.pred[w] = append(g.pred[w], int32(v))
		}
	}
}

// Library returns the step graph as a github.com/dominikbraun/graph
// directed graph, for callers that want its algorithms (paths, traversals):
// vertices are the step IDs and the terminals, one arc per (from, to) pair,
// each arc's Data the []Edge it stands for. It is built on the first call.
//
// The analyses of this package do not run on it: at 100,000 steps the
// library's map-of-maps store and AdjacencyMap cost more than compiling the
// skill (see bench_test.go), and its StronglyConnectedComponents recurses
// once per vertex. They walk the index lists above instead.
func (g *Graph) Library() (dgraph.Graph[string, string], error) {
	g.libOnce.Do(func() {
		lib := dgraph.New(dgraph.StringHash, dgraph.Directed())
		for _, id := range g.nodes {
			if err := lib.AddVertex(id); err != nil {
				g.libErr = fmt.Errorf("add vertex %q: %w", id, err)
				return
			}
		}
		for i := 0; i < len(g.edges); {
			e := g.edges[i]
			j := i + 1
			for j < len(g.edges) && g.edges[j].From == e.From {
				j++
			}
			for k := i; k < j; k++ {
				to := g.edges[k].To
				var data []Edge
				for _, f := range g.edges[i:j] {
					if f.To == to {
						data = append(data, f)
					}
				}
				err := lib.AddEdge(e.From, to, dgraph.EdgeData(data))
				if err != nil && !errors.Is(err, dgraph.ErrEdgeAlreadyExists) {
					g.libErr = fmt.Errorf("add edge %q -> %q: %w", e.From, to, err)
					return
				}
			}
			i = j
		}
		g.lib = lib
	})
	return g.lib, g.libErr
}

// Skill is the skill the graph was built from.
func (g *Graph) Skill() *compiler.Skill { return g.skill }

// Edges are the drawn edges in source order: each step's success edge, then
// its failure edge. A success and a failure edge to the same target are two
// edges here.
func (g *Graph) Edges() []Edge { return g.edges }

// Entry is the entry step's ID, or "" when the skill has no steps.
func (g *Graph) Entry() string {
	if g.entry < 0 {
		return ""
	}
	return g.nodes[g.entry]
}

// steps is the number of steps; node indexes below it are steps.
func (g *Graph) steps() int { return len(g.nodes) - 2 }

func (g *Graph) endIndex() int  { return len(g.nodes) - 2 }
func (g *Graph) failIndex() int { return len(g.nodes) - 1 }
