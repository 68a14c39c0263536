package postgres_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/postgres"
	"github.com/skillc/skillc/store/postgres/pgtest"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/tools"
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
	cases := []struct{ sessions, writers int }{
		{1, 1}, {4, 4}, {16, 16},
		// 16 writers racing on one plan: the cost of compare-and-swap
		// conflicts and store.Update's retries.
		{1, 16},
	}
	for _, be := range backends {
		for _, c := range cases {
			name := fmt.Sprintf("%s/sessions=%d", be.name, c.sessions)
			if c.writers != c.sessions {
				name += fmt.Sprintf("/writers=%d", c.writers)
			}
			b.Run(name, func(b *testing.B) {
				s := be.open(b)
				defer s.Close()
				benchUpdates(b, s, c.sessions, c.writers)
			})
		}
	}
}

// benchUpdates runs b.N updates spread over writers goroutines, writer w on
// session w%sessions. Each writer toggles a step of its own (check, then
// uncheck), so every call is a real write of the whole plan.
func benchUpdates(b *testing.B, s store.Store, sessions, writers int) {
	ctx := context.Background()
	pl := &tools.Planner{Store: s}
	steps := make([]graph.Step, 10)
	for i := range steps {
		steps[i] = graph.Step{Goal: fmt.Sprintf("Do part %d of the work.", i+1), RecommendedTools: []string{"tool_" + strconv.Itoa(i+1)}}
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
	for w := range writers {
		key := keys[w%sessions]
		step := strconv.Itoa((w/sessions)%len(steps) + 1)
		wg.Go(func() {
			for k := 0; next.Add(1) <= int64(b.N); k++ {
				ch := plan.Changes{Check: []string{step}}
				if k%2 == 1 {
					ch = plan.Changes{Uncheck: []string{step}}
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

// BenchmarkSweep deletes n expired plans, each expiring at its own
// microsecond, in batches of DefaultSweepBatch, from a table that also
// holds n live ones; the cost per deleted row (ns/row) should stay flat as
// n grows.
//
//	go test ./store/postgres -run '^$' -bench Sweep -benchtime 3x -count 5
func BenchmarkSweep(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000, 200_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			dsn := pgtest.DSN(b)
			schema := pgtest.SchemaName(b, dsn)
			now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
			s, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema, Now: func() time.Time { return now }})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			table := pgx.Identifier{schema, "plans"}.Sanitize()
			// Rows go in with one statement: the benchmark is the sweep.
			fill := func(prefix string, expires time.Time) {
				err := pgtest.Exec(context.Background(), dsn, `INSERT INTO `+table+`
SELECT 'bench', $1 || g, 1, '{"title":"bench"}', $2, $3::timestamptz - g * interval '1 microsecond'
FROM generate_series(1, $4) AS g`,
					prefix, now.Add(-time.Hour), expires, n)
				if err != nil {
					b.Fatal(err)
				}
			}
			fill("live-", now.Add(time.Hour))
			for b.Loop() {
				b.StopTimer()
				fill("old-", now.Add(-time.Minute))
				b.StartTimer()
				got, err := s.Sweep(context.Background())
				if err != nil || got != n {
					b.Fatalf("sweep = %d, %v; want %d", got, err, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
	}
}
