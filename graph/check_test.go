package graph

import (
	"fmt"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		spec   []string
		limits Limits
		mod    func(*Template) // bounds and then targets, which spec cannot say
		want   []string        // "line code: message"
	}{
		{
			name: "clean",
			spec: []string{"1 end 2", "2 - 4", "3 end 4", "4"},
		},
		{
			name:   "v1: loop reported once at its first step",
			spec:   []string{"1", "2", "3 2"},
			limits: Limits{Strict: true},
			want: []string{
				"1 entry-cannot-end: no path from the entry step \"1\" reaches end: every run of this skill fails or goes round a loop",
				"2 cycle: steps 2 -> 3 -> 2 form a loop; a plan must always move forward: send the retry to a new step or to fail",
				"2 no-path-to-end: step \"2\" can never reach end: every path from it fails or goes round a loop",
				"3 no-path-to-end: step \"3\" can never reach end: every path from it fails or goes round a loop",
			},
		},
		{
			name:   "v1: self loop with a way out",
			spec:   []string{"1", "2 end 2"},
			limits: Limits{Strict: true},
			mod:    func(t *Template) { t.Steps[1].FailureBound = 3 }, // v1 has no bounds: still a cycle
			want: []string{
				"2 cycle: step 2 leads back to itself; a plan must always move forward: send the retry to a new step or to fail",
			},
		},
		{
			name: "bounded retry loop",
			spec: []string{"1", "2", "3", "4 end 2"},
			mod:  func(t *Template) { t.Steps[3].FailureBound = 3 },
		},
		{
			name: "bounded self loop with a then target, which only the then target reaches",
			spec: []string{"1", "2 end 2", "3 end"},
			mod:  func(t *Template) { t.Steps[1].FailureBound, t.Steps[1].FailureThen = 2, "3" },
		},
		{
			name: "unbounded loop takes the default",
			spec: []string{"1", "2 end 2"},
			want: []string{
				"2 unbounded-loop: step 2 on failure goes back to itself with no bound: the loop is taken at most 3 times, then the plan fails",
			},
		},
		{
			name:   "unbounded loop with a configured default",
			spec:   []string{"1", "2", "3 end 1"},
			limits: Limits{LoopRounds: 5},
			want: []string{
				"3 unbounded-loop: step 3 on failure goes back to step 1 with no bound: the loop is taken at most 5 times, then the plan fails",
			},
		},
		{
			name: "loop nothing can leave",
			spec: []string{"1", "2 3 3", "3 2 2"},
			mod: func(t *Template) {
				t.Steps[2].SuccessBound, t.Steps[2].SuccessThen, t.Steps[2].FailureBound, t.Steps[2].FailureThen = 2, "3", 2, "2"
			},
			want: []string{
				"1 entry-cannot-end: no path from the entry step \"1\" reaches end: every run of this skill fails or goes round a loop",
				"2 cycle: steps 2 -> 3 -> 2 form a loop nothing can leave: every edge of its steps, and where each bound leads, stays inside it",
				"2 no-path-to-end: step \"2\" can never reach end: every path from it fails or goes round a loop",
				"3 no-path-to-end: step \"3\" can never reach end: every path from it fails or goes round a loop",
			},
		},
		{
			name: "then target back into the loop",
			spec: []string{"1", "2", "3 end 2"},
			mod:  func(t *Template) { t.Steps[2].FailureBound, t.Steps[2].FailureThen = 3, "2" },
			want: []string{
				"3 cycle: step 3: once its failure bound is used up, failure_then \"2\" leads back into the loop 2 -> 3 -> 2, which could then go round for ever",
			},
		},
		{
			name: "unknown then target",
			spec: []string{"1 end 1"},
			mod:  func(t *Template) { t.Steps[0].FailureBound, t.Steps[0].FailureThen = 3, "9" },
			want: []string{
				"1 unknown-target: step \"1\": failure_then \"9\" names no step",
			},
		},
		{
			name: "unreachable chain",
			spec: []string{"1 4", "2", "3", "4"},
			want: []string{
				"2 unreachable-step: step \"2\" can never be reached from the entry step \"1\"",
				"3 unreachable-step: step \"3\" can never be reached from the entry step \"1\"",
			},
		},
		{
			name: "step that can only fail",
			spec: []string{"1 3 2", "2 fail", "3 end", "4"},
			want: []string{
				"2 no-path-to-end: step \"2\" can never reach end: every path from it fails",
				"4 unreachable-step: step \"4\" can never be reached from the entry step \"1\"",
			},
		},
		{
			name: "unknown target does not crash",
			spec: []string{"1 nowhere"},
			want: []string{
				"1 unknown-target: step \"1\": next_on_success \"nowhere\" names no step",
				"1 entry-cannot-end: no path from the entry step \"1\" reaches end: every run of this skill fails",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := skill(tt.spec...)
			if tt.mod != nil {
				tt.mod(tm)
			}
			var got []string
			for _, p := range Check(tm, tt.limits) {
				if p.Index < 0 || tm.Steps[p.Index].ID != p.Step {
					t.Errorf("%s: index %d does not hold step %q", p.Code, p.Index, p.Step)
					continue
				}
				got = append(got, fmt.Sprintf("%d %s: %s", tm.Steps[p.Index].Line, p.Code, p.Message))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Check() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestCheckDetail(t *testing.T) {
	s := skill("1", "2", "3 4 2", "4 2 end")
	s.Steps[2].FailureLabel = "retry"
	ds := Check(s, Limits{Strict: true})
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
		s    *Template
		want string
	}{
		{"nil", nil, "no template"},
		{"duplicate", skill("1", "1"), `duplicate step id "1"`},
		{"duplicate explicit ids", skill("a", "b", "a"), `duplicate step id "a"`},
		{"explicit id equal to a later number", skill("1", "3", "3"), `duplicate step id "3"`},
		{"number out of order equal to a numbered step", skill("5", "6", "x", "6"), `duplicate step id "6"`},
		{"numbers not from one", skill("7", "8", "7"), `duplicate step id "7"`},
		{"reserved", skill("1", "End"), `step id "End" is reserved for the terminal "end"`},
		{"empty id", &Template{Steps: []Step{{}}}, "step 1 has no id"},
		{"bad entry", func() *Template { s := skill("1"); s.Entry = "9"; return s }(), `entry "9" is not a step`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.s)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New() error = %v, want %q", err, tt.want)
			}
			if tt.s == nil {
				return
			}
			// Check reports why, instead of analysing a graph it cannot build.
			ps := Check(tt.s, Limits{})
			if len(ps) == 0 {
				t.Fatal("Check() found nothing wrong")
			}
			for _, p := range ps {
				switch p.Code {
				case CodeCycle, CodeUnreachable, CodeNoPathToEnd, CodeEntryCannotEnd:
					t.Errorf("Check() analysed a graph it cannot build: %s", p.Message)
				}
			}
		})
	}
}

