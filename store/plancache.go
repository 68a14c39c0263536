package store

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"

	"github.com/skillc/skillc/plan"
)

// PlanCache keeps, for each key, the plan a backend last wrote or read and
// the JSON it was stored as: for backends that store a plan as JSON text
// (SQLite, PostgreSQL's json). A Load that reads back the same bytes, as
// every update does (it reads what the conversation's last call wrote),
// then copies the plan instead of decoding it, and decoding is what a load
// spends most on: about 15 µs for a plan of three steps and 39 µs for
// eight, against 0.7 and 2.3 µs for a copy. The bytes are compared in full,
// so any other bytes (a write by another process, a changed row) are
// decoded as before. What a write recorded is handed out as written: the
// same fields, the times the same instants (the JSON keeps neither a
// monotonic reading nor a zone's name). The zero value is ready to use.
type PlanCache struct {
	mu    sync.Mutex
	plans map[Key]cachedPlan
	bytes int // the JSON of the plans held
}

type cachedPlan struct {
	data []byte     // the JSON as stored
	plan *plan.Plan // data decoded; never handed out, only copies of it
	// written is true when this process wrote the plan (Wrote), so its
	// version and expiry are the ones it was stored with, not read back
	// from the JSON copy.
	written bool
}

// maxCachedBytes bounds the JSON a PlanCache holds (the decoded plans take
// about as much again): thousands of typical plans of a few KB, and a few
// of the largest a plan can be, so many large plans cannot grow the
// server's memory without bound.
const maxCachedBytes = 8 << 20

// Decode decodes data, the stored JSON of key's plan, into a plan of the
// caller's own: a copy of the cached one when data is what was cached.
func (c *PlanCache) Decode(key Key, data []byte) (*plan.Plan, error) {
	c.mu.Lock()
	e, ok := c.plans[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.data, data) {
		return e.plan.Clone(), nil
	}
	p := new(plan.Plan)
	if err := json.Unmarshal(data, p); err != nil {
		return nil, err
	}
	c.put(key, data, p.Clone(), false)
	return p, nil
}

// Wrote records that key's plan is now p, stored as data. The cache keeps
// data, which must not be changed afterwards, and a copy of p.
func (c *PlanCache) Wrote(key Key, data []byte, p *plan.Plan) {
	c.put(key, data, p.Clone(), true)
}

// LastWritten is a copy of the plan this process last wrote for key, if
// the cache holds it as written and it has not expired at now: for a
// backend's LastWritten (see store.Remembering).
func (c *PlanCache) LastWritten(key Key, now time.Time) (*plan.Plan, bool) {
	c.mu.Lock()
	e, ok := c.plans[key]
	c.mu.Unlock()
	if !ok || !e.written || !e.plan.ExpiresAt.After(now) {
		return nil, false
	}
	return e.plan.Clone(), true
}

func (c *PlanCache) put(key Key, data []byte, p *plan.Plan, written bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plans == nil {
		c.plans = make(map[Key]cachedPlan)
	}
	if old, ok := c.plans[key]; ok {
		c.bytes -= len(old.data)
		delete(c.plans, key)
	}
	if len(data) > maxCachedBytes {
		return
	}
	for k, e := range c.plans { // at random (map order) until data fits
		if c.bytes+len(data) <= maxCachedBytes {
			break
		}
		c.bytes -= len(e.data)
		delete(c.plans, k)
	}
	c.plans[key] = cachedPlan{data: data, plan: p, written: written}
	c.bytes += len(data)
}
