package plan

import (
	"fmt"
	"strings"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/termsafe"
)

// Walk is the path the plan has taken: from the entry, along the edge each
// finished step recorded (done or skipped: its success edge; failed: its
// failure edge), until a step that is not finished or a terminal.
//
// It is what "the path reached end" means, in update_plan's guidance and in
// close_plan's derived status alike: a step recorded off the walk (any order
// is allowed, and kept) moves no terminal into reach.
type Walk struct {
	// Steps are the finished steps the walk passed, in order.
	Steps []string
	// At is where it stopped: an unfinished step's ID, graph.End,
	// graph.Fail, or "" when an edge names no step (a corrupt plan).
	At string
}

// WalkOf walks p from its entry.
func WalkOf(p *Plan) Walk {
	var w Walk
	cur := p.Entry
	// A finished step inside a loop with rounds left has been reset to
	// pending, so the walk goes round no loop; the bound keeps a corrupt
	// plan finite.
	for range len(p.Steps) + 1 {
		if graph.IsTerminal(cur) {
			w.At = cur
			return w
		}
		s := p.Step(cur)
		if s == nil {
			return w
		}
		next, ok := p.taken(s)
		if !ok {
			w.At = cur
			return w
		}
		w.Steps = append(w.Steps, cur)
		cur = next
	}
	return w
}

// Passes reports whether the walk went through the step id.
func (w Walk) Passes(id string) bool {
	for _, s := range w.Steps {
		if s == id {
			return true
		}
	}
	return false
}

// Position is where the plan is: the IDs of its in-progress steps, in
// plan order.
func Position(p *Plan) []string {
	var ids []string
	for _, s := range p.Steps {
		if s.Status == StepInProgress {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// OffPosition returns the steps ch records an outcome for (check, fail,
// skip) that were off the position: not in progress before the call, and
// not on the walk after it. Checking 1 and 2 together while 1 is in
// progress is on the position (the walk goes 1, 2); checking 4 then is not.
// The outcome is kept either way; the caller says so.
func OffPosition(before, after *Plan, ch Changes) []string {
	walk := WalkOf(after)
	var off []string
	for _, list := range [][]string{ch.Check, ch.Fail, ch.Skip} {
		for _, id := range list {
			id = strings.TrimSpace(id)
			if s := before.Step(id); s != nil && s.Status == StepInProgress {
				continue
			}
			if !walk.Passes(id) {
				off = append(off, id)
			}
		}
	}
	return off
}

// OffPositionNotice is the line a tool answers with when it recorded steps
// off the position: that they were kept, and where the plan is.
//
//	step 4 was off the position and is kept as recorded; the position is 1 (Already credited in this thread?)
func OffPositionNotice(off []string, after *Plan) string {
	if len(off) == 0 {
		return ""
	}
	var b strings.Builder
	if len(off) == 1 {
		fmt.Fprintf(&b, "step %s was off the position and is kept as recorded", off[0])
	} else {
		fmt.Fprintf(&b, "steps %s were off the position and are kept as recorded", strings.Join(off, ", "))
	}
	pos := Position(after)
	switch {
	case len(pos) == 0:
		b.WriteString("; no step is in progress")
	default:
		parts := make([]string, len(pos))
		for i, id := range pos {
			parts[i] = fmt.Sprintf("%s (%s)", id, after.Step(id).Goal)
		}
		if after.Closed() {
			b.WriteString("; the plan was at " + strings.Join(parts, ", "))
		} else {
			b.WriteString("; the position is " + strings.Join(parts, ", "))
		}
	}
	return termsafe.Escape(b.String())
}
