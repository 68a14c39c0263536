package sqlite_test

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/tools"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	if p, err := sqlite.DefaultPath(); err != nil || p != "/state/skillc/plans.db" {
		t.Errorf("with XDG_STATE_HOME: %q, %v", p, err)
	}
	t.Setenv("HOME", "/home/u")
	for _, v := range []string{"", "relative/dir"} { // the spec ignores relative values
		t.Setenv("XDG_STATE_HOME", v)
		if p, err := sqlite.DefaultPath(); err != nil || p != "/home/u/.local/state/skillc/plans.db" {
			t.Errorf("XDG_STATE_HOME=%q: %q, %v", v, p, err)
		}
	}
}

func TestOpenCreatesPrivateFolderAndFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "skill?c #1") // characters a URI must escape
	path := filepath.Join(dir, "plans.db")
	s := open(t, path)
	if s.Path() != path {
		t.Errorf("path %q, want %q", s.Path(), path)
	}
	for name, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, path: 0o600} {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", name, fi.Mode(), want)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("files next to the folder: %v (a '?' in the path must not cut it)", entries)
	}
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plans.db")
	s := open(t, path)
	ctx := context.Background()
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "kept", Steps: []graph.Step{{Goal: "a"}}}, "id", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, store.Key{User: "u", Session: "s"}, p, store.Expect{}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Reopening migrates nothing and keeps the data.
	s = open(t, path)
	if got, err := s.Load(ctx, store.Key{User: "u", Session: "s"}); err != nil || got.Title != "kept" {
		t.Fatalf("after reopen: %v, %v", got, err)
	}
	s.Close()

	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != 3 {
		t.Fatalf("user_version = %d, %v; want 3", v, err)
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	_, err = sqlite.Open(ctx, path, store.Options{})
	if err == nil || !strings.Contains(err.Error(), "schema is version 99, newer than this skillc knows (3)") {
		t.Fatalf("opening a newer schema: %v", err)
	}
}

