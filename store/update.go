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
func Update(ctx context.Context, s Store, key Key, fn func(cur *plan.Plan) (*plan.Plan, error)) (*plan.Plan, error) {
	if p, ok := s.(Peeker); ok {
		if next, done, err := updatePeeked(ctx, s, p, key, fn); done {
			return next, err
		}
	}
	backoff := 200 * time.Microsecond
	for attempt := 1; ; attempt++ {
		cur, err := s.Load(ctx, key)
		var expect int64
		switch {
		case errors.Is(err, ErrNotFound):
			cur = nil
		case err != nil:
			return nil, err
		default:
			expect = cur.Version
		}
		next, err := fn(cur)
		if err != nil {
			return nil, err
		}
		if next == nil {
			return cur, nil
		}
		err = s.Save(ctx, key, next, expect)
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

// Peeker is implemented by stores that remember, in process, the last plan
// they read or wrote for a session. Update then tries fn on that plan and
// writes with compare-and-swap straight away, saving the read: the version
// check makes a stale copy harmless, it only costs the usual retry.
type Peeker interface {
	// Peek returns a copy of the remembered plan, which may be stale.
	Peek(key Key) (*plan.Plan, bool)
}

// updatePeeked is Update's first attempt on a remembered plan. done is
// false when the answer must come from a real read: nothing remembered,
// the write conflicted, or fn refused or skipped the write (a refusal of a
// stale copy, "the plan is closed", may not hold for the stored one).
func updatePeeked(ctx context.Context, s Store, pk Peeker, key Key, fn func(cur *plan.Plan) (*plan.Plan, error)) (next *plan.Plan, done bool, err error) {
	cur, ok := pk.Peek(key)
	if !ok {
		return nil, false, nil
	}
	next, err = fn(cur)
	if err != nil || next == nil {
		return nil, false, nil
	}
	switch err := s.Save(ctx, key, next, cur.Version); {
	case err == nil:
		return next, true, nil
	case errors.Is(err, ErrConflict):
		return nil, false, nil
	default:
		return nil, true, err
	}
}
