package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// TestGroupCommit holds the write lock from another connection (to
// SQLite, another process) while one Save waits for it and others queue
// behind it. Released, the queued Saves are written in one transaction,
// each with its own answer: written, a conflict (a second Save over the
// same version), or a context that ended before its turn (not written).
// In the second round one Save's statement fails: the group is rolled
// back and each Save is written alone, so that only that Save fails.
func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "plans.db")
	s, err := Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	var txs []int
	testHookTx = func(n int) { mu.Lock(); txs = append(txs, n); mu.Unlock() }
	defer func() { testHookTx = nil }()

	lead, a, b, c := store.Key{User: "u", Session: "lead"}, store.Key{User: "u", Session: "a"}, store.Key{User: "u", Session: "b"}, store.Key{User: "u", Session: "c"}
	for _, k := range []store.Key{lead, a, b, c} {
		p, _, err := plan.Make(nil, plan.MakeInput{Title: k.Session, Steps: []graph.Step{{Goal: "One."}}}, "id-"+k.Session, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Save(ctx, k, p, store.Expect{}); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	txs = nil // the Saves above each made a transaction of their own
	mu.Unlock()

	answers := make(chan [2]any, 8)
	// save retitles key's live plan as name, with one event.
	save := func(ctx context.Context, name string, k store.Key) {
		t.Helper()
		cur, err := s.Load(context.Background(), k)
		if err != nil {
			t.Error(err)
			return
		}
		go func() {
			p := cur.Clone()
			p.Title = name
			err := s.Save(ctx, k, p, store.ExpectOf(cur), plan.Event{Tool: plan.ToolUpdate, At: time.Now()})
			answers <- [2]any{name, err}
		}()
	}
	// queued waits until a Save leads and n wait behind it.
	queued := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			s.group.mu.Lock()
			q, leading := len(s.group.queue), s.group.leading
			s.group.mu.Unlock()
			if leading && q == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d Saves queued (leading: %v); want %d", q, leading, n)
			}
		}
	}
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// hold takes the write lock on other and runs stmts in it.
	hold := func(stmts ...string) *sql.Tx {
		t.Helper()
		tx, err := other.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range append([]string{`UPDATE plans SET version = version WHERE 0`}, stmts...) {
			if _, err := tx.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		return tx
	}
	release := func(tx *sql.Tx, n int) map[string]error {
		t.Helper()
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		got := map[string]error{}
		for range n {
			ans := <-answers
			err, _ := ans[1].(error)
			got[ans[0].(string)] = err
		}
		return got
	}
	title := func(k store.Key) string {
		t.Helper()
		p, err := s.Load(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		return p.Title
	}

	// Round 1.
	tx := hold()
	save(ctx, "lead1", lead)
	queued(0) // lead1 has taken itself from the queue and waits for the lock
	gone, cancel := context.WithCancel(ctx)
	save(ctx, "a1", a)
	queued(1)
	save(ctx, "a2", a)
	save(ctx, "b1", b)
	save(gone, "c1", c)
	queued(4)
	cancel()
	got := release(tx, 5)
	if got["lead1"] != nil || got["b1"] != nil {
		t.Errorf("lead1: %v, b1: %v; want both written", got["lead1"], got["b1"])
	}
	if got["a1"] != nil || !errors.Is(got["a2"], store.ErrConflict) {
		t.Errorf("a1: %v, a2: %v; want a1 written, a2 a conflict (it came second, over the same version)", got["a1"], got["a2"])
	}
	if !errors.Is(got["c1"], context.Canceled) {
		t.Errorf("c1: %v; want context.Canceled", got["c1"])
	}
	if ts := []string{title(lead), title(a), title(b), title(c)}; !slices.Equal(ts, []string{"lead1", "a1", "b1", "c"}) {
		t.Errorf("titles %q; want lead1 a1 b1 c", ts)
	}
	if h, err := s.History(ctx, b); err != nil || len(h) != 1 {
		t.Errorf("b's history: %d events, %v; want the one event", len(h), err)
	}

	// Round 2: an event row already at the version c's Save writes makes
	// its INSERT fail.
	cur, err := s.Load(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	tx = hold(`INSERT INTO plan_events (user_id, session_id, version, event) VALUES ('u', 'c', ` + itoa(cur.Version+1) + `, '{}')`)
	save(ctx, "lead2", lead)
	queued(0)
	save(ctx, "a3", a)
	save(ctx, "c2", c)
	queued(2)
	got = release(tx, 3)
	if got["lead2"] != nil || got["a3"] != nil {
		t.Errorf("lead2: %v, a3: %v; want both written", got["lead2"], got["a3"])
	}
	if got["c2"] == nil || errors.Is(got["c2"], store.ErrConflict) {
		t.Errorf("c2: %v; want the failed INSERT's error", got["c2"])
	}
	if ts := []string{title(lead), title(a), title(c)}; !slices.Equal(ts, []string{"lead2", "a3", "c"}) {
		t.Errorf("titles %q; want lead2 a3 c", ts)
	}

	mu.Lock()
	defer mu.Unlock()
	// lead1 alone, then a1 a2 b1 together (c1 ended before its turn);
	// lead2 alone, then a3 and c2 together, rolled back, and each alone.
	if want := []int{1, 3, 1, 2, 1, 1}; !slices.Equal(txs, want) {
		t.Errorf("transactions of %v Saves; want %v", txs, want)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
