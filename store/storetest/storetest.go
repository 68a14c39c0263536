// Package storetest is the conformance suite every store.Store backend
// passes: compare-and-swap, the Update retry helper, TTL against an injected
// clock, sweep, scope, concurrent writers, the rounds of loops, the
// closed-plan rules, the history (its events, its scope, its TTL and
// its bound), a user's list and the change feed.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) store.Store {
//			return memory.New(store.Options{TTL: ttl, Now: clock})
//		})
//	}
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/tools"
)

// Opener returns a new, empty store that reads time from clock and keeps
// plans for ttl after their last write. The suite closes it.
type Opener func(t *testing.T, clock func() time.Time, ttl time.Duration) store.Store

// Clock is a settable clock for TTL tests.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock stopped at a fixed instant.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const ttl = time.Hour

type env struct {
	t     *testing.T
	ctx   context.Context
	clock *Clock
	s     store.Store
	pl    *tools.Planner
}

func newEnv(t *testing.T, open Opener) *env {
	t.Helper()
	c := NewClock()
	s := open(t, c.Now, ttl)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	n := 0
	var mu sync.Mutex
	return &env{t: t, ctx: context.Background(), clock: c, s: s, pl: &tools.Planner{
		Store: s, Now: c.Now,
		NewID: func() string { mu.Lock(); defer mu.Unlock(); n++; return "plan-" + strconv.Itoa(n) },
	}}
}

// steps returns n steps, each going on to the next.
func steps(n int) []graph.Step {
	out := make([]graph.Step, n)
	for i := range out {
		out[i] = graph.Step{Goal: fmt.Sprintf("Do part %d.", i+1), RecommendedTools: []string{"tool_" + strconv.Itoa(i+1)}}
	}
	return out
}

// loopSteps are FORMAT 6.5's example: step 4 goes back to step 2 on
// failure, at most 3 times.
func loopSteps() []graph.Step {
	s := steps(5)
	s[3].NextOnFailure, s[3].FailureBound = "2", 3
	return s
}

