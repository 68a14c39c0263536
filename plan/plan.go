// Package plan is the runtime model of an agent's plan and the four
// operations on it (make, view, update, close) as pure functions: no I/O,
// no clock of its own. Stores persist what these functions return.
//
// The rules, from DESIGN.md §2, and the choices made where it is silent:
//
//   - Make: a missing step ID is the step's 1-based position; a missing
//     success edge is the next step (after the last: end), a missing
//     failure edge fail. Edges may name end and fail in any case and a step
//     as "#id". Unknown targets, duplicate, invalid or reserved IDs, loops
//     without a bound (steps) or that nothing can leave are refused, as are the limits (graph.Limits: 100 steps, 500
//     characters per goal, 16 tools per step, 200 per title), all decided
//     by graph.Check, the check lint runs too. Steps that no edge reaches
//     are allowed: an agent's own plan may list a fallback it never takes.
//   - Update: all new statuses are set first, then each checked or skipped
//     step's success target and each failed step's failure target moves
//     from pending to in_progress. So the order of the lists never matters.
//   - Close: the lists are applied as in Update; an empty status is derived
//     by Outcome (see there for what "the path reached end" means).
//   - Position: the in-progress steps are where the plan is (Position). A
//     step recorded off it is kept, and OffPosition names it so the tools
//     can say so; "the path reached end" is said only when the walk from
//     the entry along the recorded outcomes (WalkOf) reaches it.
//   - Every refusal is an *Error with a Code, and leaves the input as it was.
package plan

import (
	"time"

	"github.com/skillc/skillc/graph"
)

// Status is a plan's state.
type Status string

const (
	StatusActive    Status = "active"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// StepStatus is a step's state.
type StepStatus string

const (
	StepPending    StepStatus = "pending"
	StepInProgress StepStatus = "in_progress"
	StepDone       StepStatus = "done"
	StepFailed     StepStatus = "failed"
	StepSkipped    StepStatus = "skipped"
)

// Plan is one session's plan. A session holds at most one: its latest.
type Plan struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Objective is one line on what the plan is for, shown under the title.
	Objective string `json:"objective,omitempty"`
	Status    Status `json:"status"`
	Entry     string `json:"entry"`
	// Skill names the workflow skill the plan was seeded from, if any.
	Skill string `json:"skill,omitempty"`
	Steps []Step `json:"steps"`
	// Rounds counts the rounds of each loop taken so far (FORMAT.md 6.5),
	// by edge: "4:failure" is step 4's failure edge. See startRound.
	Rounds map[string]int `json:"rounds,omitempty"`
	// Note is the closing note.
	Note      string    `json:"note,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// Version is set by the store: it grows by one on every write and is
	// what compare-and-swap compares.
	Version int64 `json:"version"`
}

// Step is one step of a plan: the graph's step shape, which make_plan
// takes and a compiled skill's template holds, plus where the step stands.
type Step struct {
	graph.Step
	Status StepStatus `json:"status" jsonschema:"pending, in_progress, done, failed or skipped"`
}

// Limits on what a plan may hold beyond the template's (graph.Limits,
// which Make checks): they bound what a store row can grow to.
const (
	MaxNoteLen      = 2000 // characters of the closing note
	MaxDetailLen    = 10000
	MaxObjectiveLen = 500 // characters of the objective, one line
)

// Step returns the step with the given ID, or nil.
func (p *Plan) Step(id string) *Step {
	for i := range p.Steps {
		if p.Steps[i].ID == id {
			return &p.Steps[i]
		}
	}
	return nil
}

// Clone returns a deep copy, so the operations can work on a new value and
// leave their input untouched when they refuse a call.
func (p *Plan) Clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	if p.Rounds != nil {
		c.Rounds = make(map[string]int, len(p.Rounds))
		for k, v := range p.Rounds {
			c.Rounds[k] = v
		}
	}
	c.Steps = make([]Step, len(p.Steps))
	for i, s := range p.Steps {
		s.RecommendedTools = append([]string(nil), s.RecommendedTools...)
		if s.RecommendedTools == nil {
			s.RecommendedTools = []string{}
		}
		c.Steps[i] = s
	}
	return &c
}

// Closed reports whether the plan no longer takes updates.
func (p *Plan) Closed() bool { return p.Status != StatusActive }

// Done counts the steps whose status is done.
func (p *Plan) Done() int {
	n := 0
	for _, s := range p.Steps {
		if s.Status == StepDone {
			n++
		}
	}
	return n
}
