package graph

import (
	"strings"
	"testing"
)

func TestBackEdges(t *testing.T) {
	tests := []struct {
		name string
		spec []string
		want string // "from>to/kind ..."
	}{
		{"back to the entry", []string{"1", "2 end 1", "3"}, "2>1/failure"},
		{"retry", []string{"1", "2 end 2"}, "2>2/failure"},
		{"back to an earlier step", []string{"1", "2", "3", "4 end 2"}, "4>2/failure"},
		{"nested", []string{"1", "2", "3 2 4", "4 end 1"}, "3>2/success 4>1/failure"},
		{"jump back to a step that does not return", []string{"1 3", "2 end", "3 end 2"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(skill(tt.spec...))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range g.BackEdges() {
				got = append(got, e.From+">"+e.To+"/"+e.Kind.String())
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("BackEdges() = %v, want %s", got, tt.want)
			}
		})
	}
}

func TestBoundLoops(t *testing.T) {
	s := skill("1", "2 3 2", "3", "4 end 1")
	s.Steps[3].FailureBound = 5
	if n := BoundLoops(s, 0); n != 1 || s.Steps[1].FailureBound != 3 || s.Steps[3].FailureBound != 5 {
		t.Fatalf("BoundLoops bounded %d: 2 has %d, 4 has %d", n, s.Steps[1].FailureBound, s.Steps[3].FailureBound)
	}
	if n := BoundLoops(s, 7); n != 0 {
		t.Fatalf("a second BoundLoops bounded %d", n)
	}
	if ps := Check(s, Limits{}); len(ps) != 0 {
		t.Fatalf("a bounded template has problems: %v", ps)
	}
	forward := skill("1 end 2", "2")
	if n := BoundLoops(forward, 3); n != 0 || forward.Steps[0].FailureBound != 0 {
		t.Fatal("BoundLoops bounded an edge that does not loop")
	}
}

// TestLoopDrawn: a drawing shows a loop's bound on its edge.
func TestLoopDrawn(t *testing.T) {
	s := skill("1", "2", "3 end 2", "4 end 4", "5")
	s.Steps[2].FailureBound, s.Steps[2].FailureLabel = 3, "unhealthy"
	s.Steps[3].FailureBound, s.Steps[3].FailureThen = 1, "5"
	g, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"dot": string(g.DOT()), "mermaid": string(g.Mermaid())} {
		for _, want := range []string{"unhealthy (at most 3 times)", "on failure (at most once,", "then 5)"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
}
