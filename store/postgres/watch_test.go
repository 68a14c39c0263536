package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/postgres"
	"github.com/skillc/skillc/store/postgres/pgtest"
)

// TestWatchAcrossReplicas: two stores on one schema are two servers; a
// write through one wakes a watcher on the other (LISTEN/NOTIFY), a store
// on another schema hears nothing, and List on either sees the write.
func TestWatchAcrossReplicas(t *testing.T) {
	dsn := pgtest.DSN(t)
	schema := pgtest.SchemaName(t, dsn)
	open := func(schema string) *postgres.Store {
		t.Helper()
		s, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	writer, watcher, elsewhere := open(schema), open(schema), open(pgtest.SchemaName(t, dsn))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := watcher.Watch(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	other, err := elsewhere.Watch(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "replicated", Steps: []graph.Step{{Goal: "One."}}}, "p1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key := store.Key{User: "alice", Session: "c1"}
	if err := writer.Save(ctx, key, p, store.Expect{}, plan.NewEvent(plan.ToolMake, plan.Changes{}, p, nil)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("no notification on the other replica within 10 s")
	}
	select {
	case <-other:
		t.Fatal("a store on another schema was woken by this schema's write")
	case <-time.After(300 * time.Millisecond):
	}
	l, err := watcher.List(ctx, "alice", 0)
	if err != nil || len(l) != 1 || l[0].Session != "c1" || l[0].Plan.Version != 1 {
		t.Fatalf("list on the other replica: %+v, %v", l, err)
	}
}

// TestWatchReconnects: when the listener's connection is cut (a failover,
// an idle timeout, an administrator), the store reconnects, wakes every
// watcher (writes may have gone unheard meanwhile), and hears the writes
// after.
func TestWatchReconnects(t *testing.T) {
	dsn := pgtest.DSN(t)
	s, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: pgtest.SchemaName(t, dsn)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ch, err := s.Watch(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	listen := `LISTEN "` + postgres.ChannelOf(s) + `"`
	// Cut it, and once more when it is back: the loop must survive both.
	for round := 1; round <= 2; round++ {
		cut := 0
		for deadline := time.Now().Add(20 * time.Second); cut == 0; {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: no session listening with %q", round, listen)
			}
			conn, err := pgx.Connect(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			err = conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = $1`, listen).Scan(&cut)
			conn.Close(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if cut == 0 {
				time.Sleep(50 * time.Millisecond)
			}
		}
		select {
		case <-ch:
		case <-time.After(20 * time.Second):
			t.Fatalf("round %d: no wake-up after the listener was cut", round)
		}
	}
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "after", Steps: []graph.Step{{Goal: "One."}}}, "p1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// The wake-up comes once the new connection listens: this write is
	// heard.
	if err := s.Save(ctx, store.Key{User: "alice", Session: "c1"}, p, store.Expect{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatal("a write after reconnecting: no notification")
	}
}