func TestNoSteps(t *testing.T) {
	g, err := New(&Template{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Reachable() != nil || g.Cycles() != nil || g.CannotReachEnd() != nil || g.EntryReachesEnd() || g.Problems() != nil {
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

// TestCheckTemplate holds what Check says of a template as make_plan
// receives it: the limits, and the rules of IDs, goals, tools and targets.
func TestCheckTemplate(t *testing.T) {
	tools := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("t%d", i)
		}
		return out
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = fmt.Sprint(i + 1)
	}
	tests := []struct {
		name   string
		t      *Template
		limits Limits
		want   []string // "code step: message"
	}{
		{name: "clean", t: skill("1", "2")},
		{name: "101 steps", t: skill(many...),
			want: []string{"limit-exceeded : the plan has 101 steps; at most 100 are allowed: split the work or keep the steps coarser"}},
		{name: "a lower limit", t: skill("1", "2", "3"), limits: Limits{MaxSteps: 2},
			want: []string{"limit-exceeded : the plan has 3 steps; at most 2 are allowed: split the work or keep the steps coarser"}},
		{name: "201-character title", t: func() *Template { t := skill("1"); t.Title = strings.Repeat("é", 201); return t }(),
			want: []string{"limit-exceeded : the title is 201 characters; at most 200 are allowed"}},
		{name: "501-character goal", t: func() *Template { t := skill("1"); t.Steps[0].Goal = strings.Repeat("é", 501); return t }(),
			want: []string{`limit-exceeded 1: the goal of step "1" is 501 characters; at most 500 are allowed: keep it to one sentence and put the rest in detail`}},
		{name: "17 tools", t: func() *Template { t := skill("1"); t.Steps[0].RecommendedTools = tools(17); return t }(),
			want: []string{`limit-exceeded 1: step "1" recommends 17 tools; at most 16 are allowed: keep the few the step needs`}},
		{name: "ids", t: func() *Template { t := skill("1", "x", "END", "1"); t.Steps[1].ID = "a b"; return t }(),
			want: []string{
				`invalid-id a b: step ID "a b" is not valid: use 1-64 characters of A-Z, a-z, 0-9, _, - and .`,
				`reserved-id END: step ID "END" is reserved: "end" and "fail" are the plan's terminals`,
				`duplicate-id 1: step ID "1" is used twice`,
			}},
		{name: "goal and tools", t: func() *Template {
			t := skill("1")
			t.Steps[0].Goal = " "
			t.Steps[0].RecommendedTools = []string{"ok", "not ok"}
			return t
		}(), want: []string{
			`empty-goal 1: step "1" has no goal`,
			`invalid-tool-name 1: tool name "not ok" is not valid: use 1-64 characters of A-Z, a-z, 0-9, _, . and -`,
		}},
		{name: "unknown targets and entry", t: func() *Template {
			t := skill("find ask", "ask nowhere")
			t.Entry = "start"
			return t
		}(), want: []string{
			`unknown-target : the entry "start" names no step`,
			`unknown-target ask: step "ask": next_on_success "nowhere" names no step`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range Check(tt.t, tt.limits) {
				got = append(got, fmt.Sprintf("%s %s: %s", p.Code, p.Step, p.Message))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Check() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestCheckSuggestions(t *testing.T) {
	tm := skill("find clarfy", "clarify")
	tm.Steps[1].RecommendedTools = []string{"search thread"}
	tm.Steps = append(tm.Steps, Step{ID: "send offer", Goal: "g"})
	got := map[string]string{}
	for _, p := range Check(tm, Limits{}) {
		got[p.Code] = p.Suggestion
	}
	want := map[string]string{"invalid-id": "send-offer", "invalid-tool-name": "search_thread"}
	for code, s := range want {
		if got[code] != s {
			t.Errorf("%s suggests %q, want %q", code, got[code], s)
		}
	}
	// IDs that cannot be told apart stop the check before targets; with
	// valid IDs the unknown target gets the nearest ID.
	tm.Steps = tm.Steps[:2]
	tm.Steps[1].RecommendedTools = nil
	ps := Check(tm, Limits{})
	if len(ps) == 0 || ps[0].Code != CodeUnknownTarget || ps[0].Suggestion != "clarify" || !ps[0].OnEdge || ps[0].Edge != Success {
		t.Errorf("unknown target: %+v", ps)
	}
}

// TestDefaults holds the format's defaults, written in one place.
func TestDefaults(t *testing.T) {
	tm := &Template{Steps: []Step{{Goal: "a"}, {ID: "x", Goal: "b", NextOnFailure: "1"}, {Goal: "c"}}}
	tm.Defaults()
	var got []string
	for _, s := range tm.Steps {
		got = append(got, s.ID+">"+s.NextOnSuccess+"/"+s.NextOnFailure)
	}
	if want := "1>x/fail x>3/1 3>end/fail"; strings.Join(got, " ") != want || tm.Entry != "1" {
		t.Errorf("defaults %s, entry %q; want %s, entry 1", strings.Join(got, " "), tm.Entry, want)
	}
}
