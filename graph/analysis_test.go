package graph

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillc/skillc/internal/golden"
)

var _ = golden.Update

// skill builds a template by hand from a compact spec: one entry per step,
// "ID success failure" where "-" leaves the edge to the format's default.
// Step i is on line i+1; a written edge is labelled with its key word, as
// the compiler labels it.
func skill(spec ...string) *Template {
	t := &Template{Skill: "test"}
	for i, line := range spec {
		f := strings.Fields(line)
		st := Step{ID: f[0], Goal: "step " + f[0], Line: i + 1}
		if len(f) > 1 && f[1] != "-" {
			st.NextOnSuccess, st.SuccessLabel = f[1], "on success"
		}
		if len(f) > 2 && f[2] != "-" {
			st.NextOnFailure, st.FailureLabel = f[2], "on failure"
		}
		t.Steps = append(t.Steps, st)
	}
	return t
}

func TestAnalyses(t *testing.T) {
	tests := []struct {
		name           string
		spec           []string
		reachable      []string
		cycles         [][]string
		cannotReachEnd []string
		entryEnds      bool
	}{
		{
			name:      "linear defaults",
			spec:      []string{"1", "2", "3"},
			reachable: []string{"1", "2", "3"}, entryEnds: true,
		},
		{
			name:      "acat",
			spec:      []string{"1 end 2", "2 - 4", "3 end 4", "4"},
			reachable: []string{"1", "2", "3", "4"}, entryEnds: true,
		},
		{
			name:      "self loop",
			spec:      []string{"1", "2 - 2", "3"},
			reachable: []string{"1", "2", "3"}, cycles: [][]string{{"2"}}, entryEnds: true,
		},
		{
			name:      "two step loop reported from earliest step",
			spec:      []string{"1", "2", "3 2"},
			reachable: []string{"1", "2", "3"}, cycles: [][]string{{"2", "3"}},
			cannotReachEnd: []string{"1", "2", "3"},
		},
		{
			name: "nested loops are one component, shortest loop through its first step",
			// 2 -> 3 -> 4 -> 2 and 3 -> 2: the component is {2,3,4}, the
			// shortest loop from 2 is 2 -> 3 -> 2.
			spec:      []string{"1", "2", "3 4 2", "4 2 end"},
			reachable: []string{"1", "2", "3", "4"}, cycles: [][]string{{"2", "3"}}, entryEnds: true,
		},
		{
			name:      "two loops in source order, ids not numeric",
			spec:      []string{"a b", "b a end", "c", "d e", "e d end"},
			reachable: []string{"a", "b"}, cycles: [][]string{{"a", "b"}, {"d", "e"}},
			entryEnds: true,
		},
		{
			name:      "loop whose first step in source order is not where the walk enters",
			spec:      []string{"1 4", "2 3 end", "3 2 end", "4 3 end"},
			reachable: []string{"1", "2", "3", "4"}, cycles: [][]string{{"2", "3"}}, entryEnds: true,
		},
		{
			name:      "unreachable step",
			spec:      []string{"1 3", "2", "3"},
			reachable: []string{"1", "3"}, entryEnds: true,
		},
		{
			name:           "cannot reach end",
			spec:           []string{"1 - 3", "2 fail", "3"},
			reachable:      []string{"1", "2", "3"},
			cannotReachEnd: []string{"2"}, entryEnds: true,
		},
		{
			name:           "entry cannot end",
			spec:           []string{"1 fail 2", "2 fail"},
			reachable:      []string{"1", "2"},
			cannotReachEnd: []string{"1", "2"},
		},
		{
			name:           "unknown target is dropped, not a crash",
			spec:           []string{"1 nowhere", "2"},
			reachable:      []string{"1"},
			cannotReachEnd: []string{"1"}, entryEnds: false,
		},
		{
			name:      "success and failure to one target",
			spec:      []string{"1 2 2", "2"},
			reachable: []string{"1", "2"}, entryEnds: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(skill(tt.spec...))
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Reachable(); !reflect.DeepEqual(got, tt.reachable) {
				t.Errorf("Reachable() = %q, want %q", got, tt.reachable)
			}
			if got := g.Cycles(); !reflect.DeepEqual(got, tt.cycles) && !(len(got) == 0 && len(tt.cycles) == 0) {
				t.Errorf("Cycles() = %q, want %q", got, tt.cycles)
			}
			if got := g.CannotReachEnd(); !reflect.DeepEqual(got, tt.cannotReachEnd) {
				t.Errorf("CannotReachEnd() = %q, want %q", got, tt.cannotReachEnd)
			}
			if got := g.EntryReachesEnd(); got != tt.entryEnds {
				t.Errorf("EntryReachesEnd() = %v, want %v", got, tt.entryEnds)
			}
		})
	}
}
