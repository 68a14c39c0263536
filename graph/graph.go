package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Edge is one edge of the step graph, as the author wrote it or as the
// format's defaults filled it in.
type Edge struct {
	From string
	To   string // a step ID, End or Fail
	Kind EdgeKind
	// Label is what a drawing writes on the edge: the step's success or
	// failure label (the author's LABEL, else the key word of an explicit
	// edge such as "yes"), else "", with a loop's bound (boundLabel).
	Label string
}

// edge is an Edge by node indexes.
type edge struct {
	from, to int32
	kind     EdgeKind
}

// Graph is the step graph of one skill. It is immutable once built and safe
// for concurrent use.
type Graph struct {
	// tmpl is the template of a graph New built, for the drawings; nil
	// for one Check built. Every analysis reads the steps.
	tmpl  *Template
	steps Steps

	// nodes holds the step IDs in source order, then End, then Fail; every
	// analysis works on these indexes.
	nodes []string
	// first is the number of the first step when its ID is a number, else
	// -1; index maps the IDs that are not their position's number.
	first int
	index map[string]int
	entry int // -1 when the skill has no steps
	// entryMissing is true when the template's entry names no step (see
	// build); New refuses such a graph.
	entryMissing bool

	// edges are in source order: each step's success edge, then its
	// failure edge, as node indexes; Edges() spells them out on demand.
	// Edges to unknown targets are left out (the compiler reports them)
	// and counted in dropped.
	edges []edge
	// thens are the arcs of bounded edges once the bound is used up
	// (addThens), in source order of their steps.
	thens []edge
	// v1Loops is Limits.Strict: every loop is a cycle, as in FORMAT v1.
	v1Loops bool
	// loopRounds is Limits.LoopRounds, for messages.
	loopRounds int
	dropped    int

	// The arcs in compressed rows: one arc per (from, to) pair, as in the
	// library's graph. The arcs out of node v are succ[succAt[v]:succAt[v+1]],
	// sorted so every walk, and so every message, is deterministic; pred
	// holds the same arcs turned round. Two flat arrays each keep a
	// 100,000-step graph in a few cache-friendly blocks.
	succAt, succ []int32
	predAt, pred []int32

	// The analyses, computed once in New so a Graph is immutable and safe
	// to share.
	reach []bool
	toEnd []bool
	sccs  [][]int32
}

// New builds the step graph of t. An empty edge or entry takes the
// format's default (see Template.Defaults), so t need not be filled in; New
// does not change it. An edge whose target names no step is left out:
// Check reports it as unknown-target. New fails only when the steps cannot
// be told apart: an empty, duplicate or reserved ID, or an entry that is
// not a step.
func New(t *Template) (*Graph, error) {
	if t == nil {
		return nil, errors.New("no template to build a graph from")
	}
	g, err := build(t.Entry, t.steps())
	if err == nil && g.entryMissing {
		return nil, fmt.Errorf("entry %q is not a step of the skill", t.Entry)
	}
	if g != nil {
		g.tmpl = t
	}
	return g, err
}

// build is New of the steps, entry "" naming the first, without refusing
// an unknown entry: Check still resolves the targets on such a graph,
// whose analyses then start at the first step.
func build(entry string, steps Steps) (*Graph, error) {
	n := steps.Len()
	g := &Graph{
		steps: steps,
		nodes: make([]string, 0, n+2),
		entry: -1,
		edges: make([]edge, 0, 2*n),
		first: -1,
	}
	for i := range n {
		id := steps.ID(i)
		switch {
		case id == "":
			return nil, fmt.Errorf("step %d has no id", i+1)
		case IsTerminal(id):
			return nil, fmt.Errorf("step id %q is reserved for the terminal %q", id, strings.ToLower(id))
		}
		g.nodes = append(g.nodes, id)
	}
	if err := g.indexSteps(); err != nil {
		return nil, err
	}
	g.nodes = append(g.nodes, End, Fail)

	if n > 0 {
		// No entry is the first step (Template.EntryID).
		i, ok := 0, true
		if entry != "" {
			i, ok = g.lookup(entry)
		}
		if !ok || i >= n {
			i, g.entryMissing = 0, true
		}
		g.entry = i
	}

	for i := range n {
		g.addEdge(i, Success, steps.Next(i, Success))
		g.addEdge(i, Failure, steps.Next(i, Failure))
		g.addThens(i)
	}
	g.buildArcs()
	// The two walks run one after the other: they share one block of
	// marks and one of scratch for their stack and queue.
	nodes := len(g.nodes)
	marks, scratch := make([]bool, 2*nodes), make([]int32, nodes)
	g.reach = g.reachable(marks[:nodes:nodes], scratch)
	g.toEnd = g.reachesEnd(marks[nodes:], scratch)
	g.sccs = g.components()
	return g, nil
}

