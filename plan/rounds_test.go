package plan_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
)

// retryPlan is FORMAT 6.5's example: step 4 goes back to 2 on failure, at
// most 3 times; then is where it leads after that ("" for fail).
func retryPlan(t *testing.T, then string) *plan.Plan {
	t.Helper()
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "Deploy", Steps: []graph.Step{
		{Goal: "Build."}, {Goal: "Deploy."}, {Goal: "Smoke test."},
		{Goal: "Check health.", NextOnFailure: "2", FailureBound: 3, FailureThen: then, WaitFor: "the on-call engineer's go"},
		{Goal: "Escalate."},
	}}, "p", t0)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func update(t *testing.T, p *plan.Plan, ch plan.Changes) *plan.Plan {
	t.Helper()
	before := jsonOf(t, p)
	out, err := plan.Update(p, ch, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if jsonOf(t, p) != before {
		t.Fatal("Update modified its input")
	}
	return out
}

func TestRounds(t *testing.T) {
	p := retryPlan(t, "")
	p = update(t, p, plan.Changes{Check: []string{"1", "2", "3"}})
	for round := 1; round <= 3; round++ {
		p = update(t, p, plan.Changes{Fail: []string{"4"}})
		if got, want := statuses(p), "1:done 2:in_progress 3:pending 4:pending 5:pending"; got != want {
			t.Fatalf("round %d: %s, want %s", round, got, want)
		}
		if p.Rounds["4:failure"] != round {
			t.Fatalf("round %d: rounds %v", round, p.Rounds)
		}
		cl := plan.Checklist(p)
		for _, id := range []string{"2", "3", "4"} {
			if !strings.Contains(lineOf(cl, "] "+id+" "), "(round "+string(rune('0'+round))+" of 3)") {
				t.Errorf("round %d: step %s shows no round:\n%s", round, id, cl)
			}
		}
		if strings.Contains(lineOf(cl, "] 1 "), "round") || strings.Contains(lineOf(cl, "] 5 "), "round") {
			t.Errorf("round %d: a step outside the loop shows a round:\n%s", round, cl)
		}
		if plan.Outcome(p) != plan.StatusActive {
			t.Fatalf("round %d: outcome %s", round, plan.Outcome(p))
		}
		p = update(t, p, plan.Changes{Check: []string{"2", "3"}})
		cl = plan.Checklist(p)
		if want := "waits for: the on-call engineer's go"; !strings.Contains(cl, want) {
			t.Errorf("step 4 in progress: no %q:\n%s", want, cl)
		}
		if round < 3 && !strings.Contains(cl, "on failure -> 2, round "+string(rune('0'+round+1))+" of 3") {
			t.Errorf("round %d: next line does not say the loop:\n%s", round, cl)
		}
	}
	if cl := plan.Checklist(p); !strings.Contains(cl, "on failure -> fail (the loop back to 2 is used up)") {
		t.Errorf("bound used up, the next line still loops:\n%s", cl)
	}
	p = update(t, p, plan.Changes{Fail: []string{"4"}})
	if got, want := statuses(p), "1:done 2:done 3:done 4:failed 5:pending"; got != want {
		t.Fatalf("fourth failure: %s, want %s", got, want)
	}
	if plan.Outcome(p) != plan.StatusFailed || p.Rounds["4:failure"] != 3 {
		t.Fatalf("fourth failure: outcome %s, rounds %v", plan.Outcome(p), p.Rounds)
	}
	if cl := plan.Checklist(p); !strings.Contains(cl, "the path reached fail") || strings.Contains(cl, "waits for") {
		t.Errorf("checklist after the fourth failure:\n%s", cl)
	}
	closed, err := plan.Close(p, "gave up", "", plan.Changes{}, t0)
	if err != nil || closed.Status != plan.StatusFailed {
		t.Fatalf("close: %v %v", closed, err)
	}

	// The rounds are part of the plan's JSON, which every store persists.
	var back plan.Plan
	if err := json.Unmarshal([]byte(jsonOf(t, p)), &back); err != nil || back.Rounds["4:failure"] != 3 {
		t.Fatalf("rounds do not survive JSON: %v %v", back.Rounds, err)
	}
}

func TestRoundsThen(t *testing.T) {
	p := retryPlan(t, "5")
	p = update(t, p, plan.Changes{Check: []string{"1", "2", "3"}})
	for range 3 {
		p = update(t, p, plan.Changes{Fail: []string{"4"}})
		p = update(t, p, plan.Changes{Check: []string{"2", "3"}})
	}
	p = update(t, p, plan.Changes{Fail: []string{"4"}})
	if got, want := statuses(p), "1:done 2:done 3:done 4:failed 5:in_progress"; got != want {
		t.Fatalf("after the bound: %s, want %s", got, want)
	}
	p = update(t, p, plan.Changes{Check: []string{"5"}})
	if plan.Outcome(p) != plan.StatusCompleted {
		t.Fatalf("outcome %s", plan.Outcome(p))
	}
}

func TestRoundsRetrySelf(t *testing.T) {
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "t", Steps: []graph.Step{
		{Goal: "Call the API.", NextOnFailure: "1", FailureBound: 2},
	}}, "p", t0)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		p = update(t, p, plan.Changes{Fail: []string{"1"}})
		if statuses(p) != "1:in_progress" {
			t.Fatalf("retry: %s", statuses(p))
		}
	}
	p = update(t, p, plan.Changes{Fail: []string{"1"}})
	if statuses(p) != "1:failed" || plan.Outcome(p) != plan.StatusFailed {
		t.Fatalf("third failure: %s, %s", statuses(p), plan.Outcome(p))
	}
}

// TestRoundsForwardBound: a bound on an edge that does not loop counts
// nothing: the edge is taken as any other.
func TestRoundsForwardBound(t *testing.T) {
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "t", Steps: []graph.Step{
		{Goal: "a", NextOnFailure: "2", FailureBound: 1}, {Goal: "b"},
	}}, "p", t0)
	if err != nil {
		t.Fatal(err)
	}
	p = update(t, p, plan.Changes{Fail: []string{"1"}})
	if statuses(p) != "1:failed 2:in_progress" || len(p.Rounds) != 0 {
		t.Fatalf("%s, rounds %v", statuses(p), p.Rounds)
	}
}

// TestRoundsClone: a plan's copy counts its rounds apart.
func TestRoundsClone(t *testing.T) {
	p := update(t, update(t, retryPlan(t, ""), plan.Changes{Check: []string{"1", "2", "3"}}), plan.Changes{Fail: []string{"4"}})
	c := p.Clone()
	c.Rounds["4:failure"] = 9
	if p.Rounds["4:failure"] != 1 {
		t.Fatal("Clone shares the rounds")
	}
}

func lineOf(checklist, part string) string {
	for _, l := range strings.Split(checklist, "\n") {
		if strings.Contains(l, part) {
			return l
		}
	}
	return ""
}
