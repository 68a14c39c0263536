// Package memory is a Store held in a map: for tests, and for
// `--store memory` where plans need not outlive the process.
package memory

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// Store is an in-memory store.Store, safe for concurrent use.
type Store struct {
	opts store.Options

	mu      sync.Mutex
	plans   map[store.Key]*plan.Plan
	history map[store.Key][]plan.Event

	watchers store.Notifier
}

var _ store.Store = (*Store)(nil)

// New returns an empty store.
func New(opts store.Options) *Store {
	return &Store{opts: opts.WithDefaults(), plans: make(map[store.Key]*plan.Plan), history: make(map[store.Key][]plan.Event)}
}

// live returns the key's plan unless it expired. Callers hold mu.
func (s *Store) live(key store.Key, now time.Time) *plan.Plan {
	p := s.plans[key]
	if p == nil || !now.Before(p.ExpiresAt) {
		return nil
	}
	return p
}

// Load implements store.Store.
func (s *Store) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.live(key, s.opts.Now())
	if p == nil {
		return nil, store.ErrNotFound
	}
	// Copies in and out: a caller must not reach into the stored value.
	return p.Clone(), nil
}

// Save implements store.Store.
func (s *Store) Save(ctx context.Context, key store.Key, p *plan.Plan, expect store.Expect, events ...plan.Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	var have store.Expect
	if cur := s.live(key, now); cur != nil {
		have = store.ExpectOf(cur)
	}
	if have.None() != expect.None() || !have.None() && have != expect {
		return store.ErrConflict
	}
	p.Version = expect.Version + 1
	p.ExpiresAt = now.Add(s.opts.TTL)
	s.plans[key] = p.Clone()
	h := s.history[key]
	if store.HistoryStarts(expect, events) {
		h = nil
	}
	for _, ev := range events {
		ev.Version = p.Version
		h = append(h, cloneEvent(ev))
	}
	// Dropping the oldest by slicing, not copying: a full history then
	// costs no copy of its MaxEvents events per write, only one now and
	// then when append outgrows the array (and leaves the dropped ones
	// behind).
	if over := len(h) - plan.MaxEvents; over > 0 {
		h = h[over:]
	}
	s.history[key] = h
	s.watchers.Notify(key.User)
	return nil
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, user string, limit int) ([]store.Listed, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	out := []store.Listed{}
	for k := range s.plans {
		if k.User != user {
			continue
		}
		if p := s.live(k, now); p != nil {
			out = append(out, store.Listed{Session: k.Session, Plan: p.Clone()})
		}
	}
	// The expiry is the write time plus the TTL: the latest write expires last.
	slices.SortFunc(out, func(a, b store.Listed) int {
		if c := b.Plan.ExpiresAt.Compare(a.Plan.ExpiresAt); c != 0 {
			return c
		}
		return strings.Compare(a.Session, b.Session)
	})
	return out[:min(len(out), store.ListLimit(limit))], nil
}

// Watch implements store.Store: Save notifies, as only this process
// writes to the map.
func (s *Store) Watch(ctx context.Context, user string) (<-chan struct{}, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.watchers.Subscribe(ctx, user), nil
}

// History implements store.Store.
func (s *Store) History(ctx context.Context, key store.Key) ([]plan.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live(key, s.opts.Now()) == nil {
		return nil, store.ErrNotFound
	}
	h := s.history[key]
	out := make([]plan.Event, len(h))
	for i, ev := range h {
		out[i] = cloneEvent(ev)
	}
	return out, nil
}

// cloneEvent copies the slices of ev, which the caller or the store may
// hold on to.
func cloneEvent(ev plan.Event) plan.Event {
	ev.Check = append([]string(nil), ev.Check...)
	ev.Uncheck = append([]string(nil), ev.Uncheck...)
	ev.Fail = append([]string(nil), ev.Fail...)
	ev.Skip = append([]string(nil), ev.Skip...)
	ev.OffPosition = append([]string(nil), ev.OffPosition...)
	ev.Steps = append([]plan.StepState(nil), ev.Steps...)
	ev.Position = append([]string{}, ev.Position...)
	return ev
}

// Sweep implements store.Store.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	n := 0
	for k := range s.plans {
		if s.live(k, now) == nil {
			delete(s.plans, k)
			delete(s.history, k)
			n++
		}
	}
	return n, nil
}

// Close implements store.Store.
func (s *Store) Close() error { return nil }
