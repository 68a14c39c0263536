package storetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// runList: a user's live plans, latest write first, and nobody else's.
func runList(t *testing.T, open Opener) {
	t.Run("List", func(t *testing.T) {
		e := newEnv(t, open)
		list := func(user string, limit int) []store.Listed {
			t.Helper()
			l, err := e.s.List(e.ctx, user, limit)
			if err != nil {
				t.Fatalf("list %q: %v", user, err)
			}
			return l
		}
		want := func(user string, limit int, want ...string) {
			t.Helper()
			var got []string
			for _, l := range list(user, limit) {
				if l.Plan == nil {
					t.Fatalf("list %q: conversation %q without a plan", user, l.Session)
				}
				got = append(got, l.Session+"="+l.Plan.Title+"@"+itoa(l.Plan.Version))
			}
			if a, b := join(got), join(want); a != b {
				t.Fatalf("list %q (limit %d):\n got %s\nwant %s", user, limit, a, b)
			}
		}
		want("alice", 0)
		save := func(key store.Key, title string) {
			t.Helper()
			expect := store.Expect{}
			if cur, err := e.s.Load(e.ctx, key); err == nil {
				expect = store.ExpectOf(cur)
			}
			if err := e.s.Save(e.ctx, key, e.newPlan(title, 2), expect); err != nil {
				t.Fatalf("save %v: %v", key, err)
			}
			e.clock.Advance(time.Minute)
		}
		save(store.Key{User: "alice", Session: "s1"}, "first")
		save(store.Key{User: "alice", Session: "s2"}, "second")
		save(store.Key{User: "bob", Session: "s1"}, "bob's")
		// Names a LIKE or a prefix match would mix up with alice's.
		save(store.Key{User: "alice_", Session: "s3"}, "not alice's")
		save(store.Key{User: "Alice", Session: "s4"}, "not alice's either")
		want("alice", 0, "s2=second@1", "s1=first@1")
		want("bob", 0, "s1=bob's@1")
		want("ali%", 0)
		want("al_ce", 0)
		want("", 0)

		// A write moves its conversation to the top.
		save(store.Key{User: "alice", Session: "s1"}, "first, again")
		want("alice", 0, "s1=first, again@2", "s2=second@1")
		want("alice", 1, "s1=first, again@2")
		want("alice", -1, "s1=first, again@2", "s2=second@1")

		// s2 was written 5 minutes ago, s1 one minute ago: move to
		// where s2 has expired and s1 has not, then s1 too.
		e.clock.Advance(ttl - 5*time.Minute)
		want("alice", 0, "s1=first, again@2")
		e.clock.Advance(4 * time.Minute)
		want("alice", 0)

		// The bound holds however many conversations there are; written
		// at one instant, they come in the order of their names.
		for i := range store.MaxList + 3 {
			if err := e.s.Save(e.ctx, store.Key{User: "carol", Session: fmt.Sprintf("c%03d", i)}, e.newPlan("many", 1), store.Expect{}); err != nil {
				t.Fatal(err)
			}
		}
		if l := list("carol", 0); len(l) != store.MaxList || l[0].Session != "c000" || l[len(l)-1].Session != fmt.Sprintf("c%03d", store.MaxList-1) {
			t.Fatalf("list of %d conversations: %d, from %q to %q; want %d, from c000", store.MaxList+3, len(l), l[0].Session, l[len(l)-1].Session, store.MaxList)
		}
	})
}

// runWatch: a write wakes the watchers of its user, and only them.
func runWatch(t *testing.T, open Opener) {
	t.Run("Watch", func(t *testing.T) {
		e := newEnv(t, open)
		ctx, cancel := context.WithCancel(e.ctx)
		defer cancel()
		watch := func(user string) <-chan struct{} {
			t.Helper()
			ch, err := e.s.Watch(ctx, user)
			if err != nil {
				t.Fatalf("watch %q: %v", user, err)
			}
			return ch
		}
		aliceCh, bobCh := watch("alice"), watch("bob")
		wantWoken := func(what string) {
			t.Helper()
			select {
			case _, ok := <-aliceCh:
				if !ok {
					t.Fatalf("%s: the channel closed", what)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: no notification within 10 s", what)
			}
		}
		// A store that polls has had time to look by now.
		quiet := func(ch <-chan struct{}, what string) {
			t.Helper()
			select {
			case <-ch:
				t.Fatalf("%s: a notification without a write of this user's", what)
			case <-time.After(300 * time.Millisecond):
			}
		}

		// A write without history, then the tools' writes with it.
		if err := e.s.Save(e.ctx, alice, e.newPlan("watched", 3), store.Expect{}); err != nil {
			t.Fatal(err)
		}
		wantWoken("a save")
		quiet(bobCh, "bob, after alice's save")
		if _, err := e.pl.Make(e.ctx, store.Key{User: "alice", Session: "s2"}, plan.MakeInput{Title: "second", Steps: steps(2)}); err != nil {
			t.Fatal(err)
		}
		wantWoken("make_plan in another conversation")
		// Writes in a burst coalesce; what a reload sees is the last.
		for range 5 {
			if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Uncheck: []string{"2"}}); err != nil {
				t.Fatal(err)
			}
		}
		wantWoken("a burst of updates")
		if got := e.mustLoad(alice).Version; got != 6 {
			t.Fatalf("after the burst: version %d, want 6", got)
		}
		quiet(bobCh, "bob, after alice's updates")

		// Bob's own write wakes bob.
		if err := e.s.Save(e.ctx, store.Key{User: "bob", Session: "s1"}, e.newPlan("bob's", 1), store.Expect{}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-bobCh:
		case <-time.After(10 * time.Second):
			t.Fatal("bob's save: no notification for bob within 10 s")
		}

		// Ending the context closes the channels.
		cancel()
		for _, ch := range []<-chan struct{}{aliceCh, bobCh} {
			deadline := time.After(10 * time.Second)
			for open := true; open; {
				select {
				case _, open = <-ch:
				case <-deadline:
					t.Fatal("the channel is still open 10 s after its context ended")
				}
			}
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func join(s []string) string { return "[" + strings.Join(s, " | ") + "]" }
