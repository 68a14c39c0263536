package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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

// Graph is the step graph of one skill. It is read-only once built.
type Graph struct {
	skill *compiler.Skill
	lib   dgraph.Graph[string, string]

	// nodes holds the step IDs in source order, then End, then Fail; every
	// analysis works on these indexes.
	nodes []string
	index map[string]int
	entry int // -1 when the skill has no steps

	// edges are in source order: each step's success edge, then its
	// failure edge. Edges to unknown targets are left out (the compiler
	// reports them) and counted in dropped.
	edges   []Edge
	dropped int

	// succ and pred are the adjacency lists by node index, read once from
	// the library's adjacency and predecessor maps; succ is sorted so that
	// every walk, and so every message, is deterministic.
	succ [][]int32
	pred [][]int32

	// Analyses computed lazily, once.
	reach   []bool
	toEnd   []bool
	sccs    [][]int32
	sccDone bool
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
		lib:   dgraph.New(dgraph.StringHash, dgraph.Directed()),
		nodes: make([]string, 0, n+2),
		index: make(map[string]int, n+2),
		entry: -1,
		edges: make([]Edge, 0, 2*n),
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
		if err := g.addEdge(st, compiler.Success, st.Success, next); err != nil {
			return nil, err
		}
		if err := g.addEdge(st, compiler.Failure, st.Failure, compiler.Fail); err != nil {
			return nil, err
		}
	}
	if err := g.readAdjacency(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *Graph) addNode(id string) {
	g.index[id] = len(g.nodes)
	g.nodes = append(g.nodes, id)
	// The IDs are unique by construction, so AddVertex cannot fail.
	_ = g.lib.AddVertex(id)
}

func (g *Graph) addEdge(st *compiler.Step, kind compiler.EdgeKind, e compiler.Edge, def string) error {
	to := e.Target
	if to == "" {
		to = def
	}
	if _, ok := g.index[to]; !ok {
		g.dropped++
		return nil
	}
	label := e.Label
	if label == "" && e.Explicit {
		label = e.Key
	}
	g.edges = append(g.edges, Edge{From: st.ID, To: to, Kind: kind, Label: label, Explicit: e.Explicit})
	// The library keeps one edge per ordered pair; a step whose success and
	// failure edges share a target is one arc for the analyses, and
	// ErrEdgeAlreadyExists says just that.
	if err := g.lib.AddEdge(st.ID, to); err != nil && !errors.Is(err, dgraph.ErrEdgeAlreadyExists) {
		return fmt.Errorf("add edge %q -> %q: %w", st.ID, to, err)
	}
	return nil
}

// readAdjacency reads the library's adjacency and predecessor maps once,
// O(V+E), into index lists the analyses can walk without hashing.
func (g *Graph) readAdjacency() error {
	adj, err := g.lib.AdjacencyMap()
	if err != nil {
		return fmt.Errorf("read adjacency: %w", err)
	}
	pre, err := g.lib.PredecessorMap()
	if err != nil {
		return fmt.Errorf("read predecessors: %w", err)
	}
	g.succ = g.lists(adj)
	g.pred = g.lists(pre)
	return nil
}

func (g *Graph) lists(m map[string]map[string]dgraph.Edge[string]) [][]int32 {
	out := make([][]int32, len(g.nodes))
	for i, id := range g.nodes {
		row := m[id]
		if len(row) == 0 {
			continue
		}
		l := make([]int32, 0, len(row))
		for to := range row {
			l = append(l, int32(g.index[to]))
		}
		slices.Sort(l) // a step has at most two arcs out; sorting is cheap
		out[i] = l
	}
	return out
}

// Skill is the skill the graph was built from.
func (g *Graph) Skill() *compiler.Skill { return g.skill }

// Library is the underlying dominikbraun/graph graph: vertices are step IDs
// and the terminals; one arc per (from, to) pair.
func (g *Graph) Library() dgraph.Graph[string, string] { return g.lib }

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
