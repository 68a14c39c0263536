package graph

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	dgraph "github.com/dominikbraun/graph"
)

// TestAgreesWithLibrary holds the hand-written walks against the
// dominikbraun/graph algorithms on random skills: the same arcs, the same
// loops (as sets of steps) and the same reachable steps.
func TestAgreesWithLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n := 1 + rng.IntN(12)
		spec := make([]string, n)
		target := func() string {
			switch r := rng.IntN(n + 4); {
			case r < n:
				return fmt.Sprint(r + 1)
			case r == n:
				return "end"
			case r == n+1:
				return "fail"
			}
			return "-"
		}
		for i := range spec {
			spec[i] = fmt.Sprintf("%d %s %s", i+1, target(), target())
		}
		g, err := New(skill(spec...))
		if err != nil {
			t.Fatal(err)
		}
		lib, err := g.library()
		if err != nil {
			t.Fatal(err)
		}
		name := strings.Join(spec, "; ")

		adj, err := lib.AdjacencyMap()
		if err != nil {
			t.Fatal(err)
		}
		for v := range g.nodes {
			l := g.out(int32(v))
			var want []string
			for to := range adj[g.nodes[v]] {
				want = append(want, to)
			}
			var got []string
			for _, w := range l {
				got = append(got, g.nodes[w])
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: arcs of %s = %v, library has %v", name, g.nodes[v], got, want)
			}
		}

		pre, err := lib.PredecessorMap()
		if err != nil {
			t.Fatal(err)
		}
		for v := range g.nodes {
			var want, got []string
			for from := range pre[g.nodes[v]] {
				want = append(want, from)
			}
			for _, w := range g.in(int32(v)) {
				got = append(got, g.nodes[w])
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: arcs into %s = %v, library has %v", name, g.nodes[v], got, want)
			}
		}

		sccs, err := dgraph.StronglyConnectedComponents(lib)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, c := range sccs {
			if len(c) > 1 || (len(c) == 1 && g.selfLoop(int32(g.pos(c[0])))) {
				slices.SortFunc(c, func(a, b string) int { return g.pos(a) - g.pos(b) })
				want = append(want, strings.Join(c, ","))
			}
		}
		slices.Sort(want)
		var got []string
		for _, c := range g.sccs {
			ids := make([]string, len(c))
			for i, v := range c {
				ids[i] = g.nodes[v]
			}
			got = append(got, strings.Join(ids, ","))
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: loops %v, library finds %v", name, got, want)
		}
		// Every reported loop is a real path back to its start.
		for _, loop := range g.Cycles() {
			for i, from := range loop {
				to := loop[(i+1)%len(loop)]
				if _, err := lib.Edge(from, to); err != nil {
					t.Fatalf("%s: loop %v uses %s -> %s, which is no arc", name, loop, from, to)
				}
			}
		}

		var reach []string
		_ = dgraph.DFS(lib, g.Entry(), func(v string) bool {
			if v != "end" && v != "fail" {
				reach = append(reach, v)
			}
			return false
		})
		slices.SortFunc(reach, func(a, b string) int { return g.pos(a) - g.pos(b) })
		if !slices.Equal(reach, g.Reachable()) {
			t.Fatalf("%s: reachable %v, library walks %v", name, g.Reachable(), reach)
		}
	}
}

func (g *Graph) pos(id string) int {
	i, ok := g.lookup(id)
	if !ok {
		panic("no node " + id)
	}
	return i
}

// library returns the step graph as a github.com/dominikbraun/graph
// directed graph, to hold this package's walks against that library's
// algorithms: vertices are the step IDs and the terminals, one arc per
// (from, to) pair, each arc's Data the []Edge it stands for. It lives in a
// test so the runtime (plan imports graph) does not link the library.
func (g *Graph) library() (dgraph.Graph[string, string], error) {
	var (
		lib0   dgraph.Graph[string, string]
		libErr error
	)
	func() {
		lib := dgraph.New(dgraph.StringHash, dgraph.Directed())
		for _, id := range g.nodes {
			if err := lib.AddVertex(id); err != nil {
				libErr = fmt.Errorf("add vertex %q: %w", id, err)
				return
			}
		}
		edges := g.Edges()
		for i := 0; i < len(edges); {
			e := edges[i]
			j := i + 1
			for j < len(edges) && edges[j].From == e.From {
				j++
			}
			for k := i; k < j; k++ {
				to := edges[k].To
				var data []Edge
				for _, f := range edges[i:j] {
					if f.To == to {
						data = append(data, f)
					}
				}
				err := lib.AddEdge(e.From, to, dgraph.EdgeData(data))
				if err != nil && !errors.Is(err, dgraph.ErrEdgeAlreadyExists) {
					libErr = fmt.Errorf("add edge %q -> %q: %w", e.From, to, err)
					return
				}
			}
			i = j
		}
		lib0 = lib
	}()
	return lib0, libErr
}
