// Package store persists plans, one per (user, session), with a TTL. The
// Store interface is small on purpose: load, compare-and-swap, sweep, and
// for the web view a user's list and a change feed (Watch). Every
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
	// Save writes p if the live plan is still the one expected: same ID,
	// same version (the zero Expect: no live plan). On success p.Version
	// is expect.Version+1 and p.ExpiresAt is the write time plus the TTL.
	// Otherwise ErrConflict, and nothing changes.
	//
	// events are appended to the plan's history in the same write, each
	// with Version set to p's new version. The history starts over with a
	// plan that starts: when expect is zero (an expired plan's history goes
	// with it) or an event is make_plan's (a superseded plan's history
	// goes with the plan). Of a history only the last plan.MaxEvents
	// events are served (and kept, give or take a batch: HistoryTrim).
	Save(ctx context.Context, key Key, p *plan.Plan, expect Expect, events ...plan.Event) error
	// History returns the live plan's history, oldest first, or
	// ErrNotFound. It lives and expires with the plan, under the same key.
	History(ctx context.Context, key Key) ([]plan.Event, error)
	// List returns the user's live plans, one per conversation (a
	// conversation holds only its latest), the most recently written
	// first, ties by conversation; at most limit of them (limit <= 0 or
	// over MaxList: MaxList). No user's list holds another user's plan.
	List(ctx context.Context, user string, limit int) ([]Listed, error)
	// Watch returns a channel that receives a value soon after any of the
	// user's plans is written, by this process or another one sharing the
	// store, until ctx ends; then the channel is closed. Values coalesce:
	// one may stand for several writes, and one may come without a write
	// (a feed that lost its connection says so when it is back), so a
	// receiver reloads what it shows (List, Load) instead of counting.
	// Writes to other users' plans send nothing.
	Watch(ctx context.Context, user string) (<-chan struct{}, error)
	// Sweep deletes expired plans and says how many.
	Sweep(ctx context.Context) (int, error)
	Close() error
}

// MaxList bounds what one List returns: a user's conversations of the
// last TTL, most recent first, beyond which nobody scrolls.
const MaxList = 200

// Listed is one conversation's plan, as List returns it.
type Listed struct {
	Session string
	Plan    *plan.Plan
}

// ListLimit is the number of plans a List with limit returns at most.
func ListLimit(limit int) int {
	if limit <= 0 || limit > MaxList {
		return MaxList
	}
	return limit
}

// Options are what every backend takes. The zero value is the default.
type Options struct {
	// TTL is how long a plan lives after its last write; 0 means DefaultTTL.
	TTL time.Duration
	// Now is the clock, injected by tests; nil means time.Now.
	Now func() time.Time
	// Poll is how often Watch looks for writes in a backend that cannot
	// be told of them (SQLite, whose writers may be other processes);
	// 0 means DefaultPoll.
	Poll time.Duration
}

// DefaultPoll is how often a polling Watch looks: a person watching a page
// sees a change within half a second, and a poll is one indexed query.
const DefaultPoll = 500 * time.Millisecond

// WithDefaults fills in what the zero value leaves out.
func (o Options) WithDefaults() Options {
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	return o
}

// Expect is what a write expects to find stored: the live plan it loaded,
// by ID and version; the zero value expects no live plan. The version alone
// would be ambiguous: a plan made after another expired starts again at
// version 1, and a writer still holding the old plan at version 1 would
// overwrite the new one. The ID tells the two incarnations apart.
type Expect struct {
	ID      string
	Version int64
}

// ExpectOf is what a write over cur expects: cur's ID and version, or no
// plan when cur is nil.
func ExpectOf(cur *plan.Plan) Expect {
	if cur == nil {
		return Expect{}
	}
	return Expect{ID: cur.ID, Version: cur.Version}
}

// None reports whether e expects no live plan.
func (e Expect) None() bool { return e.Version == 0 }

// trimEvery is how often (in versions) a backend deletes the events that
// fell past plan.MaxEvents. Deleting on every write would dirty one more
// page per write of a long plan; in batches a history holds at most
// plan.MaxEvents+trimEvery-1 rows, and History reads only the last
// plan.MaxEvents of them.
const trimEvery = 64

// HistoryTrim says whether a write at version should delete old events,
// and up to which version (inclusive): for backends.
func HistoryTrim(version int64) (upTo int64, trim bool) {
	if version <= plan.MaxEvents || version%trimEvery != 0 {
		return 0, false
	}
	return version - plan.MaxEvents, true
}

// HistoryStarts reports whether a Save with expect and events starts the
// key's history over (see Store.Save): for backends.
func HistoryStarts(expect Expect, events []plan.Event) bool {
	if expect.None() {
		return true
	}
	for _, ev := range events {
		if ev.Tool == plan.ToolMake {
			return true
		}
	}
	return false
}
