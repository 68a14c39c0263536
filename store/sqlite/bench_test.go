package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/tools"
)

// benchSteps is a plan of typical size: eight steps with a tool each.
func benchSteps() []graph.Step {
	steps := make([]graph.Step, 8)
	for i := range steps {
		steps[i] = graph.Step{Goal: fmt.Sprintf("Do part %d of the work, with care.", i+1), RecommendedTools: []string{"tool_" + strconv.Itoa(i)}}
	}
	return steps
}

// spread runs b.N operations over n goroutines, one session each, and
// reports the throughput.
func spread(b *testing.B, n int, op func(session, i int) error) {
	b.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	b.ResetTimer()
	for g := range n {
		count := b.N / n
		if g < b.N%n {
			count++
		}
		wg.Go(func() {
			for i := range count {
				if err := op(g, i); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
}

// BenchmarkUpdate sets one update_plan (Planner.Update: load, apply,
// compare-and-swap write) beside the least any store could do for it: a
// bare single-row UPDATE of the same JSON through the same driver settings
// on the same file: what is left for the store to shave is the read, the
// JSON encoding and the plan logic. Each session alternates check and uncheck of step 1 so
// the plan stays active and the JSON keeps its size.
func BenchmarkUpdate(b *testing.B) {
	for _, sessions := range []int{1, 8} {
		b.Run(fmt.Sprintf("impl=planner/sessions=%d", sessions), func(b *testing.B) {
			ctx := context.Background()
			s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "plans.db"), store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			pl := &tools.Planner{Store: s}
			for g := range sessions {
				if _, err := pl.Make(ctx, store.Key{User: "u", Session: strconv.Itoa(g)}, plan.MakeInput{Title: "Bench", Steps: benchSteps()}); err != nil {
					b.Fatal(err)
				}
			}
			check, uncheck := plan.Changes{Check: []string{"1"}}, plan.Changes{Uncheck: []string{"1"}}
			spread(b, sessions, func(g, i int) error {
				ch := check
				if i%2 == 1 {
					ch = uncheck
				}
				_, err := pl.Update(ctx, store.Key{User: "u", Session: strconv.Itoa(g)}, ch)
				return err
			})
		})
		b.Run(fmt.Sprintf("impl=bare/sessions=%d", sessions), func(b *testing.B) {
			ctx := context.Background()
			path := filepath.Join(b.TempDir(), "plans.db")
			s, err := sqlite.Open(ctx, path, store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			p, _, err := plan.Make(nil, plan.MakeInput{Title: "Bench", Steps: benchSteps()}, "id", time.Now())
			if err != nil {
				b.Fatal(err)
			}
			for g := range sessions {
				if err := s.Save(ctx, store.Key{User: "u", Session: strconv.Itoa(g)}, p.Clone(), store.Expect{}); err != nil {
					b.Fatal(err)
				}
			}
			// The very documents the planner would write, made before the
			// timer starts: SQLite skips pages whose bytes do not change,
			// so writing one document over and over would flatter the bare
			// side.
			docs := make([][]byte, b.N/sessions+1)
			cur := p
			for i := range docs {
				ch := plan.Changes{Check: []string{"1"}}
				if i%2 == 1 {
					ch = plan.Changes{Uncheck: []string{"1"}}
				}
				if cur, err = plan.Update(cur, ch, time.Now()); err != nil {
					b.Fatal(err)
				}
				cur.Version, cur.ExpiresAt = int64(i+2), time.Now().Add(store.DefaultTTL)
				if docs[i], err = json.Marshal(cur); err != nil {
					b.Fatal(err)
				}
			}
			// The store's own write settings: WAL, synchronous=NORMAL, one connection.
			db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+
				"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			st, err := db.PrepareContext(ctx, `UPDATE plans SET plan = ?, version = version + 1, expires_at = ? WHERE user_id = ? AND session_id = ?`)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			spread(b, sessions, func(g, i int) error {
				_, err := st.ExecContext(ctx, docs[i], time.Now().Add(store.DefaultTTL).UnixNano(), "u", strconv.Itoa(g))
				return err
			})
		})
	}
}