// indexSteps makes step IDs findable and rejects duplicates. Most steps
// are numbered in order ("1", "2", ...): such a step is found by position
// (see numbered) and needs no map entry, and two of them cannot clash. Only
// the others, an explicit {#id} or a number out of order, go into the map,
// after a check against the numbered step they could equal. At 100,000
// steps a map of every ID costs more than the whole analysis, in cache
// misses.
func (g *Graph) indexSteps() error {
	if len(g.nodes) > 0 {
		if k, ok := smallNumber(g.nodes[0]); ok {
			g.first = k
		}
	}
	inPlace := func(i int) bool {
		k, ok := smallNumber(g.nodes[i])
		return ok && g.first >= 0 && k-g.first == i
	}
	for i, id := range g.nodes {
		if inPlace(i) {
			continue
		}
		if j, ok := g.numbered(id); ok && j != i && inPlace(j) {
			return fmt.Errorf("duplicate step id %q", id)
		}
		if g.index == nil {
			g.index = make(map[string]int)
		}
		if _, dup := g.index[id]; dup {
			return fmt.Errorf("duplicate step id %q", id)
		}
		g.index[id] = i
	}
	return nil
}

// lookup finds a node by ID: a step, End or Fail.
func (g *Graph) lookup(id string) (int, bool) {
	switch id {
	case End:
		return g.endIndex(), true
	case Fail:
		return g.failIndex(), true
	}
	if i, ok := g.numbered(id); ok {
		return i, true
	}
	i, ok := g.index[id]
	return i, ok
}

func (g *Graph) addEdge(from int, kind EdgeKind, to string) {
	if to == "" {
		to = defaultNext(g.steps, from, kind)
	}
	// Most edges go to the next step or to a terminal, whose indexes are
	// known; only the others pay for a lookup.
	var toIndex int
	ok := true
	if from+1 < g.Len() && to == g.nodes[from+1] {
		toIndex = from + 1
	} else {
		toIndex, ok = g.lookup(to)
	}
	if !ok {
		g.dropped++
		return
	}
	g.edges = append(g.edges, edge{from: int32(from), to: int32(toIndex), kind: kind})
}

// spell turns an internal edge into an Edge, reading its label from the
// step.
// addThens adds, for each bounded edge of step i, the arc to where it
// leads once its bound is used up (FORMAT.md 6.5: its then target, else
// fail). They are arcs, not edges: reachability and loops see them, while
// Edges, and so the renderings, show the edges as written.
func (g *Graph) addThens(i int) {
	for _, k := range []EdgeKind{Success, Failure} {
		if g.steps.Bound(i, k) <= 0 {
			continue
		}
		if to, ok := g.lookup(thenOf(g.steps, i, k)); ok {
			g.thens = append(g.thens, edge{from: int32(i), to: int32(to), kind: k})
		}
	}
}

func (g *Graph) spell(e edge) Edge {
	return Edge{From: g.nodes[e.from], To: g.nodes[e.to], Kind: e.kind, Label: boundLabel(g.steps, int(e.from), e.kind)}
}

