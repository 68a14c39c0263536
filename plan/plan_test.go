package plan_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
)

var t0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// acat is the ACAT reimbursement skill of FORMAT.md §4 as a template.
func acat() *graph.Template {
	return &graph.Template{
		Format: 1, Skill: "acat-reimbursement", Title: "ACAT reimbursement", Entry: "1",
		Steps: []graph.Step{
			{ID: "1", Goal: "Already credited in this thread?", RecommendedTools: []string{"search_thread"},
				NextOnSuccess: "end", NextOnFailure: "2", SuccessLabel: "yes", FailureLabel: "no"},
			{ID: "2", Goal: "List ACAT transfers.", RecommendedTools: []string{"list_acat_transfers"},
				NextOnSuccess: "3", NextOnFailure: "4", FailureLabel: "on failure"},
			{ID: "3", Goal: "One or many records?", RecommendedTools: []string{},
				NextOnSuccess: "end", NextOnFailure: "4", SuccessLabel: "one record", FailureLabel: "many records"},
			{ID: "4", Goal: "Clarify with the user.", RecommendedTools: []string{"ask_user"},
				NextOnSuccess: "end", NextOnFailure: "fail"},
		},
	}
}

func makeACAT(t *testing.T) *plan.Plan {
	t.Helper()
	p, sup, err := plan.Make(nil, plan.MakeInput{Template: acat()}, "p1", t0)
	if err != nil || sup != nil {
		t.Fatalf("make: %v, superseded %v", err, sup)
	}
	return p
}

// statuses renders step statuses compactly: "1:done 2:in_progress ...".
func statuses(p *plan.Plan) string {
	var parts []string
	for _, s := range p.Steps {
		parts = append(parts, s.ID+":"+string(s.Status))
	}
	return strings.Join(parts, " ")
}

func edges(p *plan.Plan) string {
	var parts []string
	for _, s := range p.Steps {
		parts = append(parts, fmt.Sprintf("%s>%s/%s", s.ID, s.NextOnSuccess, s.NextOnFailure))
	}
	return strings.Join(parts, " ")
}

func jsonOf(t *testing.T, p *plan.Plan) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func goals(n int) []graph.Step {
	out := make([]graph.Step, n)
	for i := range out {
		out[i].Goal = "Step " + strconv.Itoa(i+1) + "."
	}
	return out
}

