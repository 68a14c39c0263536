package store

import (
	"bytes"
	"encoding/json"
	"sync"

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
}

type cachedPlan struct {
	data []byte     // the JSON as stored
	plan *plan.Plan // data decoded; never handed out, only copies of it
}

// maxCachedPlans bounds a PlanCache: the conversations that wrote last,
// give or take, at a few KB each.
const maxCachedPlans = 1024

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
	c.put(key, data, p.Clone())
	return p, nil
}

// Wrote records that key's plan is now p, stored as data. The cache keeps
// data, which must not be changed afterwards, and a copy of p.
func (c *PlanCache) Wrote(key Key, data []byte, p *plan.Plan) {
	c.put(key, data, p.Clone())
}

func (c *PlanCache) put(key Key, data []byte, p *plan.Plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plans == nil {
		c.plans = make(map[Key]cachedPlan)
	}
	if _, ok := c.plans[key]; !ok && len(c.plans) >= maxCachedPlans {
		for k := range c.plans { // one at random: map order
			delete(c.plans, k)
			break
		}
	}
	c.plans[key] = cachedPlan{data: data, plan: p}
}
