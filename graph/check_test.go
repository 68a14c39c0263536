package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		spec []string
		want []string // "line rule severity: summary"
	}{
		{
			name: "clean",
			spec: []string{"1 end 2", "2 - 4", "3 end 4", "4"},
		},
		{
			name: "loop reported once at its first step",
			spec: []string{"1", "2", "3 2"},
			want: []string{
				"1 entry-cannot-end error: no path from the entry step \"1\" reaches end: every run of this skill fails or goes round a loop",
				"2 cycle error: steps 2 -> 3 -> 2 form a loop; a plan must always move forward: send the retry to a new step or to fail",
				"2 no-path-to-end warning: step \"2\" can never reach end: every path from it fails or goes round a loop",
				"3 no-path-to-end warning: step \"3\" can never reach end: every path from it fails or goes round a loop",
			},
		},
		{
			name: "self loop with a way out",
			spec: []string{"1", "2 end 2"},
			want: []string{
				"2 cycle error: step 2 leads back to itself; a plan must always move forward: send the retry to a new step or to fail",
			},
		},
		{
			name: "unreachable chain",
			spec: []string{"1 4", "2", "3", "4"},
			want: []string{
				"2 unreachable-step error: step \"2\" can never be reached from the entry step \"1\"",
				"3 unreachable-step error: step \"3\" can never be reached from the entry step \"1\"",
			},
		},
		{
			name: "step that can only fail",
			spec: []string{"1 3 2", "2 fail", "3 end", "4"},
			want: []string{
				"2 no-path-to-end warning: step \"2\" can never reach end: every path from it fails",
				"4 unreachable-step error: step \"4\" can never be reached from the entry step \"1\"",
			},
		},
		{
			name: "unknown target does not crash",
			spec: []string{"1 nowhere"},
			want: []string{
				"1 entry-cannot-end error: no path from the entry step \"1\" reaches end: every run of this skill fails",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Check(skill(tt.spec...)) {
				got = append(got, fmt.Sprintf("%d %s %s: %s", d.Range.Start.Line, d.Rule, d.Severity, d.Summary))
				if d.Range.Filename != "test.md" {
					t.Errorf("%s: filename %q, want test.md", d.Rule, d.Range.Filename)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Check() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestCheckDetail(t *testing.T) {
	s := skill("1", "2", "3 4 2", "4 2 end")
	s.Steps[2].Failure.Label = "retry"
	ds := Check(s)
	if len(ds) != 1 {
		t.Fatalf("want one cycle diagnostic, got %v", ds)
	}
	d := ds[0]
	if want := `the loop: 2 on success goes to 3, 3 on failure ("retry") goes to 2; steps 4 loop back into it too`; d.Detail != want {
		t.Errorf("detail = %q\nwant     %q", d.Detail, want)
	}
	if want := `point step 3's on failure ("retry") edge at a new step, or at fail`; d.Suggestion != want {
		t.Errorf("suggestion = %q\nwant         %q", d.Suggestion, want)
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		name string
		s    *compiler.Skill
		want string
	}{
		{"nil", nil, "no skill"},
		{"duplicate", skill("1", "1"), `duplicate step id "1"`},
		{"duplicate explicit ids", skill("a", "b", "a"), `duplicate step id "a"`},
		{"explicit id equal to a later number", skill("1", "3", "3"), `duplicate step id "3"`},
		{"number out of order equal to a numbered step", skill("5", "6", "x", "6"), `duplicate step id "6"`},
		{"numbers not from one", skill("7", "8", "7"), `duplicate step id "7"`},
		{"reserved", skill("1", "End"), `step id "End" is reserved for the terminal "end"`},
		{"empty id", &compiler.Skill{Steps: []*compiler.Step{{}}}, "step 1 has no id"},
		{"bad entry", func() *compiler.Skill { s := skill("1"); s.Entry = "9"; return s }(), `entry "9" is not a step`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.s)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New() error = %v, want %q", err, tt.want)
			}
			if tt.s != nil && Check(tt.s) != nil {
				t.Error("Check() reported on a graph it cannot build")
			}
		})
	}
}

func TestNoSteps(t *testing.T) {
	g, err := New(&compiler.Skill{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Reachable() != nil || g.Cycles() != nil || g.CannotReachEnd() != nil || g.EntryReachesEnd() || g.Check() != nil {
		t.Error("a skill without steps has no graph to analyse")
	}
}

func TestLookupMixedIDs(t *testing.T) {
	// Numbered steps, an explicit ID and a number out of order: every
	// target resolves, whichever way it is found.
	s := skill("3 clarify", "4 9 end", "clarify 4", "9 3 end")
	s.Steps[2].ID = "clarify"
	s.Entry = "clarify"
	g, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range g.Edges() {
		got = append(got, e.From+">"+e.To)
	}
	want := "3>clarify 3>fail 4>9 4>end clarify>4 clarify>fail 9>3 9>end"
	if strings.Join(got, " ") != want {
		t.Errorf("edges %s\nwant  %s", strings.Join(got, " "), want)
	}
	if g.Entry() != "clarify" {
		t.Errorf("entry %q", g.Entry())
	}
	if c := g.Cycles(); len(c) != 1 || strings.Join(c[0], " ") != "3 clarify 4 9" {
		t.Errorf("cycles %v", c)
	}
}

func TestErrors(t *testing.T) {
	compile := func(src string) (*compiler.Skill, compiler.Diagnostics) {
		return compiler.Compile("e.md", []byte(src), compiler.Options{})
	}
	tests := []struct {
		name, src string
		want      []string // rule IDs, in order
	}{
		{"clean", "# T\n\n1. A.\n2. B.\n", nil},
		{"warnings are not errors", "# T\n\n1. A.\n   - yes: end\n   - no: 2\n2. B.\n   - yes: fail\n", nil},
		{"loop", "# T\n\n1. A.\n   - yes: 2\n2. B.\n   - yes: 1\n", []string{"cycle", "entry-cannot-end"}},
		{"compiler and graph together", "# T\n\n1. A.\n   - yes: end\n   - no: 9\n2. B.\n", []string{"unknown-target", "unreachable-step"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := compile(tt.src)
			var got []string
			for _, d := range Errors(s, diags) {
				got = append(got, d.Rule)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("Errors = %v, want %v", got, tt.want)
			}
			if tt.name == "warnings are not errors" && len(Check(s)) == 0 {
				t.Error("the input no longer has a graph warning to leave out")
			}
		})
	}
}
