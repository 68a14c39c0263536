package plan

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillc/skillc/graph"
)

// Changes are the step lists of update_plan and close_plan. The IDs may
// come in any order; each may be named once across all four lists.
type Changes struct {
	Check   []string `json:"check,omitempty" jsonschema:"IDs of steps recorded as succeeded"`
	Uncheck []string `json:"uncheck,omitempty" jsonschema:"IDs of steps reopened"`
	Fail    []string `json:"fail,omitempty" jsonschema:"IDs of steps recorded as failed"`
	Skip    []string `json:"skip,omitempty" jsonschema:"IDs of steps recorded as skipped"`
}

// Empty reports whether no step is named.
func (c Changes) Empty() bool {
	return len(c.Check)+len(c.Uncheck)+len(c.Fail)+len(c.Skip) == 0
}

// Update applies ch to a copy of p and returns it: check -> done, fail ->
// failed, skip -> skipped, uncheck -> pending; then each checked or skipped
// step's next_on_success, and each failed step's next_on_failure, becomes
// in_progress if it is pending. All or nothing: an unknown ID, an ID named
// twice, or a closed plan refuses the whole call, and p is never modified.
//
// The new statuses are all set before any step advances, so a call that
// checks 1 and 2 together leaves 2 done rather than moving it back to
// in_progress, whatever the order of the lists.
func Update(p *Plan, ch Changes, now time.Time) (*Plan, error) {
	if p == nil {
		return nil, NoPlanError()
	}
	if ch.Empty() {
		return nil, errorw(CodeInvalid, func(w Words) string {
			return fmt.Sprintf("nothing to update: name step IDs in %s, %s, %s or %s", w.Check, w.Uncheck, w.Fail, w.Skip)
		})
	}
	return apply(p, ch, now)
}

func apply(p *Plan, ch Changes, now time.Time) (*Plan, error) {
	if p.Closed() {
		return nil, errorw(CodeClosed, func(w Words) string {
			return fmt.Sprintf("the plan %q is already %s and takes no more changes: %s %s to start a new one", p.Title, p.Status, w.Call, w.Make)
		})
	}
	type change struct {
		id     string
		list   string
		status StepStatus
	}
	var all []change
	for _, l := range []struct {
		name   string
		ids    []string
		status StepStatus
	}{
		{"check", ch.Check, StepDone},
		{"uncheck", ch.Uncheck, StepPending},
		{"fail", ch.Fail, StepFailed},
		{"skip", ch.Skip, StepSkipped},
	} {
		for _, id := range l.ids {
			all = append(all, change{strings.TrimSpace(id), l.name, l.status})
		}
	}
	named := make(map[string]string, len(all))
	for _, c := range all {
		if p.Step(c.id) == nil {
			return nil, errorw(CodeUnknownStep, func(w Words) string {
				return fmt.Sprintf("%s names %q, which is not a step of this plan; valid IDs: %s", w.list(c.list), c.id, validIDs(p))
			})
		}
		if first, dup := named[c.id]; dup {
			if first == c.list {
				return nil, errorw(CodeDuplicate, func(w Words) string {
					return fmt.Sprintf("step %q is named twice in %s: name each step once per call", c.id, w.list(c.list))
				})
			}
			return nil, errorw(CodeDuplicate, func(w Words) string {
				return fmt.Sprintf("step %q is named in both %s and %s: name each step once per call", c.id, w.list(first), w.list(c.list))
			})
		}
		named[c.id] = c.list
	}

	out := p.Clone()
	for _, c := range all {
		out.Step(c.id).Status = c.status
	}
	for _, c := range all {
		var next string
		switch c.status {
		case StepDone, StepSkipped:
			next = out.Step(c.id).NextOnSuccess
		case StepFailed:
			next = out.Step(c.id).NextOnFailure
		default:
			continue
		}
		next = startRound(out, c.id, next)
		if s := out.Step(next); s != nil && s.Status == StepPending {
			s.Status = StepInProgress
		}
	}
	out.UpdatedAt = now
	return out, nil
}

// Close applies ch exactly as Update does, then closes the plan with note
// and status, in one value the caller writes once. An empty status is
// derived from the walk (see Outcome): completed if it reached end, failed
// if it reached fail, else cancelled.
func Close(p *Plan, note string, status Status, ch Changes, now time.Time) (*Plan, error) {
	if p == nil {
		return nil, NoPlanError()
	}
	note = strings.TrimSpace(note)
	if note == "" {
		return nil, errorw(CodeInvalid, func(w Words) string {
			return fmt.Sprintf("%s needs %s: one line for the user on how the task ended", w.Close, w.Note)
		})
	}
	if n := utf8.RuneCountInString(note); n > MaxNoteLen {
		return nil, errorf(CodeLimit, "the note is %d characters; at most %d are allowed", n, MaxNoteLen)
	}
	switch status {
	case "", StatusCompleted, StatusFailed, StatusCancelled:
	default:
		return nil, errorf(CodeInvalid, "status %q is not one a plan closes with: use completed, failed or cancelled, or leave it out to derive it from the path", status)
	}
	out, err := apply(p, ch, now)
	if err != nil {
		return nil, err
	}
	if status == "" {
		status = deriveStatus(out)
	}
	out.Status = status
	out.Note = note
	return out, nil
}

// Outcome is the status the path implies: StatusCompleted if the walk
// from the entry along the recorded outcomes (WalkOf) reached end,
// StatusFailed if it reached fail, StatusActive if it stopped at a step
// still to do. A step recorded off the walk does not count: checking the
// last step while the first is in progress reaches nothing.
func Outcome(p *Plan) Status {
	switch WalkOf(p).At {
	case graph.End:
		return StatusCompleted
	case graph.Fail:
		return StatusFailed
	}
	return StatusActive
}

// deriveStatus maps an Outcome to the status close_plan uses.
func deriveStatus(p *Plan) Status {
	if o := Outcome(p); o != StatusActive {
		return o
	}
	return StatusCancelled
}