func TestMake(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) }
	tools := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "t" + strconv.Itoa(i)
		}
		return out
	}
	tests := []struct {
		name    string
		in      plan.MakeInput
		edges   string // want, when no error
		entry   string
		code    plan.Code
		message string // a part of the error message
	}{
		{name: "defaults", in: plan.MakeInput{Title: "t", Steps: goals(3)},
			edges: "1>2/fail 2>3/fail 3>end/fail", entry: "1"},
		{name: "explicit ids and forward edges",
			in: plan.MakeInput{Title: "t", Steps: []graph.Step{
				{ID: "find", Goal: "Find both charges.", NextOnFailure: "ask"},
				{ID: "refund", Goal: "Refund the later one.", NextOnSuccess: "END"},
				{ID: "ask", Goal: "Ask the user.", NextOnSuccess: "#refund", NextOnFailure: "Fail"},
			}},
			edges: "find>refund/ask refund>end/fail ask>refund/fail", entry: "find"},
		{name: "mixed ids take positions", in: plan.MakeInput{Title: "t", Steps: []graph.Step{
			{Goal: "a"}, {ID: "x", Goal: "b"}, {Goal: "c", NextOnSuccess: "1"}}},
			code: plan.CodeCycle, message: `step "3": next_on_success goes back to step "1", a loop with no bound: set success_bound on step "3"`},
		{name: "template", in: plan.MakeInput{Template: acat()},
			edges: "1>end/2 2>3/4 3>end/4 4>end/fail", entry: "1"},
		{name: "template and steps", in: plan.MakeInput{Template: acat(), Steps: goals(1)},
			code: plan.CodeInvalid, message: "either steps or a skill"},
		{name: "no title", in: plan.MakeInput{Title: "  ", Steps: goals(1)},
			code: plan.CodeInvalid, message: "needs a title"},
		{name: "title at limit", in: plan.MakeInput{Title: long(200), Steps: goals(1)}, edges: "1>end/fail", entry: "1"},
		{name: "title too long", in: plan.MakeInput{Title: long(201), Steps: goals(1)},
			code: plan.CodeLimit, message: "the title is 201 characters; at most 200"},
		{name: "no steps", in: plan.MakeInput{Title: "t"},
			code: plan.CodeInvalid, message: "at least one step"},
		{name: "objective at limit", in: plan.MakeInput{Title: "t", Objective: long(500), Steps: goals(1)}, edges: "1>end/fail", entry: "1"},
		{name: "objective too long", in: plan.MakeInput{Title: "t", Objective: long(501), Steps: goals(1)},
			code: plan.CodeLimit, message: "the objective is 501 characters; at most 500 are allowed: one line on what the plan is for"},
		{name: "objective too long over a template", in: plan.MakeInput{Template: acat(), Objective: long(501)},
			code: plan.CodeLimit, message: "the objective is 501 characters"},
		{name: "100 steps", in: plan.MakeInput{Title: "t", Steps: goals(100)}, entry: "1"},
		{name: "101 steps", in: plan.MakeInput{Title: "t", Steps: goals(101)},
			code: plan.CodeLimit, message: "101 steps; at most 100"},
		{name: "empty goal", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a"}, {Goal: " \n"}}},
			code: plan.CodeInvalid, message: `step "2" has no goal`},
		{name: "goal at limit", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: long(500)}}}, entry: "1"},
		{name: "goal too long", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: long(501)}}},
			code: plan.CodeLimit, message: `the goal of step "1" is 501 characters; at most 500`},
		{name: "16 tools", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", RecommendedTools: tools(16)}}}, entry: "1"},
		{name: "17 tools", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", RecommendedTools: tools(17)}}},
			code: plan.CodeLimit, message: `recommends 17 tools; at most 16`},
		{name: "bad tool name", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", RecommendedTools: []string{"ok", "no spaces"}}}},
			code: plan.CodeInvalid, message: `tool name "no spaces" is not valid`},
		{name: "empty tool name", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", RecommendedTools: []string{""}}}},
			code: plan.CodeInvalid, message: `tool name "" is not valid`},
		{name: "invalid id", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{ID: "a b", Goal: "a"}}},
			code: plan.CodeInvalid, message: `step ID "a b" is not valid: use 1-64 characters`},
		{name: "id too long", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{ID: strings.Repeat("a", 65), Goal: "a"}}},
			code: plan.CodeInvalid, message: "is not valid: use 1-64 characters"},
		{name: "reserved id", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{ID: "End", Goal: "a"}}},
			code: plan.CodeInvalid, message: `step ID "End" is reserved`},
		{name: "duplicate id", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{ID: "2", Goal: "a"}, {Goal: "b"}}},
			code: plan.CodeDuplicate, message: `step ID "2" is used twice; the first step with this ID is step 1 of the list`},
		{name: "unknown target", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", NextOnFailure: "clarify"}, {Goal: "b"}}},
			code: plan.CodeUnknownStep, message: `step "1": next_on_failure "clarify" names no step; valid targets: "1", "2", end, fail`},
		{name: "unknown entry", in: plan.MakeInput{Template: &graph.Template{Title: "t", Entry: "9", Steps: []graph.Step{{ID: "1", Goal: "a"}}}},
			code: plan.CodeUnknownStep, message: `the entry "9" names no step`},
		{name: "cycle", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a"}, {Goal: "b"}, {Goal: "c", NextOnFailure: "2"}}},
			code: plan.CodeCycle, message: `step "3": next_on_failure goes back to step "2", a loop with no bound: set failure_bound on step "3" to how many times it may be taken (e.g. 3), and failure_then to where it goes after that (default fail)`},
		{name: "bounded loop", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a"}, {Goal: "b"}, {Goal: "c", NextOnFailure: "2", FailureBound: 3}}},
			edges: "1>2/fail 2>3/fail 3>end/2", entry: "1"},
		{name: "loop nothing can leave", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", NextOnFailure: "2"}, {Goal: "b", NextOnFailure: "1", FailureBound: 2, FailureThen: "1", NextOnSuccess: "1", SuccessBound: 2, SuccessThen: "1"}}},
			code: plan.CodeCycle, message: "form a loop nothing can leave"},
		{name: "unknown then", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", NextOnFailure: "1", FailureBound: 2, FailureThen: "9"}}},
			code: plan.CodeUnknownStep, message: `failure_then "9" names no step`},
		{name: "template loop takes the default bound", in: plan.MakeInput{Template: &graph.Template{Title: "t", Steps: []graph.Step{{Goal: "a"}, {Goal: "b", NextOnFailure: "1"}}}},
			edges: "1>2/fail 2>end/1", entry: "1"},
		{name: "self loop", in: plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a", NextOnFailure: "1"}}},
			code: plan.CodeCycle, message: `step "1": next_on_failure goes back to itself, a loop with no bound: set failure_bound`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, sup, err := plan.Make(nil, tt.in, "id", t0)
			if tt.code != "" {
				if err == nil {
					t.Fatalf("accepted, want %s: %s", tt.code, edges(p))
				}
				if p != nil || sup != nil {
					t.Errorf("refused make returned a plan")
				}
				if plan.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.message) {
					t.Fatalf("error %q (%s), want %s containing %q", err, plan.ErrorCode(err), tt.code, tt.message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.edges != "" && edges(p) != tt.edges {
				t.Errorf("edges %s, want %s", edges(p), tt.edges)
			}
			if p.Entry != tt.entry || p.Step(p.Entry).Status != plan.StepInProgress {
				t.Errorf("entry %q (%s), want %q in progress", p.Entry, p.Step(p.Entry).Status, tt.entry)
			}
			inProgress := 0
			for _, s := range p.Steps {
				if s.Status == plan.StepInProgress {
					inProgress++
				} else if s.Status != plan.StepPending {
					t.Errorf("step %s is %s in a new plan", s.ID, s.Status)
				}
			}
			if inProgress != 1 || p.Status != plan.StatusActive || p.ID != "id" || !p.CreatedAt.Equal(t0) || !p.UpdatedAt.Equal(t0) {
				t.Errorf("new plan: %d in progress, status %s, id %q, times %v %v", inProgress, p.Status, p.ID, p.CreatedAt, p.UpdatedAt)
			}
		})
	}
}

