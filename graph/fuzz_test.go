package graph_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// FuzzGraph compiles arbitrary markdown and checks that the graph never
// panics and keeps its invariants: every step is either reachable or not,
// every loop is a real path back to its start, drawings are deterministic.
func FuzzGraph(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*/*.md")
	files = append(files, "../skills/acat-reimbursement/SKILL.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("1. a\n   - yes: 1\n   - no: 3\n2. b\n3. c\n   - then: 2\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sk, _ := compiler.Compile("fuzz.md", src, compiler.Options{})
		s := sk.Template()
		// Lint checks the compiled steps in place, make_plan the template:
		// the two views must give the same problems.
		for _, l := range []graph.Limits{{}, {Strict: true}} {
			if want, got := graph.Check(s, l), graph.CheckSteps(sk.Title, sk.Entry, sk.TemplateSteps(), l); !reflect.DeepEqual(got, want) {
				t.Fatalf("CheckSteps of the skill's steps:\n%+v\nCheck of its template:\n%+v", got, want)
			}
		}
		g, err := graph.New(s)
		if err != nil {
			return
		}
		if got := len(g.Reachable()) + len(g.Unreachable()); got != len(s.Steps) {
			t.Fatalf("reachable + unreachable = %d, want %d steps", got, len(s.Steps))
		}
		arcs := map[[2]string]bool{}
		for _, e := range g.Edges() {
			arcs[[2]string{e.From, e.To}] = true
		}
		for _, loop := range g.Cycles() {
			for i, from := range loop {
				if !arcs[[2]string{from, loop[(i+1)%len(loop)]}] {
					t.Fatalf("loop %v is not a path", loop)
				}
			}
		}
		_ = g.Problems()
		g2, _ := graph.New(s)
		if !bytes.Equal(g.DOT(), g2.DOT()) || !bytes.Equal(g.Mermaid(), g2.Mermaid()) {
			t.Fatal("drawings differ between two builds")
		}
	})
}
