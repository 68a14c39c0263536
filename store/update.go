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

// Remembering is a Store that keeps the plans this process last wrote, so
// that Change can start from one without reading it back: an update is
// then one write instead of a read and a write. The copy may be out of
// date, when another process shares the store: Change saves what it makes
// of it with compare-and-swap, as always, and trusts an answer made from
// it only once that write succeeds.
type Remembering interface {
	// LastWritten is a copy of the plan for key as this process last
	// wrote it, if it has one that has not expired.
	LastWritten(key Key) (*plan.Plan, bool)
}

// Change is Update for a change that goes into the plan's history: fn
// also returns the event that records it (nil: none), written in the same
// compare-and-swap as the plan.
//
// On a Remembering store the first round starts from the plan as this
// process last wrote it. If that copy is out of date, the write conflicts
// and the next round loads the plan, at once: nobody else is racing for
// it. A round from the copy that would end without a write (fn's error, or
// nothing to write) is done again from a load, so Change never answers
// from a copy no write has confirmed.
func Change(ctx context.Context, s Store, key Key, fn func(cur *plan.Plan) (*plan.Plan, *plan.Event, error)) (*plan.Plan, error) {
	backoff := 200 * time.Microsecond
	remembering, _ := s.(Remembering)
	for attempt := 1; ; attempt++ {
		var cur *plan.Plan
		fromCopy := false
		if remembering != nil {
			cur, fromCopy = remembering.LastWritten(key)
			remembering = nil // once: every later round loads
		}
		if !fromCopy {
			var err error
			cur, err = s.Load(ctx, key)
			switch {
			case errors.Is(err, ErrNotFound):
				cur = nil
			case err != nil:
				return nil, err
			}
		}
		expect := ExpectOf(cur)
		next, ev, err := fn(cur)
		if fromCopy && (err != nil || next == nil) {
			attempt--
			continue
		}
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
		if fromCopy {
			// The copy was out of date: not a race to back off from.
			attempt--
			continue
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
