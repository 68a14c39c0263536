package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/store/storetest"
)

var _ = golden.Update

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) store.Store {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "plans.db"), store.Options{TTL: ttl, Now: clock, Poll: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestShared: two stores on one file stand for two processes.
func TestShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) (store.Store, store.Store) {
		path := filepath.Join(t.TempDir(), "plans.db")
		var two [2]store.Store
		for i := range two {
			s, err := sqlite.Open(context.Background(), path, store.Options{TTL: ttl, Now: clock})
			if err != nil {
				t.Fatal(err)
			}
			two[i] = s
		}
		return two[0], two[1]
	})
}

// TestWatchAcrossProcesses: two stores on one file stand for two
// processes; a write through one wakes a watcher on the other (by polling).
func TestWatchAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plans.db")
	open := func() *sqlite.Store {
		t.Helper()
		s, err := sqlite.Open(context.Background(), path, store.Options{Poll: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	writer, watcher := open(), open()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := watcher.Watch(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "shared", Steps: []graph.Step{{Goal: "One."}}}, "p1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := writer.Save(ctx, store.Key{User: "alice", Session: "c1"}, p, store.Expect{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("no notification from the other store within 10 s")
	}
}