func (e *env) newPlan(title string, n int) *plan.Plan {
	e.t.Helper()
	p, _, err := plan.Make(nil, plan.MakeInput{Title: title, Steps: steps(n)}, title, e.clock.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

func (e *env) mustLoad(key store.Key) *plan.Plan {
	e.t.Helper()
	p, err := e.s.Load(e.ctx, key)
	if err != nil {
		e.t.Fatalf("load %v: %v", key, err)
	}
	return p
}

func (e *env) wantNotFound(key store.Key) {
	e.t.Helper()
	p, err := e.s.Load(e.ctx, key)
	if !errors.Is(err, store.ErrNotFound) {
		e.t.Fatalf("load %v: got plan %v, error %v; want ErrNotFound", key, p, err)
	}
}

func asJSON(t *testing.T, p *plan.Plan) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var alice = store.Key{User: "alice", Session: "s1"}

// Run runs the conformance suite against stores made by open.
func Run(t *testing.T, open Opener) {
	runList(t, open)
	runWatch(t, open)
	t.Run("LoadEmpty", func(t *testing.T) {
		e := newEnv(t, open)
		e.wantNotFound(alice)
		if n, err := e.s.Sweep(e.ctx); err != nil || n != 0 {
			t.Fatalf("sweep of an empty store: %d, %v", n, err)
		}
	})

	t.Run("SaveLoadRoundTrip", func(t *testing.T) {
		e := newEnv(t, open)
		p := e.newPlan("Round trip · ünïcødé \"quotes\"", graph.DefaultLimits().MaxSteps)
		p.Steps[3].Detail = "line one\nline two\t<tab> & \u2028"
		p.Skill = "some-skill"
		if err := e.s.Save(e.ctx, alice, p, store.Expect{}); err != nil {
			t.Fatal(err)
		}
		if p.Version != 1 {
			t.Errorf("version after first save = %d, want 1", p.Version)
		}
		if want := e.clock.Now().Add(ttl); !p.ExpiresAt.Equal(want) {
			t.Errorf("expires_at = %v, want %v", p.ExpiresAt, want)
		}
		got := e.mustLoad(alice)
		if got.Version != 1 || !got.ExpiresAt.Equal(p.ExpiresAt) {
			t.Errorf("loaded version %d expires %v; want 1, %v", got.Version, got.ExpiresAt, p.ExpiresAt)
		}
		// Times compare with Equal (a backend may change the location).
		got.ExpiresAt, got.CreatedAt, got.UpdatedAt = p.ExpiresAt, p.CreatedAt, p.UpdatedAt
		if a, b := asJSON(t, got), asJSON(t, p); a != b {
			t.Errorf("loaded plan differs from saved:\n got %s\nwant %s", a, b)
		}
		// The loaded value is the caller's: changing it changes nothing stored.
		got.Steps[0].Status = plan.StepDone
		if again := e.mustLoad(alice); again.Steps[0].Status != plan.StepInProgress {
			t.Errorf("a loaded plan aliases the stored one")
		}
	})

	t.Run("CompareAndSwap", func(t *testing.T) {
		e := newEnv(t, open)
		if err := e.s.Save(e.ctx, alice, e.newPlan("a", 2), store.Expect{ID: "a", Version: 3}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("save expecting version 3 on an empty session: %v, want ErrConflict", err)
		}
		e.wantNotFound(alice)
		if err := e.s.Save(e.ctx, alice, e.newPlan("a", 2), store.Expect{}); err != nil {
			t.Fatal(err)
		}
		// Another version of the plan, or version 1 of another plan, is
		// not what is stored.
		for _, expect := range []store.Expect{{}, {ID: "a", Version: 2}, {ID: "a", Version: 7}, {ID: "b", Version: 1}, {Version: 1}} {
			p := e.newPlan("stale", 3)
			if err := e.s.Save(e.ctx, alice, p, expect); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("save expecting %+v with a@1 stored: %v, want ErrConflict", expect, err)
			}
		}
		if got := e.mustLoad(alice); got.Title != "a" || got.Version != 1 {
			t.Fatalf("after refused saves: title %q version %d, want \"a\" 1", got.Title, got.Version)
		}
		p := e.newPlan("b", 2)
		if err := e.s.Save(e.ctx, alice, p, store.Expect{ID: "a", Version: 1}); err != nil {
			t.Fatal(err)
		}
		if got := e.mustLoad(alice); got.Title != "b" || got.Version != 2 || p.Version != 2 {
			t.Fatalf("after save: title %q version %d (returned %d), want \"b\" 2", got.Title, got.Version, p.Version)
		}
	})

	t.Run("Scope", func(t *testing.T) {
		e := newEnv(t, open)
		keys := []store.Key{
			{User: "alice", Session: "s1"},
			{User: "bob", Session: "s1"},
			{User: "alice", Session: "s2"},
			{User: "ålice:s1", Session: ""},
			{User: "alice", Session: "s1 "},
			{User: "", Session: "alice s1"},
		}
		if err := e.s.Save(e.ctx, keys[0], e.newPlan("mine", 1), store.Expect{}); err != nil {
			t.Fatal(err)
		}
		for _, k := range keys[1:] {
			e.wantNotFound(k)
			if err := e.s.Save(e.ctx, k, e.newPlan("other", 1), store.Expect{ID: "mine", Version: 1}); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("save %v expecting another user's version: %v, want ErrConflict", k, err)
			}
		}
		for i, k := range keys[1:] {
			if err := e.s.Save(e.ctx, k, e.newPlan("plan "+strconv.Itoa(i), 1), store.Expect{}); err != nil {
				t.Fatalf("save %v: %v", k, err)
			}
		}
		if got := e.mustLoad(keys[0]); got.Title != "mine" || got.Version != 1 {
			t.Fatalf("alice's plan changed: %q version %d", got.Title, got.Version)
		}
		for i, k := range keys[1:] {
			if got := e.mustLoad(k); got.Title != "plan "+strconv.Itoa(i) {
				t.Fatalf("%v holds %q", k, got.Title)
			}
		}
		// Through the planner, another user's session is an empty one.
		_, err := e.pl.View(e.ctx, store.Key{User: "mallory", Session: "s1"})
		if plan.ErrorCode(err) != plan.CodeNoPlan {
			t.Fatalf("view of another user's session: %v, want no_plan", err)
		}
		_, err = e.pl.Update(e.ctx, store.Key{User: "mallory", Session: "s1"}, plan.Changes{Check: []string{"1"}})
		if plan.ErrorCode(err) != plan.CodeNoPlan {
			t.Fatalf("update of another user's session: %v, want no_plan", err)
		}
	})

	t.Run("TTL", func(t *testing.T) {
		e := newEnv(t, open)
		p := e.newPlan("ttl", 2)
		if err := e.s.Save(e.ctx, alice, p, store.Expect{}); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(ttl - time.Millisecond)
		e.mustLoad(alice)
		e.clock.Advance(time.Millisecond)
		e.wantNotFound(alice) // expired at exactly write time + ttl, before any sweep
		if err := e.s.Save(e.ctx, alice, e.newPlan("late", 1), store.ExpectOf(p)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("save over an expired plan expecting its version: %v, want ErrConflict", err)
		}
		// An expired plan is no plan: a new one starts over at version 1.
		fresh := e.newPlan("fresh", 2)
		if err := e.s.Save(e.ctx, alice, fresh, store.Expect{}); err != nil {
			t.Fatalf("save over an expired plan: %v", err)
		}
		if fresh.Version != 1 {
			t.Fatalf("version over an expired plan = %d, want 1", fresh.Version)
		}
		// Sliding: every write pushes the expiry to write time + ttl.
		e.clock.Advance(ttl / 2)
		if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{"1"}}); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(ttl * 3 / 4)
		got := e.mustLoad(alice)
		if want := e.clock.Now().Add(ttl / 4); !got.ExpiresAt.Equal(want) {
			t.Fatalf("expires_at after a write = %v, want %v", got.ExpiresAt, want)
		}
		// Reads do not extend the TTL.
		e.clock.Advance(ttl / 4)
		e.wantNotFound(alice)
		if _, err := e.pl.View(e.ctx, alice); plan.ErrorCode(err) != plan.CodeNoPlan {
			t.Fatalf("view after expiry: %v, want no_plan", err)
		}
		if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{"2"}}); plan.ErrorCode(err) != plan.CodeNoPlan {
			t.Fatalf("update after expiry: %v, want no_plan", err)
		}
		e.wantNotFound(alice)
	})

	// Issue 16 item 7: a writer that loaded a plan just before it expired
	// must not overwrite the plan made after it, though both are at
	// version 1: compare-and-swap names the plan, not only its version.
	t.Run("Incarnations", func(t *testing.T) {
		for _, sweep := range []bool{false, true} {
			t.Run(fmt.Sprintf("sweep=%v", sweep), func(t *testing.T) {
				e := newEnv(t, open)
				if _, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "old", Steps: steps(2)}); err != nil {
					t.Fatal(err)
				}
				e.clock.Advance(ttl - time.Second)
				stale := e.mustLoad(alice)
				changed, err := plan.Update(stale, plan.Changes{Check: []string{"1"}}, e.clock.Now())
				if err != nil {
					t.Fatal(err)
				}
				e.clock.Advance(time.Second)
				if sweep {
					if n, err := e.s.Sweep(e.ctx); err != nil || n != 1 {
						t.Fatalf("sweep: %d, %v", n, err)
					}
				}
				r, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "new", Steps: steps(3)})
				if err != nil {
					t.Fatal(err)
				}
				if r.Plan.Version != stale.Version || r.Plan.ID == stale.ID {
					t.Fatalf("the case needs equal versions and other IDs: new %s@%d, stale %s@%d", r.Plan.ID, r.Plan.Version, stale.ID, stale.Version)
				}
				if err := e.s.Save(e.ctx, alice, changed, store.ExpectOf(stale)); !errors.Is(err, store.ErrConflict) {
					t.Fatalf("save of the expired plan over the new one: %v, want ErrConflict", err)
				}
				got := e.mustLoad(alice)
				if got.Title != "new" || got.Version != 1 || got.Step("1").Status != plan.StepInProgress {
					t.Fatalf("the new plan was overwritten: %q version %d", got.Title, got.Version)
				}
				// The planner retries on the conflict against the live plan.
				if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{"1"}}); err != nil {
					t.Fatal(err)
				}
				if got := e.mustLoad(alice); got.Title != "new" || got.Version != 2 || got.Step("2").Status != plan.StepInProgress {
					t.Fatalf("update of the new plan: %q version %d", got.Title, got.Version)
				}
			})
		}
	})

	t.Run("Sweep", func(t *testing.T) {
		e := newEnv(t, open)
		for i := range 5 {
			k := store.Key{User: "u", Session: strconv.Itoa(i)}
			if err := e.s.Save(e.ctx, k, e.newPlan("old", 1), store.Expect{}); err != nil {
				t.Fatal(err)
			}
		}
		e.clock.Advance(ttl / 2)
		live := store.Key{User: "u", Session: "live"}
		if err := e.s.Save(e.ctx, live, e.newPlan("live", 1), store.Expect{}); err != nil {
			t.Fatal(err)
		}
		// Rewriting an old one slides it past the sweep.
		kept := store.Key{User: "u", Session: "0"}
		if err := e.s.Save(e.ctx, kept, e.newPlan("kept", 1), store.Expect{ID: "old", Version: 1}); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(ttl / 2)
		n, err := e.s.Sweep(e.ctx)
		if err != nil || n != 4 {
			t.Fatalf("sweep = %d, %v; want 4 expired plans", n, err)
		}
		e.mustLoad(live)
		e.mustLoad(kept)
		if n, err := e.s.Sweep(e.ctx); err != nil || n != 0 {
			t.Fatalf("second sweep = %d, %v; want 0", n, err)
		}
		e.clock.Advance(ttl)
		if n, err := e.s.Sweep(e.ctx); err != nil || n != 2 {
			t.Fatalf("last sweep = %d, %v; want 2", n, err)
		}
	})

	t.Run("UpdateHelper", func(t *testing.T) {
		e := newEnv(t, open)
		calls := 0
		p, err := store.Update(e.ctx, e.s, alice, func(cur *plan.Plan) (*plan.Plan, error) {
			calls++
			if cur != nil {
				t.Errorf("cur = %v on an empty session, want nil", cur)
			}
			return e.newPlan("first", 3), nil
		})
		if err != nil || p.Version != 1 || calls != 1 {
			t.Fatalf("create: %v version %v calls %d", err, p, calls)
		}

		// An error from fn writes nothing.
		boom := errors.New("boom")
		if _, err := store.Update(e.ctx, e.s, alice, func(cur *plan.Plan) (*plan.Plan, error) {
			return nil, boom
		}); !errors.Is(err, boom) {
			t.Fatalf("fn error: %v, want boom", err)
		}
		// A nil plan from fn writes nothing and returns cur.
		same, err := store.Update(e.ctx, e.s, alice, func(cur *plan.Plan) (*plan.Plan, error) { return nil, nil })
		if err != nil || same.Version != 1 {
			t.Fatalf("no-op update: %v, %v", same, err)
		}

		// A writer that sneaks in between load and save forces one retry,
		// and both writes land.
		calls = 0
		p, err = store.Update(e.ctx, e.s, alice, func(cur *plan.Plan) (*plan.Plan, error) {
			calls++
			if calls == 1 {
				other, err := plan.Update(cur, plan.Changes{Check: []string{"1"}}, e.clock.Now())
				if err != nil {
					return nil, err
				}
				if err := e.s.Save(e.ctx, alice, other, store.ExpectOf(cur)); err != nil {
					t.Errorf("interleaved save: %v", err)
				}
			}
			return plan.Update(cur, plan.Changes{Skip: []string{"3"}}, e.clock.Now())
		})
		if err != nil {
			t.Fatal(err)
		}
		if calls != 2 {
			t.Errorf("fn ran %d times, want 2 (one conflict, one retry)", calls)
		}
		got := e.mustLoad(alice)
		if got.Version != 3 || got.Step("1").Status != plan.StepDone || got.Step("3").Status != plan.StepSkipped {
			t.Fatalf("after the retried update: version %d, steps %s %s; want 3, done, skipped",
				got.Version, got.Step("1").Status, got.Step("3").Status)
		}
		if p.Version != got.Version {
			t.Errorf("returned version %d, stored %d", p.Version, got.Version)
		}

		// A cancelled context ends the call.
		ctx, cancel := context.WithCancel(e.ctx)
		cancel()
		if _, err := store.Update(ctx, e.s, alice, func(cur *plan.Plan) (*plan.Plan, error) { return cur.Clone(), nil }); err == nil {
			t.Fatal("update with a cancelled context succeeded")
		}
	})

	t.Run("ConcurrentUpdatesLoseNothing", func(t *testing.T) {
		e := newEnv(t, open)
		const n = 50
		if _, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "race", Steps: steps(n)}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				_, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{strconv.Itoa(i + 1)}})
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
		got := e.mustLoad(alice)
		if got.Done() != n || got.Version != n+1 {
			t.Fatalf("after %d concurrent checks: %d done, version %d; want %d, %d", n, got.Done(), got.Version, n, n+1)
		}
	})

	t.Run("Rounds", func(t *testing.T) {
		e := newEnv(t, open)
		if _, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "retry", Steps: loopSteps()}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{"1", "2", "3"}}); err != nil {
			t.Fatal(err)
		}
		for round := 1; round <= 3; round++ {
			r, err := e.pl.Update(e.ctx, alice, plan.Changes{Fail: []string{"4"}})
			if err != nil {
				t.Fatal(err)
			}
			// What the store gives back is what was written: the round
			// counter travels in the plan's JSON.
			got := e.mustLoad(alice)
			if got.Rounds["4:failure"] != round || got.Step("2").Status != plan.StepInProgress || got.Step("4").Status != plan.StepPending {
				t.Fatalf("round %d: rounds %v, 2 %s, 4 %s", round, got.Rounds, got.Step("2").Status, got.Step("4").Status)
			}
			if want := fmt.Sprintf("(round %d of 3)", round); !strings.Contains(r.Text(), want) {
				t.Fatalf("round %d: the result does not show %q:\n%s", round, want, r.Text())
			}
			if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{"2", "3"}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Fail: []string{"4"}}); err != nil {
			t.Fatal(err)
		}
		if got := e.mustLoad(alice); got.Step("4").Status != plan.StepFailed || plan.Outcome(got) != plan.StatusFailed || got.Rounds["4:failure"] != 3 {
			t.Fatalf("the fourth failure: 4 %s, outcome %s, rounds %v", got.Step("4").Status, plan.Outcome(got), got.Rounds)
		}
		r, err := e.pl.Close(e.ctx, alice, "gave up after three rounds", "", plan.Changes{})
		if err != nil || r.Plan.Status != plan.StatusFailed || r.Plan.Rounds["4:failure"] != 3 {
			t.Fatalf("close: %+v, %v", r, err)
		}
	})

	t.Run("RoundsRacingUpdates", func(t *testing.T) {
		// Two agents fail the looping step at once: compare-and-swap makes
		// one of them retry on the other's plan, so both rounds count and
		// neither is lost.
		e := newEnv(t, open)
		if _, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "race", Steps: loopSteps()}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{"1", "2", "3"}}); err != nil {
			t.Fatal(err)
		}
		before := e.mustLoad(alice).Version
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for range 2 {
			wg.Go(func() {
				_, err := e.pl.Update(e.ctx, alice, plan.Changes{Fail: []string{"4"}})
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
		got := e.mustLoad(alice)
		if got.Rounds["4:failure"] != 2 || got.Version != before+2 || got.Step("2").Status != plan.StepInProgress {
			t.Fatalf("after two racing failures: rounds %v, version %d (was %d), 2 %s", got.Rounds, got.Version, before, got.Step("2").Status)
		}
	})

	t.Run("History", func(t *testing.T) {
		e := newEnv(t, open)
		acat := []graph.Step{
			{ID: "1", Goal: "Already credited?", NextOnSuccess: "end", NextOnFailure: "2"},
			{ID: "2", Goal: "List transfers.", NextOnSuccess: "3", NextOnFailure: "4"},
			{ID: "3", Goal: "One record?", NextOnSuccess: "end", NextOnFailure: "4"},
			{ID: "4", Goal: "Ask the user.", NextOnSuccess: "end", NextOnFailure: "fail"},
		}
		if _, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "acat", Steps: acat}); err != nil {
			t.Fatal(err)
		}
		for _, ch := range []plan.Changes{{Fail: []string{"1"}}, {Check: []string{"2"}}, {Check: []string{"4"}}} {
			e.clock.Advance(time.Minute)
			if _, err := e.pl.Update(e.ctx, alice, ch); err != nil {
				t.Fatal(err)
			}
		}
		e.clock.Advance(time.Minute)
		if _, err := e.pl.Close(e.ctx, alice, "one record", "", plan.Changes{Check: []string{"3"}}); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"1 make_plan {} active [1] 1:in_progress 2:pending 3:pending 4:pending",
			"2 update_plan {fail:1} active [2] 1:failed 2:in_progress 3:pending 4:pending",
			"3 update_plan {check:2} active [3] 1:failed 2:done 3:in_progress 4:pending",
			"4 update_plan {check:4} off:4 active [3] 1:failed 2:done 3:in_progress 4:done",
			"5 close_plan {check:3} note:one record completed [] 1:failed 2:done 3:done 4:done",
		}
		r, err := e.pl.History(e.ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		checkHistory(t, r.History, want, e.clock.Now().Add(-4*time.Minute))
		if r.Plan.Version != 5 || r.Plan.Status != plan.StatusCompleted {
			t.Fatalf("history's plan: version %d status %s", r.Plan.Version, r.Plan.Status)
		}

		// Scope: another user's session, or another session, has none.
		for _, k := range []store.Key{{User: "bob", Session: "s1"}, {User: "alice", Session: "s2"}} {
			if h, err := e.s.History(e.ctx, k); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("history of %v: %v, %v; want ErrNotFound", k, h, err)
			}
		}

		// A new plan starts a new history; the old one goes with its plan.
		if _, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "next", Steps: steps(2)}); err != nil {
			t.Fatal(err)
		}
		r, err = e.pl.History(e.ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		checkHistory(t, r.History, []string{"6 make_plan {} active [1] 1:in_progress 2:pending"}, e.clock.Now())

		// The history lives and expires with its plan: not served after
		// the TTL, and not carried into the plan made after expiry.
		e.clock.Advance(ttl)
		if h, err := e.s.History(e.ctx, alice); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("history after expiry: %v, %v; want ErrNotFound", h, err)
		}
		if _, err := e.pl.History(e.ctx, alice); plan.ErrorCode(err) != plan.CodeNoPlan {
			t.Fatalf("planner history after expiry: %v, want no_plan", err)
		}
		if _, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "after", Steps: steps(1)}); err != nil {
			t.Fatal(err)
		}
		h, err := e.s.History(e.ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		checkHistory(t, h, []string{"1 make_plan {} active [1] 1:in_progress"}, e.clock.Now())

		// A plan saved without events has an empty history, not none; a
		// swept plan takes its history with it.
		bare := store.Key{User: "alice", Session: "bare"}
		if err := e.s.Save(e.ctx, bare, e.newPlan("bare", 1), store.Expect{}); err != nil {
			t.Fatal(err)
		}
		if h, err := e.s.History(e.ctx, bare); err != nil || len(h) != 0 {
			t.Fatalf("history of a plan saved without events: %v, %v", h, err)
		}
		e.clock.Advance(ttl)
		if _, err := e.s.Sweep(e.ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.s.Save(e.ctx, alice, e.newPlan("bare again", 1), store.Expect{}); err != nil {
			t.Fatal(err)
		}
		if h, err := e.s.History(e.ctx, alice); err != nil || len(h) != 0 {
			t.Fatalf("history after a sweep and a new plan: %v, %v; want empty", h, err)
		}
	})

	t.Run("HistoryBounded", func(t *testing.T) {
		e := newEnv(t, open)
		p := e.newPlan("long", 1)
		// Past a multiple of 64, so a backend that trims in batches has trimmed.
		const extra = 70
		for v := int64(0); v < plan.MaxEvents+extra; v++ {
			ev := plan.NewEvent(plan.ToolUpdate, plan.Changes{Check: []string{"1"}}, p, nil)
			if v == 0 {
				ev = plan.NewEvent(plan.ToolMake, plan.Changes{}, p, nil)
			}
			if err := e.s.Save(e.ctx, alice, p, store.Expect{ID: p.ID, Version: v}, ev); err != nil {
				t.Fatalf("save %d: %v", v+1, err)
			}
		}
		h, err := e.s.History(e.ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != plan.MaxEvents || h[0].Version != extra+1 || h[len(h)-1].Version != plan.MaxEvents+extra {
			t.Fatalf("after %d writes: %d events, versions %d..%d; want the last %d (%d..%d)", plan.MaxEvents+extra,
				len(h), h[0].Version, h[len(h)-1].Version, plan.MaxEvents, extra+1, plan.MaxEvents+extra)
		}
	})

	t.Run("Planner", func(t *testing.T) {
		e := newEnv(t, open)
		if _, err := e.pl.View(e.ctx, alice); plan.ErrorCode(err) != plan.CodeNoPlan {
			t.Fatalf("view without a plan: %v", err)
		}
		if _, err := e.pl.Close(e.ctx, alice, "done", "", plan.Changes{}); plan.ErrorCode(err) != plan.CodeNoPlan {
			t.Fatalf("close without a plan: %v", err)
		}
		// A refused make stores nothing.
		bad := plan.MakeInput{Title: "loop", Steps: []graph.Step{{Goal: "a", NextOnSuccess: "9"}}}
		if _, err := e.pl.Make(e.ctx, alice, bad); plan.ErrorCode(err) != plan.CodeUnknownStep {
			t.Fatalf("make with an unknown target: %v", err)
		}
		e.wantNotFound(alice)

		r, err := e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "first", Steps: steps(3)})
		if err != nil || r.Superseded != nil || r.Notice != "" || r.Plan.Version != 1 {
			t.Fatalf("make: %+v, %v", r, err)
		}
		if !strings.HasPrefix(r.Text(), "first · active · 0/3 done\n") || r.Text() != r.Checklist {
			t.Fatalf("make text:\n%s", r.Text())
		}
		if _, err := e.pl.Make(e.ctx, alice, bad); err == nil {
			t.Fatal("bad make accepted")
		}
		if got := e.mustLoad(alice); got.Title != "first" || got.Version != 1 {
			t.Fatalf("a refused make changed the plan: %q version %d", got.Title, got.Version)
		}

		r, err = e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "second", Steps: steps(2)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Superseded == nil || r.Superseded.Title != "first" || r.Superseded.Status != plan.StatusCancelled ||
			r.Superseded.Note != "superseded" || !strings.Contains(r.Text(), "superseded") {
			t.Fatalf("make over an active plan: superseded %+v, text:\n%s", r.Superseded, r.Text())
		}
		if r.Plan.Version != 2 {
			t.Errorf("version of the replacing plan = %d, want 2", r.Plan.Version)
		}

		if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Check: []string{"1"}, Fail: []string{"7"}}); plan.ErrorCode(err) != plan.CodeUnknownStep {
			t.Fatalf("update naming an unknown step: %v", err)
		}
		if got := e.mustLoad(alice); got.Version != 2 || got.Step("1").Status != plan.StepInProgress {
			t.Fatalf("a refused update changed the plan: version %d", got.Version)
		}
		r, err = e.pl.Close(e.ctx, alice, "all done", "", plan.Changes{Check: []string{"1", "2"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Plan.Status != plan.StatusCompleted || r.Plan.Version != 3 || r.Plan.Note != "all done" {
			t.Fatalf("close: status %s version %d note %q", r.Plan.Status, r.Plan.Version, r.Plan.Note)
		}

		// Closed-plan rules: no more updates or closes; view still shows it;
		// a new make does not report a closed plan as superseded.
		if _, err := e.pl.Update(e.ctx, alice, plan.Changes{Uncheck: []string{"1"}}); plan.ErrorCode(err) != plan.CodeClosed {
			t.Fatalf("update of a closed plan: %v", err)
		}
		if _, err := e.pl.Close(e.ctx, alice, "again", plan.StatusFailed, plan.Changes{}); plan.ErrorCode(err) != plan.CodeClosed {
			t.Fatalf("close of a closed plan: %v", err)
		}
		v, err := e.pl.View(e.ctx, alice)
		if err != nil || v.Plan.Status != plan.StatusCompleted || v.Plan.Version != 3 {
			t.Fatalf("view of the closed plan: %+v, %v", v, err)
		}
		r, err = e.pl.Make(e.ctx, alice, plan.MakeInput{Title: "third", Steps: steps(1)})
		if err != nil || r.Superseded != nil || r.Plan.Version != 4 {
			t.Fatalf("make after close: %+v, %v", r, err)
		}
	})
}

