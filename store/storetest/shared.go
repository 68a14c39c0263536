package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// SharedOpener returns two stores on one new, empty database, as two
// processes open it, reading time from clock and keeping plans for ttl.
// The suite closes them.
type SharedOpener func(t *testing.T, clock func() time.Time, ttl time.Duration) (store.Store, store.Store)

// RunShared checks what a backend that two processes can share must do
// when they do: a change made by one is never lost to, nor hidden from,
// the other, though each starts its changes from the plan as it last wrote
// it (store.Remembering).
func RunShared(t *testing.T, open SharedOpener) {
	t.Run("ChangeFromAnOutOfDateCopy", func(t *testing.T) {
		clock := NewClock()
		first, b := open(t, clock.Now, ttl)
		t.Cleanup(func() {
			for _, s := range []store.Store{first, b} {
				if err := s.Close(); err != nil {
					t.Errorf("close: %v", err)
				}
			}
		})
		a := &countingLoads{Store: first}
		ctx := context.Background()
		rename := func(suffix string) func(*plan.Plan) (*plan.Plan, *plan.Event, error) {
			return func(cur *plan.Plan) (*plan.Plan, *plan.Event, error) {
				if cur == nil {
					return nil, nil, errors.New("no plan")
				}
				next := cur.Clone()
				next.Title += suffix
				return next, nil, nil
			}
		}
		want := func(p *plan.Plan, title string, version int64) {
			t.Helper()
			if p == nil || p.Title != title || p.Version != version {
				t.Fatalf("plan %+v; want title %q, version %d", p, title, version)
			}
		}

		p, _, err := plan.Make(nil, plan.MakeInput{Title: "t", Steps: steps(3)}, "plan-1", clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Save(ctx, alice, p, store.Expect{}); err != nil {
			t.Fatal(err)
		}
		// Nobody else wrote: a starts from what it wrote, reading nothing.
		got, err := store.Change(ctx, a, alice, rename("+a"))
		if err != nil {
			t.Fatal(err)
		}
		want(got, "t+a", 2)
		if a.loads != 0 {
			t.Errorf("a change after this process's own write loaded the plan %d times, want 0", a.loads)
		}

		// b writes; a's copy is out of date, its write conflicts, and its
		// change lands on b's.
		if _, err := store.Change(ctx, b, alice, rename("+b")); err != nil {
			t.Fatal(err)
		}
		got, err = store.Change(ctx, a, alice, rename("+a"))
		if err != nil {
			t.Fatal(err)
		}
		want(got, "t+a+b+a", 4)
		loaded, err := b.Load(ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		want(loaded, "t+a+b+a", 4)

		// A change that writes nothing answers from the store, not from the
		// copy.
		if _, err := store.Change(ctx, b, alice, rename("+b")); err != nil {
			t.Fatal(err)
		}
		got, err = store.Change(ctx, a, alice, func(*plan.Plan) (*plan.Plan, *plan.Event, error) { return nil, nil, nil })
		if err != nil {
			t.Fatal(err)
		}
		want(got, "t+a+b+a+b", 5)

		// Nor does an error the copy would give: asked again of the store's
		// plan, the change goes through.
		if _, err := store.Change(ctx, b, alice, rename("+b")); err != nil {
			t.Fatal(err)
		}
		got, err = store.Change(ctx, a, alice, func(cur *plan.Plan) (*plan.Plan, *plan.Event, error) {
			if !strings.HasSuffix(cur.Title, "+b+b") {
				return nil, nil, errors.New("the step is not there")
			}
			return rename("+a")(cur)
		})
		if err != nil {
			t.Fatal(err)
		}
		want(got, "t+a+b+a+b+b+a", 7)

		// A plan that has expired is no copy to start from.
		clock.Advance(ttl + time.Second)
		if _, err := store.Change(ctx, a, alice, func(cur *plan.Plan) (*plan.Plan, *plan.Event, error) {
			if cur != nil {
				t.Errorf("an expired plan was handed to the change: %+v", cur)
			}
			return nil, nil, nil
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// countingLoads counts a store's loads, passing store.Remembering through.
type countingLoads struct {
	store.Store
	loads int
}

func (c *countingLoads) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	c.loads++
	return c.Store.Load(ctx, key)
}

func (c *countingLoads) LastWritten(key store.Key) (*plan.Plan, bool) {
	if r, ok := c.Store.(store.Remembering); ok {
		return r.LastWritten(key)
	}
	return nil, false
}
