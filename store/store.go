// Package store persists plans, one per (user, session), with a TTL. The
// Store interface is small on purpose: load, compare-and-swap, sweep. Every
// backend (store/memory, store/sqlite, store/postgres) passes the one
// conformance suite in storetest.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/skillc/skillc/plan"
)

// DefaultTTL is how long a plan lives after its last write.
const DefaultTTL = 24 * time.Hour

// Key scopes every read and write: one user, one conversation.
type Key struct {
	User    string
	Session string
}

var (
	// ErrNotFound: the session has no plan, or it expired, or it belongs
	// to someone else (indistinguishable on purpose).
	ErrNotFound = errors.New("no plan in this session")
	// ErrConflict: the plan changed since it was loaded.
	ErrConflict = errors.New("plan was changed concurrently")
)

// Store is a plan store.
type Store interface {
	// Load returns the session's plan, or ErrNotFound. It never returns
	// an expired plan, swept or not.
	Load(ctx context.Context, key Key) (*plan.Plan, error)
	// Save writes p if the stored version is still expect (0: no live
	// plan). On success p.Version is expect+1 and p.ExpiresAt is the
	// write time plus the TTL. Otherwise ErrConflict, and nothing changes.
	//
	// events are appended to the plan's history in the same write, each
	// with Version set to p's new version. The history starts over with a
	// plan that starts: when expect is 0 (an expired plan's history goes
	// with it) or an event is make_plan's (a superseded plan's history
	// goes with the plan). Of a history only the last plan.MaxEvents
	// events are kept.
	Save(ctx context.Context, key Key, p *plan.Plan, expect int64, events ...plan.Event) error
	// History returns the live plan's history, oldest first, or
	// ErrNotFound. It lives and expires with the plan, under the same key.
	History(ctx context.Context, key Key) ([]plan.Event, error)
	// Sweep deletes expired plans and says how many.
	Sweep(ctx context.Context) (int, error)
	Close() error
}

// Options are what every backend takes. The zero value is the default.
type Options struct {
	// TTL is how long a plan lives after its last write; 0 means DefaultTTL.
	TTL time.Duration
	// Now is the clock, injected by tests; nil means time.Now.
	Now func() time.Time
}

// WithDefaults fills in what the zero value leaves out.
func (o Options) WithDefaults() Options {
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// HistoryStarts reports whether a Save with expect and events starts the
// key's history over (see Store.Save): for backends.
func HistoryStarts(expect int64, events []plan.Event) bool {
	if expect == 0 {
		return true
	}
	for _, ev := range events {
		if ev.Tool == plan.ToolMake {
			return true
		}
	}
	return false
}
