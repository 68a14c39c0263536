package plan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillc/skillc/plan"
)

// FuzzOperations feeds make_plan and update_plan what a model might send:
// any JSON. Nothing may panic; a plan that is accepted has exactly one step
// in progress, resolved edges, and survives any update unchanged when the
// update is refused.
func FuzzOperations(f *testing.F) {
	f.Add([]byte(`{"title":"t","steps":[{"goal":"a"},{"goal":"b","next_on_failure":"1"}]}`), []byte(`{"check":["1"]}`))
	f.Add([]byte(`{"title":"t","steps":[{"id":"x","goal":"a","next_on_success":"END"},{"goal":"b"}]}`), []byte(`{"fail":["x","2"],"skip":["2"]}`))
	f.Add([]byte(`{"title":"t","steps":[{"goal":"a","recommended_tools":["a","a"," b"]}]}`), []byte(`{"uncheck":["1"],"check":[]}`))
	f.Add([]byte(`{"title":"t","steps":[{"id":"1","goal":"a"},{"id":"1","goal":"b"}]}`), []byte(`{}`))
	f.Add([]byte(`{"title":"t","steps":[{"goal":"a"},{"goal":"b","next_on_failure":"1","failure_bound":2,"failure_then":"3"},{"goal":"c","wait_for":"w"}]}`), []byte(`{"check":["1"],"fail":["2"]}`))
	f.Fuzz(func(t *testing.T, makeJSON, changesJSON []byte) {
		var in plan.MakeInput
		if json.Unmarshal(makeJSON, &in) != nil {
			return
		}
		p, _, err := plan.Make(nil, in, "id", t0)
		if err != nil {
			if plan.ErrorCode(err) == "" || err.Error() == "" {
				t.Fatalf("untyped or empty error: %v", err)
			}
			return
		}
		ids := map[string]bool{"end": true, "fail": true}
		for _, s := range p.Steps {
			ids[s.ID] = true
		}
		inProgress := 0
		for _, s := range p.Steps {
			if !ids[s.NextOnSuccess] || !ids[s.NextOnFailure] || s.SuccessThen != "" && !ids[s.SuccessThen] || s.FailureThen != "" && !ids[s.FailureThen] {
				t.Fatalf("step %q has an unresolved edge: %q / %q", s.ID, s.NextOnSuccess, s.NextOnFailure)
			}
			if s.Status == plan.StepInProgress {
				inProgress++
			}
		}
		if inProgress != 1 {
			t.Fatalf("%d steps in progress in a new plan", inProgress)
		}
		_ = plan.Checklist(p)
		var ch plan.Changes
		if json.Unmarshal(changesJSON, &ch) != nil {
			return
		}
		before := jsonOf(t, p)
		q, err := plan.Update(p, ch, t0)
		if jsonOf(t, p) != before {
			t.Fatal("update changed its input")
		}
		if err != nil {
			return
		}
		if !strings.Contains(plan.Checklist(q), "· active ·") {
			t.Fatalf("an updated plan is not active:\n%s", plan.Checklist(q))
		}
		// One update takes each edge at most once: a round is counted once.
		for key, n := range q.Rounds {
			if n > 1 || n < 0 {
				t.Fatalf("one update counted %d rounds on %s", n, key)
			}
		}
		c, err := plan.Close(q, "note", "", plan.Changes{}, t0)
		if err != nil || c.Status == plan.StatusActive {
			t.Fatalf("close after update: %v, status %v", err, c)
		}
	})
}
