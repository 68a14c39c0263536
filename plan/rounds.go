package plan

import (
	"fmt"

	"github.com/skillc/skillc/graph"
)

// Rounds of loops (FORMAT.md 6.5). A bounded edge that goes back to its own
// step or an earlier one of the same loop is taken by starting a round: the
// loop's steps from its target to its source return to pending, the target
// becomes in progress, and the plan counts the round in Plan.Rounds under
// the edge's key. Once the edge has been taken as often as its bound allows,
// it leads to its then target (default fail) instead.
//
// Counts are per edge and never reset, not even when an enclosing loop
// starts over: a bound says how often an edge may be taken in the whole
// run, which is what keeps every run finite.

// roundKey is the key of an edge in Plan.Rounds: the step's ID and the
// edge's kind, "4:failure". IDs hold no ':', so keys cannot collide.
func roundKey(id string, k graph.EdgeKind) string { return id + ":" + k.String() }

// takenKind is the edge a finished step takes: success when done or
// skipped, failure when failed.
func takenKind(s StepStatus) (graph.EdgeKind, bool) {
	switch s {
	case StepDone, StepSkipped:
		return graph.Success, true
	case StepFailed:
		return graph.Failure, true
	}
	return 0, false
}

// startRound is called by apply for each step whose new status takes an
// edge, with the edge's target next: it returns where the plan goes. For a
// bounded back edge with rounds left it counts the round and resets the
// loop's steps to pending; with none left it returns the then target. Any
// other edge is returned as it is.
func startRound(p *Plan, id, next string) string {
	s := p.Step(id)
	k, ok := takenKind(s.Status)
	if !ok || s.Bound(k) <= 0 || !p.loops(next, id) {
		return next
	}
	key := roundKey(id, k)
	if p.Rounds[key] >= s.Bound(k) {
		return s.Then(k)
	}
	if p.Rounds == nil {
		p.Rounds = map[string]int{}
	}
	p.Rounds[key]++
	for _, sid := range p.loopSteps(next, id) {
		p.Step(sid).Status = StepPending
	}
	return next
}

// taken is the edge a finished step took, as Outcome walks it: a bounded
// back edge whose rounds are used up led to its then target.
func (p *Plan) taken(s *Step) (string, bool) {
	k, ok := takenKind(s.Status)
	if !ok {
		return "", false
	}
	next := s.Next(k)
	if b := s.Bound(k); b > 0 && p.Rounds[roundKey(s.ID, k)] >= b && p.loops(next, s.ID) {
		return s.Then(k), true
	}
	return next, true
}

// loops reports whether an edge from source to target goes back: target
// is source, or source is reachable from target.
func (p *Plan) loops(target, source string) bool {
	if p.Step(target) == nil {
		return false
	}
	return p.reach(target)[source]
}

// reach is the set of steps reachable from id along the edges (the then
// targets included), id itself too.
func (p *Plan) reach(id string) map[string]bool {
	seen := map[string]bool{id: true}
	stack := []string{id}
	for len(stack) > 0 {
		s := p.Step(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if s == nil {
			continue
		}
		for _, k := range []graph.EdgeKind{graph.Success, graph.Failure} {
			for _, to := range []string{s.Next(k), thenOf(&s.Step, k)} {
				if to != "" && !seen[to] && p.Step(to) != nil {
					seen[to] = true
					stack = append(stack, to)
				}
			}
		}
	}
	return seen
}

// thenOf is a bounded edge's then target, "" for an edge with no bound.
func thenOf(s *graph.Step, k graph.EdgeKind) string {
	if s.Bound(k) <= 0 {
		return ""
	}
	return s.Then(k)
}

// loopSteps are the steps of the loop an edge from source back to target
// closes, in plan order: those on a path from target to source, both
// included.
func (p *Plan) loopSteps(target, source string) []string {
	from := p.reach(target)
	var out []string
	for i := range p.Steps {
		id := p.Steps[i].ID
		if from[id] && p.reach(id)[source] {
			out = append(out, id)
		}
	}
	return out
}

// roundNotes are what the checklist shows on the steps inside a loop that
// has gone round, by step ID: "round 2 of 3". A step in several such loops
// shows the innermost one's: the loop closed by the edge written last.
func (p *Plan) roundNotes() map[string]string {
	if len(p.Rounds) == 0 {
		return nil
	}
	notes := map[string]string{}
	for i := len(p.Steps) - 1; i >= 0; i-- {
		s := &p.Steps[i]
		for _, k := range []graph.EdgeKind{graph.Failure, graph.Success} {
			n := p.Rounds[roundKey(s.ID, k)]
			if n == 0 || s.Bound(k) <= 0 {
				continue
			}
			for _, sid := range p.loopSteps(s.Next(k), s.ID) {
				if _, ok := notes[sid]; !ok {
					notes[sid] = fmt.Sprintf("round %d of %d", n, s.Bound(k))
				}
			}
		}
	}
	return notes
}

// edgeTarget is where the step's edge of kind k leads now, as the
// checklist's "next:" line shows it: a loop's target with its rounds left
// ("2, round 2 of 3": the round taking it would start), its then target
// once they are used up.
func (p *Plan) edgeTarget(s *Step, k graph.EdgeKind) string {
	next, b := s.Next(k), s.Bound(k)
	if b <= 0 || !p.loops(next, s.ID) {
		return next
	}
	n := p.Rounds[roundKey(s.ID, k)]
	if n >= b {
		return s.Then(k) + " (the loop back to " + next + " is used up)"
	}
	return fmt.Sprintf("%s, round %d of %d", next, n+1, b)
}
