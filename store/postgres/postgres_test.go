package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/postgres"
	"github.com/skillc/skillc/store/postgres/pgtest"
	"github.com/skillc/skillc/tools"
)

// go test ./... -update passes -update to every test binary.
var _ = golden.Update

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock {
	return &clock{now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// open opens a store on a fresh schema of its own and closes it at the end.
func open(t *testing.T, opts postgres.Options) (*postgres.Store, string, string) {
	t.Helper()
	dsn := pgtest.DSN(t)
	if opts.Schema == "" {
		opts.Schema = pgtest.SchemaName(t, dsn)
	}
	s, err := postgres.Open(context.Background(), dsn, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dsn, opts.Schema
}

func newPlan(title string) *plan.Plan {
	return &plan.Plan{
		ID: "p1", Title: title, Status: plan.StatusActive, Entry: "1",
		Steps: []plan.Step{{Step: graph.Step{ID: "1", Goal: "Do it.", NextOnSuccess: "end", NextOnFailure: "fail"}, Status: plan.StepInProgress}},
	}
}

func queryInt(t *testing.T, dsn, sql string, args ...any) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// Servers starting together must migrate once, and none may fail: the
// advisory lock makes them take turns on a schema that does not exist yet.
func TestMigrateConcurrentOpen(t *testing.T) {
	dsn := pgtest.DSN(t)
	schema := pgtest.SchemaName(t, dsn)
	const n = 8
	stores := make([]*postgres.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			stores[i], errs[i] = postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema, MaxConns: 2})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	if got := queryInt(t, dsn, `SELECT count(*) FROM `+pgx.Identifier{schema, "schema_migrations"}.Sanitize()); got != postgres.SchemaVersion {
		t.Errorf("schema_migrations has %d rows, want %d", got, postgres.SchemaVersion)
	}
	if got := queryInt(t, dsn, `SELECT count(*) FROM pg_indexes WHERE schemaname = $1 AND indexname IN ('plans_pkey', 'plans_expires_at_idx')`, schema); got != 2 {
		t.Errorf("found %d of the 2 indexes on plans", got)
	}
	// Opening again is a no-op, and every store sees the others' writes.
	again, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer again.Close()
	if got := queryInt(t, dsn, `SELECT count(*) FROM `+pgx.Identifier{schema, "schema_migrations"}.Sanitize()); got != postgres.SchemaVersion {
		t.Errorf("after reopening, schema_migrations has %d rows, want %d", got, postgres.SchemaVersion)
	}
	key := store.Key{User: "u", Session: "s"}
	if err := stores[0].Save(context.Background(), key, newPlan("shared"), store.Expect{}); err != nil {
		t.Fatal(err)
	}
	for i, s := range append(stores[1:], again) {
		p, err := s.Load(context.Background(), key)
		if err != nil || p.Title != "shared" || p.Version != 1 {
			t.Errorf("store %d: load = %+v, %v; want the plan saved by store 0 at version 1", i+1, p, err)
		}
	}
}

// A schema at version 1 (plans, no history) is migrated: its plans are
// kept, with an empty history that the next change starts.
func TestMigratesVersion1(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	schema := pgtest.Schema(t, dsn)
	q := func(name string) string { return pgx.Identifier{schema, name}.Sanitize() }
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "old", Steps: []graph.Step{{Goal: "a"}, {Goal: "b"}}}, "id", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(p)
	for _, stmt := range []string{
		`CREATE TABLE ` + q("schema_migrations") + ` (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
		`INSERT INTO ` + q("schema_migrations") + ` (version, name) VALUES (1, 'create plans')`,
		`CREATE TABLE ` + q("plans") + ` (user_id text NOT NULL, session_id text NOT NULL, version bigint NOT NULL CHECK (version > 0),
			plan json NOT NULL, updated_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, PRIMARY KEY (user_id, session_id))`,
	} {
		if err := pgtest.Exec(ctx, dsn, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if err := pgtest.Exec(ctx, dsn, `INSERT INTO `+q("plans")+` VALUES ('u', 's', 1, $1, now(), now() + interval '1 hour')`, string(data)); err != nil {
		t.Fatal(err)
	}
	s, err := postgres.Open(ctx, dsn, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := queryInt(t, dsn, `SELECT max(version) FROM `+q("schema_migrations")); got != postgres.SchemaVersion {
		t.Errorf("schema version %d after migration, want %d", got, postgres.SchemaVersion)
	}
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
	if h, err := s.History(ctx, key); err != nil || len(h) != 1 || h[0].Version != 2 {
		t.Fatalf("history after an update: %+v, %v", h, err)
	}
}

// A database migrated by a newer skillc is refused, not written to.
func TestMigrateRefusesNewerSchema(t *testing.T) {
	s, dsn, schema := open(t, postgres.Options{})
	s.Close()
	if err := pgtest.Exec(context.Background(), dsn, `INSERT INTO `+pgx.Identifier{schema, "schema_migrations"}.Sanitize()+` (version, name) VALUES (99, 'from the future')`); err != nil {
		t.Fatal(err)
	}
	_, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema})
	want := fmt.Sprintf("postgres: migrate schema: the database schema is at version 99, newer than this skillc knows (%d): upgrade skillc", postgres.SchemaVersion)
	if err == nil || err.Error() != want {
		t.Fatalf("open = %v, want %q", err, want)
	}
}

// Without Options.Schema the tables go where the DSN's search_path says.
func TestSearchPathFromDSN(t *testing.T) {
	dsn := pgtest.DSN(t)
	schema := pgtest.Schema(t, dsn)
	s, err := postgres.Open(context.Background(), pgtest.WithSearchPath(t, dsn, schema), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Save(context.Background(), store.Key{User: "u", Session: "s"}, newPlan("t"), store.Expect{}); err != nil {
		t.Fatal(err)
	}
	if got := queryInt(t, dsn, `SELECT count(*) FROM `+pgx.Identifier{schema, "plans"}.Sanitize()); got != 1 {
		t.Errorf("%s.plans has %d rows, want 1", schema, got)
	}
}

// Every pgx query mode works, including those used behind PgBouncer.
func TestQueryExecModes(t *testing.T) {
	dsn := pgtest.DSN(t)
	for _, mode := range []string{"cache_statement", "cache_describe", "describe_exec", "exec", "simple_protocol"} {
		t.Run(mode, func(t *testing.T) {
			s, err := postgres.Open(context.Background(), pgtest.WithParam(t, dsn, "default_query_exec_mode", mode),
				postgres.Options{Schema: pgtest.SchemaName(t, dsn)})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			key := store.Key{User: "u", Session: "s"}
			p := newPlan("mode " + mode)
			if err := s.Save(ctx, key, p, store.Expect{}); err != nil {
				t.Fatal(err)
			}
			if err := s.Save(ctx, key, p, store.ExpectOf(p)); err != nil {
				t.Fatal(err)
			}
			got, err := s.Load(ctx, key)
			if err != nil || got.Title != p.Title || got.Version != 2 {
				t.Fatalf("load = %+v, %v; want %q at version 2", got, err, p.Title)
			}
			if n, err := s.Sweep(ctx); err != nil || n != 0 {
				t.Fatalf("sweep = %d, %v", n, err)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dsn := pgtest.DSN(t)
	tests := []struct {
		name string
		dsn  string
		opts postgres.Options
		want string // substring of the error
	}{
		{"unparsable dsn", "postgres://u:secret@[::1", postgres.Options{}, "postgres: cannot parse"},
		{"bad pool size in dsn", dsn + "&pool_max_conns=many", postgres.Options{}, "cannot parse pool_max_conns"},
		{"negative pool size", dsn, postgres.Options{MaxConns: -1}, "pool size -1: want a positive number"},
		{"negative sweep interval", dsn, postgres.Options{SweepEvery: -time.Second}, "sweep interval -1s: want a positive duration"},
		{"nobody listening", "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=5", postgres.Options{}, "postgres: connect: failed to connect to"},
		{"search_path without a schema", dsn + "&search_path=skillc_no_such_schema", postgres.Options{}, `no schema in search_path "skillc_no_such_schema" exists: create it`},
		{"no such database", strings.Replace(dsn, "/test", "/skillc_no_such_db", 1), postgres.Options{}, `database "skillc_no_such_db" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := postgres.Open(context.Background(), tt.dsn, tt.opts)
			if err == nil {
				s.Close()
				t.Fatalf("open succeeded, want an error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			t.Log(err)
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

// A server that accepts the connection and never answers: Open gives up at
// the timeout and says where it was connecting.
func TestOpenTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	addr := ln.Addr().(*net.TCPAddr)
	dsn := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/test?sslmode=disable", addr.Port)
	_, err = postgres.Open(context.Background(), dsn, postgres.Options{Timeout: 300 * time.Millisecond})
	want := fmt.Sprintf(`postgres: connect: no answer from 127.0.0.1:%d (database "test"): context deadline exceeded`, addr.Port)
	if err == nil || err.Error() != want || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("open = %v, want %q", err, want)
	}
}

func TestPoolSize(t *testing.T) {
	dsn := pgtest.DSN(t)
	s, _, _ := open(t, postgres.Options{MaxConns: 3})
	if got := s.Stat().MaxConns(); got != 3 {
		t.Errorf("with MaxConns 3, pool max = %d", got)
	}
	withDSN, err := postgres.Open(context.Background(), dsn+"&pool_max_conns=5", postgres.Options{Schema: pgtest.SchemaName(t, dsn)})
	if err != nil {
		t.Fatal(err)
	}
	defer withDSN.Close()
	if got := withDSN.Stat().MaxConns(); got != 5 {
		t.Errorf("with pool_max_conns=5, pool max = %d", got)
	}
	byDefault, _, _ := open(t, postgres.Options{})
	if got, want := byDefault.Stat().MaxConns(), postgres.DefaultMaxConns(); got != want || want < 16 {
		t.Errorf("by default, pool max = %d, want DefaultMaxConns %d (at least 16)", got, want)
	}
}

// Sweep removes every expired row, in batches, and nothing live.
func TestSweepBatches(t *testing.T) {
	c := newClock()
	s, dsn, schema := open(t, postgres.Options{Now: c.Now, TTL: time.Hour, SweepBatch: 10})
	ctx := context.Background()
	// Expiry times both tie and differ across batch boundaries.
	for i := range 25 {
		if i%3 == 0 {
			c.Advance(time.Second)
		}
		if err := s.Save(ctx, store.Key{User: "u", Session: fmt.Sprint("old", i)}, newPlan("old"), store.Expect{}); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(30 * time.Minute)
	for i := range 3 {
		if err := s.Save(ctx, store.Key{User: "u", Session: fmt.Sprint("new", i)}, newPlan("new"), store.Expect{}); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(45 * time.Minute) // the old ones are 75 minutes old, the new ones 45
	if _, err := s.Load(ctx, store.Key{User: "u", Session: "old0"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("load of an expired, unswept plan = %v, want ErrNotFound", err)
	}
	n, err := s.Sweep(ctx)
	if err != nil || n != 25 {
		t.Fatalf("sweep = %d, %v; want 25", n, err)
	}
	if got := queryInt(t, dsn, `SELECT count(*) FROM `+pgx.Identifier{schema, "plans"}.Sanitize()); got != 3 {
		t.Errorf("%d rows left, want the 3 live ones", got)
	}
	if n, err := s.Sweep(ctx); err != nil || n != 0 {
		t.Errorf("second sweep = %d, %v; want 0", n, err)
	}
}

func TestBackgroundSweeper(t *testing.T) {
	c := newClock()
	s, dsn, schema := open(t, postgres.Options{Now: c.Now, TTL: time.Hour, SweepEvery: 5 * time.Millisecond})
	if err := s.Save(context.Background(), store.Key{User: "u", Session: "s"}, newPlan("t"), store.Expect{}); err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * time.Hour)
	table := pgx.Identifier{schema, "plans"}.Sanitize()
	deadline := time.Now().Add(20 * time.Second)
	for queryInt(t, dsn, `SELECT count(*) FROM `+table) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the background sweeper did not delete the expired plan")
		}
		time.Sleep(10 * time.Millisecond)
	}
	done := make(chan struct{})
	go func() { s.Close(); s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("close did not stop the background sweeper")
	}
}

// Keys PostgreSQL text cannot hold get a clear error, not a driver one.
func TestInvalidKeys(t *testing.T) {
	s, _, _ := open(t, postgres.Options{})
	ctx := context.Background()
	tests := []struct {
		key  store.Key
		want string
	}{
		{store.Key{User: "u", Session: "a\x00b"}, `postgres: session id "a\x00b" contains a NUL byte`},
		{store.Key{User: "\xff", Session: "s"}, `postgres: user id "\xff" is not valid UTF-8`},
	}
	for _, tt := range tests {
		if err := s.Save(ctx, tt.key, newPlan("t"), store.Expect{}); err == nil || err.Error() != tt.want {
			t.Errorf("save %q = %v, want %q", tt.key, err, tt.want)
		}
		if _, err := s.Load(ctx, tt.key); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("load %q = %v, want ErrNotFound", tt.key, err)
		}
	}
	// A NUL inside the plan itself is fine: it is stored as json, not jsonb.
	p := newPlan("nul \x00 inside")
	key := store.Key{User: "u", Session: "s"}
	if err := s.Save(ctx, key, p, store.Expect{}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, key)
	if err != nil || got.Title != p.Title {
		t.Errorf("load = %+v, %v; want title %q", got, err, p.Title)
	}
}

// A write blocked by a lock gives up at the timeout, and a cancelled
// context stops an operation: no tool call hangs on the database.
func TestTimeoutAndCancel(t *testing.T) {
	// A second: short enough for the test, long enough for Open's first
	// connection, which it also bounds, on a machine busy with the other
	// packages' tests (300 ms failed there once).
	s, dsn, schema := open(t, postgres.Options{Timeout: time.Second})
	ctx := context.Background()
	key := store.Key{User: "u", Session: "s"}
	p := newPlan("t")
	if err := s.Save(ctx, key, p, store.Expect{}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT 1 FROM `+pgx.Identifier{schema, "plans"}.Sanitize()+` FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	err = s.Save(ctx, key, p, store.ExpectOf(p))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("save on a locked row = %v, want a deadline exceeded error", err)
	}
	if p.Version != 1 {
		t.Errorf("a failed save changed the plan's version to %d", p.Version)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Load(cancelled, key); !errors.Is(err, context.Canceled) {
		t.Errorf("load with a cancelled context = %v, want context.Canceled", err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, key, p, store.ExpectOf(p)); err != nil {
		t.Errorf("save after the lock was released: %v", err)
	}
}

// Two stores with pools of their own stand for two servers: racing
// compare-and-swap increments on one plan all land, none twice.
func TestRacingServers(t *testing.T) {
	a, dsn, schema := open(t, postgres.Options{MaxConns: 4})
	b, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	key := store.Key{User: "u", Session: "s"}
	if err := a.Save(ctx, key, newPlan("0"), store.Expect{}); err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 10
	var conflicts atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		s := a
		if w%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for range each {
				for {
					p, err := s.Load(ctx, key)
					if err != nil {
						t.Error(err)
						return
					}
					var n int
					fmt.Sscan(p.Title, &n)
					p.Title = fmt.Sprint(n + 1)
					err = s.Save(ctx, key, p, store.ExpectOf(p))
					if errors.Is(err, store.ErrConflict) {
						conflicts.Add(1)
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
	p, err := b.Load(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint(writers * each); p.Title != want || p.Version != writers*each+1 {
		t.Errorf("counter = %s at version %d, want %s at version %d", p.Title, p.Version, want, writers*each+1)
	}
	t.Logf("%d conflicts retried", conflicts.Load())
}

// TestSweepTakesTheHistory: the history's rows go with their plan's when
// the sweep deletes it (ON DELETE CASCADE), and with a plan another
// replaces.
func TestSweepTakesTheHistory(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	s, dsn, schema := open(t, postgres.Options{TTL: time.Hour, Now: c.Now})
	events := pgx.Identifier{schema, "plan_events"}.Sanitize()
	pl := &tools.Planner{Store: s, Now: c.Now}
	for _, sess := range []string{"a", "b"} {
		key := store.Key{User: "u", Session: sess}
		if _, err := pl.Make(ctx, key, plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "a"}, {Goal: "b"}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Update(ctx, key, plan.Changes{Check: []string{"1"}}); err != nil {
			t.Fatal(err)
		}
	}
	if n := queryInt(t, dsn, `SELECT count(*) FROM `+events); n != 4 {
		t.Fatalf("%d events stored, want 4", n)
	}
	if _, err := pl.Make(ctx, store.Key{User: "u", Session: "a"}, plan.MakeInput{Title: "t2", Steps: []graph.Step{{Goal: "a"}}}); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, dsn, `SELECT count(*) FROM `+events); n != 3 {
		t.Fatalf("%d events after a new plan, want 3", n)
	}
	c.Advance(time.Hour)
	if n, err := s.Sweep(ctx); err != nil || n != 2 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	if n := queryInt(t, dsn, `SELECT count(*) FROM `+events); n != 0 {
		t.Fatalf("%d events left after the sweep, want 0", n)
	}
}
