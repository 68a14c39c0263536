package plan_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
)

// overlayText renders an overlay compactly: the states, the notes, the
// path and the caption, in a fixed order.
func overlayText(p *plan.Plan, o *graph.Overlay) string {
	var states, notes, path []string
	for _, s := range p.Steps {
		states = append(states, s.ID+":"+o.States[s.ID].String())
		if n := o.Notes[s.ID]; n != "" {
			notes = append(notes, s.ID+":"+n)
		}
		for _, k := range []graph.EdgeKind{graph.Success, graph.Failure} {
			if o.Path[graph.Arc{From: s.ID, Kind: k}] {
				path = append(path, s.ID+":"+k.String())
			}
		}
	}
	return fmt.Sprintf("states %s\nnotes %s\npath %s\ncaption %s",
		strings.Join(states, " "), strings.Join(notes, " "), strings.Join(path, " "), o.Caption)
}

// TestOverlay: what a picture of a plan shows, on the ACAT plan in the
// orders issue 13 names, and on a retry loop with a waiting step.
func TestOverlay(t *testing.T) {
	tests := []struct {
		name    string
		plan    func(t *testing.T) *plan.Plan
		changes []plan.Changes
		close   string // a note: close the plan after the changes
		want    string
	}{
		{name: "made", plan: makeACAT, want: `states 1:in progress 2:pending 3:pending 4:pending
notes 
path 
caption active · 0/4 done · position: 1`},
		// 1 done reaches end at once; 2 failed off the position puts 4 in
		// progress: the path is 1 to end, 2 and 4 are off it.
		{name: "1 done, 2 failed, 4 in progress", plan: makeACAT,
			changes: []plan.Changes{{Check: []string{"1"}}, {Fail: []string{"2"}}},
			want: `states 1:done 2:failed 3:pending 4:in progress
notes 
path 1:success
caption active · 1/4 done · position: 4`},
		{name: "the path through 3 to 4", plan: makeACAT,
			changes: []plan.Changes{{Fail: []string{"1"}}, {Check: []string{"2"}}, {Fail: []string{"3"}}},
			want: `states 1:failed 2:done 3:failed 4:in progress
notes 
path 1:failure 2:success 3:failure
caption active · 1/4 done · position: 4`},
		{name: "skipped and closed at end", plan: makeACAT,
			changes: []plan.Changes{{Fail: []string{"1"}}, {Skip: []string{"2"}}, {Check: []string{"3"}}}, close: "credited",
			want: `states 1:failed 2:skipped 3:done 4:pending
notes 
path 1:failure 2:success 3:success
caption completed · 1/4 done · the path reached end`},
		{name: "a round of a loop, waiting", plan: func(t *testing.T) *plan.Plan { return retryPlan(t, "") },
			changes: []plan.Changes{{Check: []string{"1", "2", "3"}}, {Fail: []string{"4"}}, {Check: []string{"2", "3"}}},
			want: `states 1:done 2:done 3:done 4:waiting 5:pending
notes 2:round 1 of 3 3:round 1 of 3 4:round 1 of 3
path 1:success 2:success 3:success
caption active · 3/5 done · position: 4`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.plan(t)
			for _, ch := range tt.changes {
				p = update(t, p, ch)
			}
			if tt.close != "" {
				var err error
				if p, err = plan.Close(p, tt.close, "", plan.Changes{}, t0); err != nil {
					t.Fatal(err)
				}
			}
			before := jsonOf(t, p)
			if got := overlayText(p, plan.Overlay(p)); got != tt.want {
				t.Errorf("overlay:\n%s\nwant:\n%s", got, tt.want)
			}
			dot, err := plan.DOT(p)
			if err != nil {
				t.Fatal(err)
			}
			mmd, err := plan.Mermaid(p)
			if err != nil {
				t.Fatal(err)
			}
			if jsonOf(t, p) != before {
				t.Fatal("drawing the plan changed it")
			}
			// Every state but pending is written on its step, so the
			// picture reads without colour.
			for _, s := range p.Steps {
				if s.Status == plan.StepPending {
					continue
				}
				word := map[plan.StepStatus]string{plan.StepDone: "[x] done", plan.StepFailed: "[!] failed",
					plan.StepSkipped: "[-] skipped", plan.StepInProgress: "in progress"}[s.Status]
				if s.WaitFor != "" && s.Status == plan.StepInProgress {
					word = "waiting"
				}
				if !strings.Contains(string(dot), word) || !strings.Contains(string(mmd), word) {
					t.Errorf("step %s is %s, but a drawing does not say %q", s.ID, s.Status, word)
				}
			}
		})
	}
}

// TestPlanGraphRefusesACorruptPlan: a plan whose edges name no step (only
// a store written behind skillc's back holds one) is an error, not a
// panic or a picture of another graph.
func TestPlanGraphRefusesACorruptPlan(t *testing.T) {
	p := makeACAT(t)
	p.Steps = append(p.Steps, p.Steps[0])
	if _, err := plan.DOT(p); err == nil || !strings.Contains(err.Error(), `duplicate step id "1"`) {
		t.Fatalf("DOT of a plan with a duplicate step: %v", err)
	}
	p = makeACAT(t)
	p.Entry = "nine"
	if _, err := plan.Mermaid(p); err == nil || !strings.Contains(err.Error(), "cannot be drawn") {
		t.Fatalf("Mermaid of a plan with a bad entry: %v", err)
	}
}

// TestPlanGraphIsTheSkillsGraph: a plan seeded from a template draws the
// same graph as the template, with the run over it: one renderer.
func TestPlanGraphIsTheSkillsGraph(t *testing.T) {
	p := makeACAT(t)
	g, err := p.Graph()
	if err != nil {
		t.Fatal(err)
	}
	tg, err := graph.New(acat())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Edges(), tg.Edges()) || string(g.DOT()) != string(tg.DOT()) {
		t.Fatalf("the plan's graph differs from its template's:\n%s\n%s", g.DOT(), tg.DOT())
	}
}

// TestPictureGolden pins the DOT and Mermaid of a retry loop in its
// second round, its step 4 waiting: the round on each step of the loop,
// the double border and the waits-for line, the path of this round.
func TestPictureGolden(t *testing.T) {
	p := retryPlan(t, "5")
	for _, ch := range []plan.Changes{{Check: []string{"1", "2", "3"}}, {Fail: []string{"4"}}, {Check: []string{"2", "3"}}, {Fail: []string{"4"}}, {Check: []string{"2", "3"}}} {
		p = update(t, p, ch)
	}
	dot, err := plan.DOT(p)
	if err != nil {
		t.Fatal(err)
	}
	mmd, err := plan.Mermaid(p)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join("..", "testdata", "plan", "view-retry-round")
	golden.Check(t, base+".dot", dot)
	golden.Check(t, base+".mmd", mmd)
}
