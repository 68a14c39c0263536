package postgres_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/postgres"
	"github.com/skillc/skillc/store/postgres/pgtest"
	"github.com/skillc/skillc/store/sqlite"
)

// BenchmarkUpdates measures update_plan (Planner.Update: load, apply,
// compare-and-swap save) per second with 1, 4 and 16 sessions updated
// concurrently, each by its own goroutine, on PostgreSQL and on SQLite on
// the same machine, so the two backends are measured in the same shape:
//
//	go test ./store/postgres -run '^$' -bench Updates -benchtime 2000x -count 5
//
// PostgreSQL waits for its WAL to reach the disk on every commit; the
// SQLite store (WAL, synchronous=NORMAL) does not. postgres-async sets
// synchronous_commit=off, the closest PostgreSQL comes to that, to show
// how much of the difference is that one fsync.
func BenchmarkUpdates(b *testing.B) {
	openPostgres := func(params ...string) func(b *testing.B) store.Store {
		return func(b *testing.B) store.Store {
			dsn := pgtest.DSN(b)
			schema := pgtest.SchemaName(b, dsn)
			for i := 0; i+1 < len(params); i += 2 {
				dsn = pgtest.WithParam(b, dsn, params[i], params[i+1])
			}
			s, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}
	}
	backends := []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"postgres", openPostgres()},
		{"postgres-async", openPostgres("synchronous_commit", "off")},
		{"sqlite", func(b *testing.B) store.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "plans.db"), store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	for _, be := range backends {
		for _, sessions := range []int{1, 4, 16} {
			b.Run(fmt.Sprintf("%s/sessions=%d", be.name, sessions), func(b *testing.B) {
				s := be.open(b)
				defer s.Close()
				benchUpdates(b, s, sessions)
			})
		}
	}
}

// benchUpdates runs b.N updates spread over sessions goroutines, one
// session each. Each update toggles step 1 (check, then uncheck), so every
// call is a real write of the whole plan.
func benchUpdates(b *testing.B, s store.Store, sessions int) {
	ctx := context.Background()
	pl := &store.Planner{Store: s}
	steps := make([]plan.StepInput, 10)
	for i := range steps {
		steps[i] = plan.StepInput{Goal: fmt.Sprintf("Do part %d of the work.", i+1), RecommendedTools: []string{"tool_" + strconv.Itoa(i+1)}}
	}
	keys := make([]store.Key, sessions)
	for i := range keys {
		keys[i] = store.Key{User: "bench", Session: strconv.Itoa(i)}
		if _, err := pl.Make(ctx, keys[i], plan.MakeInput{Title: "bench", Steps: steps}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for _, key := range keys {
		wg.Go(func() {
			for k := 0; next.Add(1) <= int64(b.N); k++ {
				ch := plan.Changes{Check: []string{"1"}}
				if k%2 == 1 {
					ch = plan.Changes{Uncheck: []string{"1"}}
				}
				if _, err := pl.Update(ctx, key, ch); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
}
