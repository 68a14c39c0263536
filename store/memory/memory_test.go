package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/storetest"
	"github.com/skillc/skillc/tools"
)

var _ = golden.Update

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) store.Store {
		return memory.New(store.Options{TTL: ttl, Now: clock})
	})
}

// BenchmarkUpdate is one update_plan (Planner.Update) on a plan whose
// history is full, as every plan's is after plan.MaxEvents writes: the
// store then drops the oldest event on each write.
func BenchmarkUpdate(b *testing.B) {
	ctx := context.Background()
	pl := &tools.Planner{Store: memory.New(store.Options{})}
	key := store.Key{User: "u", Session: "s"}
	steps := []graph.Step{{Goal: "A.", RecommendedTools: []string{"a"}}, {Goal: "B."}, {Goal: "C."}}
	if _, err := pl.Make(ctx, key, plan.MakeInput{Title: "Bench", Steps: steps}); err != nil {
		b.Fatal(err)
	}
	changes := []plan.Changes{{Check: []string{"1"}}, {Uncheck: []string{"1"}}}
	for i := range plan.MaxEvents {
		if _, err := pl.Update(ctx, key, changes[i%2]); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; b.Loop(); i++ {
		if _, err := pl.Update(ctx, key, changes[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}