// TestMakeObjective: the objective is folded to one line, a template's is
// taken unless the input gives one, and it is kept in the plan's JSON.
func TestMakeObjective(t *testing.T) {
	tpl := acat()
	tpl.Objective = "Reimburse the ACAT fee."
	tests := []struct {
		name string
		in   plan.MakeInput
		want string
	}{
		{"none", plan.MakeInput{Title: "t", Steps: goals(1)}, ""},
		{"folded to one line", plan.MakeInput{Title: "t", Objective: "  Refund the\n second\tcharge. ", Steps: goals(1)}, "Refund the second charge."},
		{"the template's", plan.MakeInput{Template: tpl}, "Reimburse the ACAT fee."},
		{"the input's over the template's", plan.MakeInput{Template: tpl, Objective: "For ticket 4711."}, "For ticket 4711."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _, err := plan.Make(nil, tt.in, "p", t0)
			if err != nil {
				t.Fatal(err)
			}
			if p.Objective != tt.want {
				t.Errorf("objective %q, want %q", p.Objective, tt.want)
			}
			var back plan.Plan
			if err := json.Unmarshal([]byte(jsonOf(t, p)), &back); err != nil || back.Objective != tt.want {
				t.Errorf("objective through JSON: %q, %v", back.Objective, err)
			}
			if has := strings.Contains(plan.Checklist(p), "\nobjective: "); has != (tt.want != "") {
				t.Errorf("checklist objective line: %v\n%s", has, plan.Checklist(p))
			}
		})
	}
}

func TestMakeNormalises(t *testing.T) {
	p, _, err := plan.Make(nil, plan.MakeInput{Title: " Refund ", Steps: []graph.Step{
		{Goal: "  Find   both\ncharges. ", RecommendedTools: []string{"a", " b ", "a"}, Detail: " see policy \n"},
	}}, "id", t0)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Steps[0]
	if p.Title != "Refund" || s.Goal != "Find both charges." || strings.Join(s.RecommendedTools, ",") != "a,b" || s.Detail != "see policy" {
		t.Fatalf("normalised: %q %q %q %q", p.Title, s.Goal, s.RecommendedTools, s.Detail)
	}
	tpl, _, err := plan.Make(nil, plan.MakeInput{Title: "Mine", Template: acat()}, "id", t0)
	if err != nil || tpl.Title != "Mine" || tpl.Skill != "acat-reimbursement" || tpl.Steps[2].SuccessLabel != "one record" {
		t.Fatalf("template with a title: %v %+v", err, tpl)
	}
	if tpl.Steps[2].RecommendedTools == nil {
		t.Errorf("recommended_tools must be [] in JSON, not null")
	}
}

// TestMakeKeepsProvenance: where a version 2 compiler read a goal or an
// edge from travels with the step into the plan and its JSON, and a v1
// step writes none of it.
func TestMakeKeepsProvenance(t *testing.T) {
	tm := acat()
	tm.Steps[1].GoalFrom = "bold lead phrase"
	tm.Steps[1].SuccessFrom = "next step"
	tm.Steps[1].FailureFrom = `prose "if that fails, go to step 4"`
	p, _, err := plan.Make(nil, plan.MakeInput{Template: tm}, "id", t0)
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Steps[1]; s.GoalFrom != tm.Steps[1].GoalFrom || s.SuccessFrom != tm.Steps[1].SuccessFrom || s.FailureFrom != tm.Steps[1].FailureFrom {
		t.Errorf("provenance lost: %+v", s.Step)
	}
	js := jsonOf(t, p)
	if !strings.Contains(js, `"goal_from":"bold lead phrase"`) || strings.Count(js, "goal_from") != 1 {
		t.Errorf("plan JSON: %s", js)
	}
}

