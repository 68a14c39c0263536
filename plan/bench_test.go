package plan_test

import (
	"testing"

	"github.com/skillc/skillc/plan"
)

// BenchmarkUpdateAndChecklist is the plan work of one update_plan on a
// typical plan: apply the change, render the checklist.
func BenchmarkUpdateAndChecklist(b *testing.B) {
	p, _, err := plan.Make(nil, plan.MakeInput{Template: acat()}, "id", t0)
	if err != nil {
		b.Fatal(err)
	}
	chs := []plan.Changes{{Fail: []string{"1"}}, {Uncheck: []string{"1"}}}
	i := 0
	b.Run("update", func(b *testing.B) {
		for b.Loop() {
			i++
			if _, err := plan.Update(p, chs[i%2], t0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("checklist", func(b *testing.B) {
		for b.Loop() {
			_ = plan.Checklist(p)
		}
	})
}
