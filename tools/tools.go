// Package tools runs the four plan tools (make_plan, view_plan, update_plan,
// close_plan) over a store: what the command line and the MCP server share.
// They differ only in where the key comes from and how the result is
// printed. Like plan and store it links no markdown.
package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// Planner runs the four plan tools over a store.Store for one caller at a
// time.
type Planner struct {
	Store store.Store
	// Now stamps created_at and updated_at; nil means time.Now.
	Now func() time.Time
	// NewID names a new plan; nil means 16 random hex digits.
	NewID func() string
	// Words name the tools in the checklist's guidance; the zero value
	// means plan.ToolWords. The CLI names its commands. Refusals keep
	// ToolWords in Error(); plan.Message renders them in other words.
	Words plan.Words
}

// Result is what each tool returns: the plan, its checklist and, after
// make_plan, the plan it superseded.
type Result struct {
	Plan      *plan.Plan
	Checklist string
	// Superseded is the active plan that make_plan closed as cancelled,
	// or nil.
	Superseded *plan.Plan
	// Notice tells the caller about Superseded, or about steps recorded
	// off the position, in one line, or is "".
	Notice string
	// History is the plan's history, oldest first; only History fills it.
	History []plan.Event
}

// Text is the checklist preceded by the notice, if any: what a tool prints.
func (r *Result) Text() string {
	if r.Notice == "" {
		return r.Checklist
	}
	return r.Notice + "\n" + r.Checklist
}

func (pl *Planner) now() time.Time {
	if pl.Now != nil {
		return pl.Now()
	}
	return time.Now()
}

func (pl *Planner) newID() string {
	if pl.NewID != nil {
		return pl.NewID()
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}

func (pl *Planner) words() plan.Words {
	if pl.Words == (plan.Words{}) {
		return plan.ToolWords
	}
	return pl.Words
}

func (pl *Planner) result(p, superseded *plan.Plan) *Result {
	r := &Result{Plan: p, Checklist: plan.ChecklistIn(p, pl.words()), Superseded: superseded}
	if superseded != nil {
		r.Notice = fmt.Sprintf("the active plan %q was closed as cancelled (superseded) by this one", superseded.Title)
	}
	return r
}

// Make starts the session's plan (make_plan). An active plan already there
// is closed as superseded and replaced; nothing is stored if in is refused.
func (pl *Planner) Make(ctx context.Context, key store.Key, in plan.MakeInput) (*Result, error) {
	id := pl.newID()
	var superseded *plan.Plan
	p, err := store.Change(ctx, pl.Store, key, func(cur *plan.Plan) (*plan.Plan, *plan.Event, error) {
		p, sup, err := plan.Make(cur, in, id, pl.now())
		superseded = sup
		if err != nil {
			return nil, nil, err
		}
		ev := plan.NewEvent(plan.ToolMake, plan.Changes{}, p, nil)
		return p, &ev, nil
	})
	if err != nil {
		return nil, err
	}
	return pl.result(p, superseded), nil
}

// View returns the session's latest plan, active or closed (view_plan).
// Without one it returns a *plan.Error with plan.CodeNoPlan.
func (pl *Planner) View(ctx context.Context, key store.Key) (*Result, error) {
	p, err := pl.Store.Load(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, noPlan()
	}
	if err != nil {
		return nil, err
	}
	return pl.result(p, nil), nil
}

// History returns the session's latest plan with its history (view_plan
// with history, `skillc plan history`). The plan and the history are two
// reads: events newer than the plan read first are left out, so the two
// agree.
func (pl *Planner) History(ctx context.Context, key store.Key) (*Result, error) {
	r, err := pl.View(ctx, key)
	if err != nil {
		return nil, err
	}
	h, err := pl.Store.History(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, noPlan()
	}
	if err != nil {
		return nil, err
	}
	r.History = []plan.Event{}
	for _, ev := range h {
		if ev.Version <= r.Plan.Version {
			r.History = append(r.History, ev)
		}
	}
	return r, nil
}

// Update records step outcomes (update_plan). Steps recorded off the
// position are kept, and the result's notice says so and names the
// position.
func (pl *Planner) Update(ctx context.Context, key store.Key, ch plan.Changes) (*Result, error) {
	return pl.record(ctx, key, plan.ToolUpdate, ch, func(cur *plan.Plan) (*plan.Plan, error) {
		return plan.Update(cur, ch, pl.now())
	})
}

// Close records step outcomes and closes the plan in one write
// (close_plan). An empty status is derived from the path.
func (pl *Planner) Close(ctx context.Context, key store.Key, note string, status plan.Status, ch plan.Changes) (*Result, error) {
	return pl.record(ctx, key, plan.ToolClose, ch, func(cur *plan.Plan) (*plan.Plan, error) {
		return plan.Close(cur, note, status, ch, pl.now())
	})
}

// record applies one tool's change ch to the session's plan with apply, in
// one compare-and-swap write with its history event, and says in the
// result's notice which steps it recorded off the position.
func (pl *Planner) record(ctx context.Context, key store.Key, tool string, ch plan.Changes, apply func(cur *plan.Plan) (*plan.Plan, error)) (*Result, error) {
	var off []string
	p, err := store.Change(ctx, pl.Store, key, func(cur *plan.Plan) (*plan.Plan, *plan.Event, error) {
		if cur == nil {
			return nil, nil, noPlan()
		}
		next, err := apply(cur)
		if err != nil {
			return nil, nil, err
		}
		off = plan.OffPosition(cur, next, ch)
		ev := plan.NewEvent(tool, ch, next, off)
		return next, &ev, nil
	})
	if err != nil {
		return nil, err
	}
	r := pl.result(p, nil)
	r.Notice = plan.OffPositionNotice(off, p)
	return r, nil
}

func noPlan() error { return plan.NoPlanError() }