func TestMakeSupersedes(t *testing.T) {
	prev := makeACAT(t)
	before := jsonOf(t, prev)
	later := t0.Add(time.Hour)
	p, sup, err := plan.Make(prev, plan.MakeInput{Title: "next", Steps: goals(2)}, "p2", later)
	if err != nil {
		t.Fatal(err)
	}
	if sup == nil || sup.ID != "p1" || sup.Status != plan.StatusCancelled || sup.Note != "superseded" || !sup.UpdatedAt.Equal(later) {
		t.Fatalf("superseded = %+v", sup)
	}
	if jsonOf(t, prev) != before {
		t.Errorf("make modified the previous plan")
	}
	if p.ID != "p2" || p.Title != "next" {
		t.Errorf("new plan %q %q", p.ID, p.Title)
	}
	closed, err := plan.Close(prev, "done", plan.StatusCompleted, plan.Changes{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, sup, err := plan.Make(closed, plan.MakeInput{Title: "next", Steps: goals(1)}, "p3", later); err != nil || sup != nil {
		t.Fatalf("make after a closed plan: superseded %v, %v", sup, err)
	}
}

func TestUpdate(t *testing.T) {
	tests := []struct {
		name    string
		before  []plan.Changes // applied first, each must succeed
		ch      plan.Changes
		want    string
		code    plan.Code
		message string
	}{
		{name: "check moves along success", ch: plan.Changes{Fail: []string{"1"}},
			want: "1:failed 2:in_progress 3:pending 4:pending"},
		{name: "check to end starts nothing", ch: plan.Changes{Check: []string{"1"}},
			want: "1:done 2:pending 3:pending 4:pending"},
		{name: "fail moves along failure", before: []plan.Changes{{Fail: []string{"1"}}}, ch: plan.Changes{Fail: []string{"2"}},
			want: "1:failed 2:failed 3:pending 4:in_progress"},
		{name: "skip moves along success", before: []plan.Changes{{Fail: []string{"1"}}}, ch: plan.Changes{Skip: []string{"2"}},
			want: "1:failed 2:skipped 3:in_progress 4:pending"},
		{name: "uncheck makes pending", before: []plan.Changes{{Fail: []string{"1"}}, {Check: []string{"2"}}}, ch: plan.Changes{Uncheck: []string{"2", "1"}},
			want: "1:pending 2:pending 3:in_progress 4:pending"},
		{name: "several at once in any order", ch: plan.Changes{Check: []string{"2", "3"}, Fail: []string{"1"}},
			want: "1:failed 2:done 3:done 4:pending"},
		{name: "next not pending is left alone", before: []plan.Changes{{Fail: []string{"1"}}, {Check: []string{"3"}}}, ch: plan.Changes{Check: []string{"2"}},
			want: "1:failed 2:done 3:done 4:pending"},
		{name: "uncheck with a check leading to it", ch: plan.Changes{Fail: []string{"1"}, Uncheck: []string{"2"}},
			want: "1:failed 2:in_progress 3:pending 4:pending"},
		{name: "ids are trimmed", ch: plan.Changes{Fail: []string{" 1 "}},
			want: "1:failed 2:in_progress 3:pending 4:pending"},
		{name: "nothing named", ch: plan.Changes{},
			code: plan.CodeInvalid, message: "nothing to update"},
		{name: "unknown id", ch: plan.Changes{Check: []string{"1"}, Skip: []string{"7"}},
			code: plan.CodeUnknownStep, message: `skip names "7", which is not a step of this plan; valid IDs: "1", "2", "3", "4"`},
		{name: "terminal is not a step", ch: plan.Changes{Check: []string{"end"}},
			code: plan.CodeUnknownStep, message: `check names "end"`},
		{name: "twice in one list", ch: plan.Changes{Check: []string{"1", "1"}},
			code: plan.CodeDuplicate, message: `step "1" is named twice in check`},
		{name: "twice across lists", ch: plan.Changes{Check: []string{"2"}, Fail: []string{"1"}, Skip: []string{"2"}},
			code: plan.CodeDuplicate, message: `step "2" is named in both check and skip`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := makeACAT(t)
			for _, ch := range tt.before {
				var err error
				if p, err = plan.Update(p, ch, t0); err != nil {
					t.Fatal(err)
				}
			}
			before := jsonOf(t, p)
			later := t0.Add(time.Minute)
			got, err := plan.Update(p, tt.ch, later)
			if jsonOf(t, p) != before {
				t.Fatalf("update modified its input")
			}
			if tt.code != "" {
				if err == nil || got != nil || plan.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.message) {
					t.Fatalf("got %v, error %q (%s); want %s containing %q", got, err, plan.ErrorCode(err), tt.code, tt.message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := statuses(got); s != tt.want {
				t.Errorf("statuses\n got %s\nwant %s", s, tt.want)
			}
			if !got.UpdatedAt.Equal(later) || !got.CreatedAt.Equal(t0) || got.Status != plan.StatusActive {
				t.Errorf("times %v %v status %s", got.CreatedAt, got.UpdatedAt, got.Status)
			}
		})
	}
}

func TestUpdateRefusals(t *testing.T) {
	if _, err := plan.Update(nil, plan.Changes{Check: []string{"1"}}, t0); plan.ErrorCode(err) != plan.CodeNoPlan {
		t.Errorf("update of no plan: %v", err)
	}
	closed, err := plan.Close(makeACAT(t), "gave up", plan.StatusCancelled, plan.Changes{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Update(closed, plan.Changes{Check: []string{"1"}}, t0)
	if plan.ErrorCode(err) != plan.CodeClosed || err.Error() != `the plan "ACAT reimbursement" is already cancelled and takes no more changes: call make_plan to start a new one` {
		t.Errorf("update of a closed plan: %v", err)
	}
}

func TestClose(t *testing.T) {
	tests := []struct {
		name    string
		before  []plan.Changes
		note    string
		status  plan.Status
		ch      plan.Changes
		want    plan.Status
		code    plan.Code
		message string
	}{
		{name: "reached end", note: "answered from the thread", ch: plan.Changes{Check: []string{"1"}}, want: plan.StatusCompleted},
		{name: "acat flow", before: []plan.Changes{{Fail: []string{"1"}}, {Check: []string{"2"}}},
			note: "one record", ch: plan.Changes{Check: []string{"3"}}, want: plan.StatusCompleted},
		{name: "reached fail", before: []plan.Changes{{Fail: []string{"1"}}, {Fail: []string{"2"}}},
			note: "user did not answer", ch: plan.Changes{Fail: []string{"4"}}, want: plan.StatusFailed},
		{name: "stopped half way", before: []plan.Changes{{Fail: []string{"1"}}},
			note: "user left", want: plan.StatusCancelled},
		{name: "nothing done", note: "not needed", want: plan.StatusCancelled},
		{name: "skipped to end", before: []plan.Changes{{Fail: []string{"1"}}, {Check: []string{"2"}}},
			note: "n/a", ch: plan.Changes{Skip: []string{"3"}}, want: plan.StatusCompleted},
		// Off the walk, an edge to end or fail reaches nothing: the walk
		// stops at 1, still in progress.
		{name: "end off the walk is not reached", note: "jumped ahead", ch: plan.Changes{Check: []string{"3"}}, want: plan.StatusCancelled},
		{name: "fail off the walk is not reached", note: "jumped ahead", ch: plan.Changes{Fail: []string{"4"}}, want: plan.StatusCancelled},
		{name: "both off the walk", note: "confused", ch: plan.Changes{Check: []string{"3"}, Fail: []string{"4"}}, want: plan.StatusCancelled},
		{name: "acat reached end through 4", before: []plan.Changes{{Fail: []string{"1"}}, {Fail: []string{"2"}}},
			note: "clarified", ch: plan.Changes{Check: []string{"4"}}, want: plan.StatusCompleted},
		{name: "one call walks to end", note: "all at once", ch: plan.Changes{Fail: []string{"1", "3"}, Check: []string{"2", "4"}}, want: plan.StatusCompleted},
		{name: "walk wins over other steps", note: "n", ch: plan.Changes{Check: []string{"1"}, Fail: []string{"4"}}, want: plan.StatusCompleted},
		{name: "explicit status wins", note: "n", status: plan.StatusFailed, ch: plan.Changes{Check: []string{"1"}}, want: plan.StatusFailed},
		{name: "no note", note: " ", code: plan.CodeInvalid, message: "close_plan needs a note"},
		{name: "note at limit", note: strings.Repeat("n", 2000), want: plan.StatusCancelled},
		{name: "note too long", note: strings.Repeat("n", 2001), code: plan.CodeLimit, message: "the note is 2001 characters; at most 2000"},
		{name: "bad status", note: "n", status: "done", code: plan.CodeInvalid, message: `status "done" is not one a plan closes with`},
		{name: "active is not a closing status", note: "n", status: plan.StatusActive, code: plan.CodeInvalid, message: `status "active"`},
		{name: "lists refused as in update", note: "n", ch: plan.Changes{Check: []string{"9"}}, code: plan.CodeUnknownStep, message: `valid IDs: "1", "2", "3", "4"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := makeACAT(t)
			for _, ch := range tt.before {
				var err error
				if p, err = plan.Update(p, ch, t0); err != nil {
					t.Fatal(err)
				}
			}
			before := jsonOf(t, p)
			got, err := plan.Close(p, tt.note, tt.status, tt.ch, t0.Add(time.Minute))
			if jsonOf(t, p) != before {
				t.Fatalf("close modified its input")
			}
			if tt.code != "" {
				if err == nil || got != nil || plan.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.message) {
					t.Fatalf("got %v, error %q (%s); want %s containing %q", got, err, plan.ErrorCode(err), tt.code, tt.message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != tt.want || got.Note != strings.TrimSpace(tt.note) {
				t.Errorf("status %s note %q, want %s", got.Status, got.Note, tt.want)
			}
			if _, err := plan.Close(got, "again", "", plan.Changes{}, t0); plan.ErrorCode(err) != plan.CodeClosed {
				t.Errorf("second close: %v", err)
			}
		})
	}
}

// TestChecklist compares the checklist at each point of a few flows with
// testdata/plan/*.txt.
func TestChecklist(t *testing.T) {
	type stepFn func(p *plan.Plan) (*plan.Plan, error)
	update := func(ch plan.Changes) stepFn {
		return func(p *plan.Plan) (*plan.Plan, error) { return plan.Update(p, ch, t0) }
	}
	closeWith := func(note string, ch plan.Changes) stepFn {
		return func(p *plan.Plan) (*plan.Plan, error) { return plan.Close(p, note, "", ch, t0) }
	}
	tests := []struct {
		name  string
		in    plan.MakeInput
		steps []stepFn
	}{
		{name: "acat", in: plan.MakeInput{Template: acat()}, steps: []stepFn{
			update(plan.Changes{Fail: []string{"1"}}),
			update(plan.Changes{Check: []string{"2"}}),
			closeWith("one record: credited on 3 May", plan.Changes{Check: []string{"3"}}),
		}},
		{name: "acat-reached-end", in: plan.MakeInput{Template: acat()}, steps: []stepFn{
			update(plan.Changes{Check: []string{"1"}}),
		}},
		{name: "acat-reached-fail", in: plan.MakeInput{Template: acat()}, steps: []stepFn{
			update(plan.Changes{Fail: []string{"1", "2", "4"}}),
			closeWith("the user did not answer", plan.Changes{}),
		}},
		{name: "nothing-in-progress", in: plan.MakeInput{Title: "Refund a duplicate charge", Objective: "Refund the second charge for order 1182.", Steps: []graph.Step{
			{Goal: "Find both charges.", RecommendedTools: []string{"list_charges"}},
			{Goal: "Refund the later one.", RecommendedTools: []string{"refund_charge", "notify"}},
		}}, steps: []stepFn{
			update(plan.Changes{Uncheck: []string{"1"}}),
		}},
		{name: "long-goals", in: plan.MakeInput{Title: "Long · goals", Steps: []graph.Step{
			{ID: "collect", Goal: strings.Repeat("Collect the statements of every account the user holds with us ", 2), RecommendedTools: []string{"list_accounts"}},
			{ID: "x", Goal: "Short.", RecommendedTools: []string{"a", "b"}, NextOnFailure: "u3"},
			{ID: "u3", Goal: "Ünïcødé goal.", RecommendedTools: []string{"c"}, NextOnSuccess: "end"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _, err := plan.Make(nil, tt.in, "id", t0)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			b.WriteString("== make\n" + plan.Checklist(p))
			for i, f := range tt.steps {
				if p, err = f(p); err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "== %d\n%s", i+1, plan.Checklist(p))
			}
			golden.Check(t, filepath.Join("..", "testdata", "plan", "checklist-"+tt.name+".txt"), []byte(b.String()))
		})
	}
}

// TestPosition: on the ACAT plan, after every order of outcomes, the walk,
// the position, which recorded steps were off it, and the guidance agree.
// The guidance says "reached end/fail" only when the walk reaches it.
func TestPosition(t *testing.T) {
	tests := []struct {
		name    string
		before  []plan.Changes
		ch      plan.Changes
		walk    string // the walk's steps, then "@" where it stopped
		pos     string
		off     string
		outcome plan.Status
	}{
		{name: "last step first", ch: plan.Changes{Check: []string{"4"}},
			walk: "@1", pos: "1", off: "4", outcome: plan.StatusActive},
		{name: "the entry", ch: plan.Changes{Check: []string{"1"}},
			walk: "1@end", pos: "", outcome: plan.StatusCompleted},
		{name: "entry failed", ch: plan.Changes{Fail: []string{"1"}},
			walk: "1@2", pos: "2", outcome: plan.StatusActive},
		{name: "two on the walk in one call", ch: plan.Changes{Fail: []string{"1"}, Check: []string{"2"}},
			walk: "1,2@3", pos: "3", outcome: plan.StatusActive},
		{name: "same in the other order", ch: plan.Changes{Check: []string{"2"}, Fail: []string{"1"}},
			walk: "1,2@3", pos: "3", outcome: plan.StatusActive},
		{name: "ahead of the walk", ch: plan.Changes{Check: []string{"2"}},
			walk: "@1", pos: "1,3", off: "2", outcome: plan.StatusActive},
		{name: "fail edge off the walk", ch: plan.Changes{Fail: []string{"4"}},
			walk: "@1", pos: "1", off: "4", outcome: plan.StatusActive},
		{name: "catching up reaches end", before: []plan.Changes{{Check: []string{"3"}}},
			ch: plan.Changes{Fail: []string{"1"}, Check: []string{"2"}}, walk: "1,2,3@end", pos: "", outcome: plan.StatusCompleted},
		{name: "in progress off the walk is on the position", before: []plan.Changes{{Check: []string{"2"}}},
			ch: plan.Changes{Check: []string{"3"}}, walk: "@1", pos: "1", outcome: plan.StatusActive},
		{name: "walk reaches fail", before: []plan.Changes{{Fail: []string{"1"}}, {Fail: []string{"2"}}},
			ch: plan.Changes{Fail: []string{"4"}}, walk: "1,2,4@fail", pos: "", outcome: plan.StatusFailed},
		{name: "reopened entry", ch: plan.Changes{Uncheck: []string{"1"}, Check: []string{"4"}},
			walk: "@1", pos: "", off: "4", outcome: plan.StatusActive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := makeACAT(t)
			for _, ch := range tt.before {
				var err error
				if p, err = plan.Update(p, ch, t0); err != nil {
					t.Fatal(err)
				}
			}
			got, err := plan.Update(p, tt.ch, t0)
			if err != nil {
				t.Fatal(err)
			}
			w := plan.WalkOf(got)
			if s := strings.Join(w.Steps, ",") + "@" + w.At; s != tt.walk {
				t.Errorf("walk = %s, want %s", s, tt.walk)
			}
			if s := strings.Join(plan.Position(got), ","); s != tt.pos {
				t.Errorf("position = %q, want %q", s, tt.pos)
			}
			off := plan.OffPosition(p, got, tt.ch)
			if s := strings.Join(off, ","); s != tt.off {
				t.Errorf("off the position = %q, want %q", s, tt.off)
			}
			if o := plan.Outcome(got); o != tt.outcome {
				t.Errorf("outcome = %s, want %s", o, tt.outcome)
			}
			text := plan.Checklist(got)
			if reached := strings.Contains(text, "the path reached"); reached != (tt.outcome != plan.StatusActive) {
				t.Errorf("checklist says reached: %v, outcome %s:\n%s", reached, tt.outcome, text)
			}
			notice := plan.OffPositionNotice(off, got)
			if (notice != "") != (tt.off != "") {
				t.Errorf("notice %q with off %q", notice, tt.off)
			}
			if tt.pos != "" && notice != "" && !strings.Contains(notice, "the position is "+strings.Split(tt.pos, ",")[0]+" (") {
				t.Errorf("notice does not name the position %s: %q", tt.pos, notice)
			}
			// close_plan derives its status from the same walk.
			closed, err := plan.Close(got, "n", "", plan.Changes{}, t0)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.outcome
			if want == plan.StatusActive {
				want = plan.StatusCancelled
			}
			if closed.Status != want {
				t.Errorf("close_plan's status = %s, want %s", closed.Status, want)
			}
		})
	}
}

func TestOffPositionNotice(t *testing.T) {
	p := makeACAT(t)
	got, err := plan.Update(p, plan.Changes{Check: []string{"4", "3"}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	const want = "steps 4, 3 were off the position and are kept as recorded; the position is 1 (Already credited in this thread?)"
	if n := plan.OffPositionNotice(plan.OffPosition(p, got, plan.Changes{Check: []string{"4", "3"}}), got); n != want {
		t.Errorf("notice:\n got %s\nwant %s", n, want)
	}
}

// TestWords: a refusal and the guidance name the tools in the caller's
// words; Error() keeps the MCP tools' names.
func TestWords(t *testing.T) {
	cli := plan.Words{Make: "skillc plan make", Update: "skillc plan update", Close: "skillc plan close",
		Check: "--check", Uncheck: "--uncheck", Fail: "--fail", Skip: "--skip", Note: "--note", Call: "run"}
	p := makeACAT(t)
	_, err := plan.Update(p, plan.Changes{Check: []string{"1"}, Skip: []string{"1"}}, t0)
	if got, want := plan.Message(err, cli), `step "1" is named in both --check and --skip`; !strings.HasPrefix(got, want) {
		t.Errorf("cli words: %q, want %q...", got, want)
	}
	if got, want := err.Error(), `step "1" is named in both check and skip`; !strings.HasPrefix(got, want) {
		t.Errorf("tool words: %q, want %q...", got, want)
	}
	closed, err := plan.Close(p, "n", "", plan.Changes{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Update(closed, plan.Changes{Check: []string{"1"}}, t0)
	if got := plan.Message(err, cli); !strings.HasSuffix(got, "run skillc plan make to start a new one") {
		t.Errorf("closed: %q", got)
	}
	if got := plan.Message(plan.NoPlanError(), cli); got != "there is no plan in this session: run skillc plan make to start one" {
		t.Errorf("no plan: %q", got)
	}
	_, err = plan.Close(p, "", "", plan.Changes{}, t0)
	if got := plan.Message(err, cli); !strings.HasPrefix(got, "skillc plan close needs --note") {
		t.Errorf("no note: %q", got)
	}
	done, err := plan.Update(p, plan.Changes{Check: []string{"1"}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.ChecklistIn(done, cli); !strings.Contains(got, "close the plan with skillc plan close (status completed)") || strings.Contains(got, "close_plan") {
		t.Errorf("guidance in cli words:\n%s", got)
	}
}

// TestPositionEveryOrder records up to three outcomes, one call each, in
// every order over the ACAT plan's steps (1,884 sequences), and checks what
// must hold whatever the order: while the entry is unfinished nothing is
// "reached" and close_plan derives cancelled; "reached end" comes with a
// chain of finished steps from the entry to end; a notice comes exactly
// when a step was recorded off the position, and names the position.
func TestPositionEveryOrder(t *testing.T) {
	type rec struct {
		id string
		ch func(string) plan.Changes
	}
	var recs []rec
	for _, id := range []string{"1", "2", "3", "4"} {
		recs = append(recs,
			rec{id, func(s string) plan.Changes { return plan.Changes{Check: []string{s}} }},
			rec{id, func(s string) plan.Changes { return plan.Changes{Fail: []string{s}} }},
			rec{id, func(s string) plan.Changes { return plan.Changes{Skip: []string{s}} }})
	}
	n := 0
	var walk func(p *plan.Plan, depth int, trail string)
	walk = func(p *plan.Plan, depth int, trail string) {
		if depth == 3 {
			return
		}
		for _, r := range recs {
			ch := r.ch(r.id)
			next, err := plan.Update(p, ch, t0)
			if err != nil {
				t.Fatalf("%s: %v", trail, err)
			}
			n++
			where := fmt.Sprintf("%s %+v", trail, ch)
			text := plan.Checklist(next)
			closed, err := plan.Close(next, "n", "", plan.Changes{}, t0)
			if err != nil {
				t.Fatal(err)
			}
			entry := next.Step("1").Status
			if entry == plan.StepPending || entry == plan.StepInProgress {
				if strings.Contains(text, "reached") || closed.Status != plan.StatusCancelled {
					t.Fatalf("%s: entry unfinished, but checklist/close say otherwise (close: %s):\n%s", where, closed.Status, text)
				}
			}
			if plan.Outcome(next) == plan.StatusCompleted {
				// An independent check of the chain: follow the finished
				// steps' edges from the entry.
				cur, ok := "1", false
				for range 5 {
					if cur == "end" {
						ok = true
						break
					}
					s := next.Step(cur)
					if s == nil {
						break
					}
					switch s.Status {
					case plan.StepDone, plan.StepSkipped:
						cur = s.NextOnSuccess
					case plan.StepFailed:
						cur = s.NextOnFailure
					default:
						cur = ""
					}
				}
				if !ok {
					t.Fatalf("%s: completed without a finished chain to end", where)
				}
			}
			off := plan.OffPosition(p, next, ch)
			notice := plan.OffPositionNotice(off, next)
			if (notice != "") != (len(off) > 0) {
				t.Fatalf("%s: off %v, notice %q", where, off, notice)
			}
			for _, id := range plan.Position(next) {
				if notice != "" && !strings.Contains(notice, id+" (") {
					t.Fatalf("%s: notice %q does not name in-progress step %s", where, notice, id)
				}
			}
			walk(next, depth+1, where)
		}
	}
	walk(makeACAT(t), 0, "")
	if n != 12+12*12+12*12*12 {
		t.Errorf("%d sequences, want 1884", n)
	}
}
