package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/skillc/skillc/plan"
)

// MaxAttempts bounds how often Update retries a conflicting write. Each
// conflict means another writer made progress, so running out takes a
// burst of that many writers on one plan at once.
const MaxAttempts = 64

// ErrTooBusy is returned when Update lost the race MaxAttempts times.
var ErrTooBusy = errors.New("the plan is being changed by too many callers at once: try again")

// Update loads the session's plan, passes it to fn (nil when there is no
// live plan) and saves what fn returns with compare-and-swap, retrying the
// whole round on ErrConflict with a short jittered backoff. fn may run
// several times and must not modify cur (the plan operations return new
// values). An error from fn ends the call with nothing written; a nil plan
// from fn means "write nothing" and Update returns cur.
//
// Update writes no history; the tools use Change.
func Update(ctx context.Context, s Store, key Key, fn func(cur *plan.Plan) (*plan.Plan, error)) (*plan.Plan, error) {
	return Change(ctx, s, key, func(cur *plan.Plan) (*plan.Plan, *plan.Event, error) {
		next, err := fn(cur)
		return next, nil, err
	})
}

// Change is Update for a change that goes into the plan's history: fn
// also returns the event that records it (nil: none), written in the same
// compare-and-swap as the plan.
func Change(ctx context.Context, s Store, key Key, fn func(cur *plan.Plan) (*plan.Plan, *plan.Event, error)) (*plan.Plan, error) {
	backoff := 200 * time.Microsecond
	for attempt := 1; ; attempt++ {
		cur, err := s.Load(ctx, key)
		switch {
		case errors.Is(err, ErrNotFound):
			cur = nil
		case err != nil:
			return nil, err
		}
		expect := ExpectOf(cur)
		next, ev, err := fn(cur)
		if err != nil {
			return nil, err
		}
		if next == nil {
			return cur, nil
		}
		if ev != nil {
			err = s.Save(ctx, key, next, expect, *ev)
		} else {
			err = s.Save(ctx, key, next, expect)
		}
		if err == nil {
			return next, nil
		}
		if !errors.Is(err, ErrConflict) {
			return nil, err
		}
		if attempt >= MaxAttempts {
			return nil, fmt.Errorf("%w (%d attempts)", ErrTooBusy, attempt)
		}
		// Full jitter keeps racing writers from colliding again in step.
		wait := time.Duration(rand.Int64N(int64(backoff))) + time.Microsecond
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		backoff = min(backoff*2, 20*time.Millisecond)
	}
}