// TestMigratesVersion1 opens a file of schema version 1 (plans, no
// history): its plan is kept, with an empty history that the next change
// starts.
func TestMigratesVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "plans.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "old", Steps: []graph.Step{{Goal: "a"}, {Goal: "b"}}}, "id", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(p)
	for _, q := range []string{
		`CREATE TABLE plans (id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, session_id TEXT NOT NULL, version INTEGER NOT NULL,
			expires_at INTEGER NOT NULL, plan TEXT NOT NULL, UNIQUE (user_id, session_id));
		 CREATE INDEX plans_expires_at ON plans (expires_at);
		 PRAGMA user_version = 1;`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO plans (user_id, session_id, version, expires_at, plan) VALUES ('u', 's', 1, ?, ?)`,
		time.Now().Add(time.Hour).UnixNano(), string(data)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := open(t, path)
	defer s.Close()
	key := store.Key{User: "u", Session: "s"}
	if got, err := s.Load(ctx, key); err != nil || got.Title != "old" {
		t.Fatalf("plan after migration: %v, %v", got, err)
	}
	if h, err := s.History(ctx, key); err != nil || len(h) != 0 {
		t.Fatalf("history after migration: %v, %v; want empty", h, err)
	}
	pl := &tools.Planner{Store: s}
	if _, err := pl.Update(ctx, key, plan.Changes{Check: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	if h, err := s.History(ctx, key); err != nil || len(h) != 1 || h[0].Version != 2 || h[0].Tool != plan.ToolUpdate {
		t.Fatalf("history after an update: %+v, %v", h, err)
	}
}

func TestOpenRefusesWhatIsNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("these are not the plans you are looking for\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := sqlite.Open(context.Background(), path, store.Options{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("open of a text file: %v", err)
	}
	if b, _ := os.ReadFile(path); !strings.HasPrefix(string(b), "these are") {
		t.Errorf("open changed the file")
	}
}

// TestTwoStoresOneFile is two processes' worth of stores on one file:
// writers in both wait for each other (busy_timeout) and nothing is lost.
func TestTwoStoresOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plans.db")
	a, b := open(t, path), open(t, path)
	ctx := context.Background()
	key := store.Key{User: "u", Session: "shared"}
	const n = 40
	steps := make([]graph.Step, n)
	for i := range steps {
		steps[i].Goal = "step"
	}
	pa := &tools.Planner{Store: a}
	if _, err := pa.Make(ctx, key, plan.MakeInput{Title: "shared", Steps: steps}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		pl := &tools.Planner{Store: []store.Store{a, b}[i%2]}
		wg.Go(func() {
			_, err := pl.Update(ctx, key, plan.Changes{Check: []string{strconv.Itoa(i + 1)}})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := b.Load(ctx, key)
	if err != nil || got.Done() != n || got.Version != n+1 {
		t.Fatalf("after %d updates through two stores: %v done, version %v, %v", n, got.Done(), got.Version, err)
	}
}

const crashEnv = "SKILLC_SQLITE_CRASH_CHILD"

// TestCrash kills a writer with SIGKILL mid-stream and checks that every
// write it reported as committed survived.
func TestCrash(t *testing.T) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path)
		return
	}
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	path := filepath.Join(t.TempDir(), "plans.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrash$", "-test.v=false")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	last := int64(0)
	for lines.Scan() {
		v, ok := strings.CutPrefix(lines.Text(), "committed ")
		if !ok {
			continue
		}
		if last, err = strconv.ParseInt(v, 10, 64); err != nil {
			t.Fatal(err)
		}
		if last == 300 {
			// Kill it between writes, at whatever point it is.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the child exited normally; it was to be killed")
	}
	if last < 300 {
		t.Fatalf("the child reported only %d commits", last)
	}

	s := open(t, path)
	got, err := s.Load(context.Background(), store.Key{User: "crash", Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	// The child may have committed one more write than it got to print.
	if got.Version < last || got.Version > last+1 {
		t.Fatalf("after the crash the plan is at version %d; the child reported %d committed", got.Version, last)
	}
	if want := fmt.Sprintf("write %d", got.Version); got.Title != want {
		t.Fatalf("title %q at version %d, want %q", got.Title, got.Version, want)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q, %v", check, err)
	}
}

// crashChild writes forever, printing each version once it is committed.
func crashChild(path string) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, store.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	key := store.Key{User: "crash", Session: "s"}
	w := bufio.NewWriter(os.Stdout)
	for v := int64(0); ; v++ {
		p, _, err := plan.Make(nil, plan.MakeInput{Title: fmt.Sprintf("write %d", v+1), Steps: []graph.Step{{Goal: strings.Repeat("x", 400)}}}, "id", time.Now())
		if err == nil {
			err = s.Save(ctx, key, p, store.Expect{ID: "id", Version: v})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Fprintf(w, "committed %d\n", p.Version)
		w.Flush()
	}
}

// TestOtherProcessWins: two stores on one file are two processes, and each
// one's writes must be seen by the other. Store a makes a plan; b closes
// it; a's update must see the close. Then b makes a new plan after a saw
// the closed one; a's update must land on the new plan.
func TestOtherProcessWins(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plans.db")
	a, b := open(t, path), open(t, path)
	ctx := context.Background()
	key := store.Key{User: "u", Session: "s"}
	pa, pb := &tools.Planner{Store: a}, &tools.Planner{Store: b}
	in := plan.MakeInput{Title: "first", Steps: []graph.Step{{Goal: "a"}, {Goal: "b"}}}
	if _, err := pa.Make(ctx, key, in); err != nil {
		t.Fatal(err)
	}
	if _, err := pb.Close(ctx, key, "closed elsewhere", plan.StatusCancelled, plan.Changes{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pa.Update(ctx, key, plan.Changes{Check: []string{"1"}}); plan.ErrorCode(err) != plan.CodeClosed {
		t.Fatalf("update after another process closed the plan: %v, want plan_closed", err)
	}
	in.Title = "second"
	if _, err := pb.Make(ctx, key, in); err != nil {
		t.Fatal(err)
	}
	r, err := pa.Update(ctx, key, plan.Changes{Check: []string{"1"}})
	if err != nil || r.Plan.Title != "second" || r.Plan.Version != 4 {
		t.Fatalf("update after another process made a new plan: %+v, %v", r, err)
	}
	if got, err := b.Load(ctx, key); err != nil || got.Step("1").Status != plan.StepDone || got.Version != 4 {
		t.Fatalf("b reads %+v, %v", got, err)
	}
}

// TestSweepTakesTheHistory: the history's rows go with their plan's when
// the sweep deletes it (the foreign key's ON DELETE CASCADE), and with a
// plan that another replaces.
func TestSweepTakesTheHistory(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "plans.db")
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s, err := sqlite.Open(ctx, path, store.Options{TTL: time.Hour, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pl := &tools.Planner{Store: s, Now: func() time.Time { return now }}
	for _, sess := range []string{"a", "b"} {
		key := store.Key{User: "u", Session: sess}
		if _, err := pl.Make(ctx, key, plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a"}, {Goal: "b"}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Update(ctx, key, plan.Changes{Check: []string{"1"}}); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func() int {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM plan_events").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 4 {
		t.Fatalf("%d events stored, want 4", n)
	}
	// A new plan in session a replaces its history.
	if _, err := pl.Make(ctx, store.Key{User: "u", Session: "a"}, plan.MakeInput{Title: "t2", Steps: []graph.Step{{Goal: "a"}}}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 3 {
		t.Fatalf("%d events after a new plan, want 3", n)
	}
	now = now.Add(time.Hour)
	if n, err := s.Sweep(ctx); err != nil || n != 2 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	if n := count(); n != 0 {
		t.Fatalf("%d events left after the sweep, want 0", n)
	}
}

// TestHistoryRowsBounded: a long plan's history keeps at most
// plan.MaxEvents+63 rows on disk (the trim runs every 64 versions), and
// History serves the last plan.MaxEvents.
func TestHistoryRowsBounded(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "plans.db")
	s := open(t, path)
	key := store.Key{User: "u", Session: "s"}
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a"}}}, "id", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	const writes = plan.MaxEvents + 200
	for v := int64(0); v < writes; v++ {
		if err := s.Save(ctx, key, p, store.Expect{ID: "id", Version: v}, plan.NewEvent(plan.ToolUpdate, plan.Changes{}, p, nil)); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows, oldest int
	if err := db.QueryRow("SELECT count(*), min(version) FROM plan_events").Scan(&rows, &oldest); err != nil {
		t.Fatal(err)
	}
	if rows < plan.MaxEvents || rows > plan.MaxEvents+63 {
		t.Errorf("%d rows after %d writes, want %d to %d", rows, writes, plan.MaxEvents, plan.MaxEvents+63)
	}
	h, err := s.History(ctx, key)
	if err != nil || len(h) != plan.MaxEvents || h[0].Version != writes-plan.MaxEvents+1 {
		t.Fatalf("history: %d events from %d, %v", len(h), h[0].Version, err)
	}
}
