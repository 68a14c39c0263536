package postgres_test

import (
	"context"
	"testing"
	"time"

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