// checkHistory compares events with want, one line each: version, tool,
// the lists, off-position steps, note, status, position, step statuses.
// The first event is at first, each later one a minute after the last.
func checkHistory(t *testing.T, h []plan.Event, want []string, first time.Time) {
	t.Helper()
	var got []string
	for i, ev := range h {
		var lists []string
		for _, l := range []struct {
			name string
			ids  []string
		}{{"check", ev.Check}, {"uncheck", ev.Uncheck}, {"fail", ev.Fail}, {"skip", ev.Skip}} {
			if len(l.ids) > 0 {
				lists = append(lists, l.name+":"+strings.Join(l.ids, ","))
			}
		}
		line := fmt.Sprintf("%d %s {%s}", ev.Version, ev.Tool, strings.Join(lists, " "))
		if len(ev.OffPosition) > 0 {
			line += " off:" + strings.Join(ev.OffPosition, ",")
		}
		if ev.Note != "" {
			line += " note:" + ev.Note
		}
		line += fmt.Sprintf(" %s [%s]", ev.Status, strings.Join(ev.Position, ","))
		for _, st := range ev.Steps {
			line += fmt.Sprintf(" %s:%s", st.ID, st.Status)
		}
		got = append(got, line)
		if at := first.Add(time.Duration(i) * time.Minute); !ev.At.Equal(at) {
			t.Errorf("event %d at %v, want %v", i+1, ev.At, at)
		}
		if ev.Position == nil {
			t.Errorf("event %d: position is null, want a list", i+1)
		}
	}
	if a, b := strings.Join(got, "\n"), strings.Join(want, "\n"); a != b {
		t.Errorf("history:\n got %s\nwant %s", a, b)
	}
}
