package plan

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillc/skillc/graph"
)

// Changes are the step lists of update_plan and close_plan. The IDs may
// come in any order; each may be named once across all four lists.
type Changes struct {
	Check   []string `json:"check,omitempty"`
	Uncheck []string `json:"uncheck,omitempty"`
	Fail    []string `json:"fail,omitempty"`
	Skip    []string `json:"skip,omitempty"`
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
		return nil, errorf(CodeNoPlan, "there is no plan in this session: call make_plan to start one")
	}
	if ch.Empty() {
		return nil, errorf(CodeInvalid, "nothing to update: name step IDs in check, uncheck, fail or skip")
	}
	return apply(p, ch, now)
}

func apply(p *Plan, ch Changes, now time.Time) (*Plan, error) {
	if p.Closed() {
		return nil, errorf(CodeClosed, "the plan %q is already %s and takes no more changes: call make_plan to start a new one", p.Title, p.Status)
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
			return nil, errorf(CodeUnknownStep, "%s names %q, which is not a step of this plan; valid IDs: %s", c.list, c.id, validIDs(p))
		}
		if first, dup := named[c.id]; dup {
			if first == c.list {
				return nil, errorf(CodeDuplicate, "step %q is named twice in %s: name each step once per call", c.id, c.list)
			}
			return nil, errorf(CodeDuplicate, "step %q is named in both %s and %s: name each step once per call", c.id, first, c.list)
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
// derived from the path (see Outcome): completed if it reached end, failed
// if it reached fail, else cancelled.
func Close(p *Plan, note string, status Status, ch Changes, now time.Time) (*Plan, error) {
	if p == nil {
		return nil, errorf(CodeNoPlan, "there is no plan in this session: call make_plan to start one")
	}
	note = strings.TrimSpace(note)
	if note == "" {
		return nil, errorf(CodeInvalid, "close_plan needs a note: one line for the user on how the task ended")
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

// Outcome is the status the path implies: StatusCompleted if it reached
// end, StatusFailed if it reached fail, StatusActive if it reached neither.
//
// "The path" is decided in two steps. First, walk from the entry following
// what each step recorded (done or skipped: its success edge; failed: its
// failure edge); if the walk reaches a terminal, that is the answer. An
// agent may not record every step on the way, so when the walk stops at an
// unfinished step, look at every finished step whose recorded edge is a
// terminal: if they all reached end it is completed, if they all reached
// fail it is failed; none, or both kinds, is no outcome.
func Outcome(p *Plan) Status {
	steps := make(map[string]*Step, len(p.Steps))
	for i := range p.Steps {
		steps[p.Steps[i].ID] = &p.Steps[i]
	}
	cur := p.Entry
	// A finished step inside a loop with rounds left has been reset to
	// pending, so the walk goes round no loop; the bound keeps a corrupt
	// plan finite.
	for range len(p.Steps) + 1 {
		if cur == graph.End {
			return StatusCompleted
		}
		if cur == graph.Fail {
			return StatusFailed
		}
		s := steps[cur]
		if s == nil {
			break
		}
		next, ok := p.taken(s)
		if !ok {
			break
		}
		cur = next
	}
	end, fail := false, false
	for i := range p.Steps {
		next, ok := p.taken(&p.Steps[i])
		end = end || ok && next == graph.End
		fail = fail || ok && next == graph.Fail
	}
	switch {
	case end && !fail:
		return StatusCompleted
	case fail && !end:
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