// boundLabel is an edge's label with its bound, so a drawing shows how
// often a loop goes round: "retry (at most 3 times)", "at most 3 times,
// then 6". An edge without a bound keeps its label as it is.
func boundLabel(s Steps, i int, k EdgeKind) string {
	label, b := s.Label(i, k), s.Bound(i, k)
	if b <= 0 {
		return label
	}
	bound := fmt.Sprintf("at most %d times", b)
	if b == 1 {
		bound = "at most once"
	}
	if then := s.Then(i, k); then != "" {
		bound += ", then " + then
	}
	if label == "" {
		return bound
	}
	return label + " (" + bound + ")"
}

// numbered finds a step whose ID is its list number without the map: in a
// numbered skill step "k" sits at k minus the first number. At 100,000
// steps the map's random reads miss the cache; this reads one slot.
func (g *Graph) numbered(id string) (int, bool) {
	k, ok := smallNumber(id)
	if !ok || g.first < 0 {
		return 0, false
	}
	i := k - g.first
	if i < 0 || i >= len(g.nodes) || g.nodes[i] != id {
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

// buildArcs turns the edge list into compressed rows, O(V+E): at most two
// arcs out of each step (one when both edges share a target), and the same
// arcs turned round for the walks back from end. Both rows' offsets and
// arcs share one block: there are at most as many arcs as edges and thens.
func (g *Graph) buildArcs() {
	n := len(g.nodes)
	m := len(g.edges) + len(g.thens)
	block := make([]int32, 2*(n+1)+2*m)
	g.succAt, block = block[:n+1:n+1], block[n+1:]
	g.predAt, block = block[:n+1:n+1], block[n+1:]
	g.succ, g.pred = block[:0:m], block[m:]
	for i, j, v := 0, 0, 0; v < n; v++ {
		g.succAt[v] = int32(len(g.succ))
		start := len(g.succ)
		add := func(w int32) {
			if !slices.Contains(g.succ[start:], w) {
				g.succ = append(g.succ, w)
				g.predAt[w]++
			}
		}
		for ; i < len(g.edges) && int(g.edges[i].from) == v; i++ {
			add(g.edges[i].to)
		}
		for ; j < len(g.thens) && int(g.thens[j].from) == v; j++ {
			add(g.thens[j].to)
		}
		slices.Sort(g.succ[start:]) // at most four arcs
	}
	g.succAt[n] = int32(len(g.succ))

	// Counting sort of the arcs by target: predAt[w] counts w's arcs, then
	// ends w's row, and each arc placed moves it back one, so it ends at
	// the row's start with no second array of cursors. Sources are placed
	// last first, so each row's sources ascend.
	for v := 1; v < n; v++ {
		g.predAt[v] += g.predAt[v-1]
	}
	g.predAt[n] = int32(len(g.succ))
	g.pred = g.pred[:len(g.succ)]
	for v := n - 1; v >= 0; v-- {
		for _, w := range g.out(int32(v)) {
			g.predAt[w]--
			g.pred[g.predAt[w]] = int32(v)
		}
	}
}

// out is the arcs out of v; in the arcs into it.
func (g *Graph) out(v int32) []int32 { return g.succ[g.succAt[v]:g.succAt[v+1]] }
func (g *Graph) in(v int32) []int32  { return g.pred[g.predAt[v]:g.predAt[v+1]] }

// Template is the template New built the graph from.
func (g *Graph) Template() *Template { return g.tmpl }

// Edges are the drawn edges in source order: each step's success edge, then
// its failure edge. A success and a failure edge to the same target are two
// edges here. Each call builds a new slice.
func (g *Graph) Edges() []Edge {
	out := make([]Edge, len(g.edges))
	for i, e := range g.edges {
		out[i] = g.spell(e)
	}
	return out
}

// Entry is the entry step's ID, or "" when the skill has no steps.
func (g *Graph) Entry() string {
	if g.entry < 0 {
		return ""
	}
	return g.nodes[g.entry]
}

// Len is the number of steps, terminals not counted.
func (g *Graph) Len() int { return len(g.nodes) - 2 }

func (g *Graph) endIndex() int  { return len(g.nodes) - 2 }
func (g *Graph) failIndex() int { return len(g.nodes) - 1 }
