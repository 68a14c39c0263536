package graph

import (
	"fmt"
	"strings"
)

// A loop (FORMAT.md 6.5) is a strongly connected set of steps. Every loop
// has at least one back edge: an edge to its own step or to an earlier one
// in written order inside the loop, since a path that only moves forward
// never returns. Bounding each back edge therefore bounds every loop: a
// run can take each of them only so often, then leaves by its then
// target. That is what checkLoops proves and the runtime counts.

// edgeTarget is one target a step names: an edge, or where a bounded edge
// leads after its bound.
type edgeTarget struct {
	kind  EdgeKind
	to    string
	field string // the template field, for messages
}

// stepTargets are the targets step i names as written, edges first, in
// buf.
func stepTargets(s Steps, i int, buf *[4]edgeTarget) []edgeTarget {
	out := append(buf[:0],
		edgeTarget{Success, s.Next(i, Success), Success.Field()},
		edgeTarget{Failure, s.Next(i, Failure), Failure.Field()},
	)
	if then := s.Then(i, Success); then != "" {
		out = append(out, edgeTarget{Success, then, "success_then"})
	}
	if then := s.Then(i, Failure); then != "" {
		out = append(out, edgeTarget{Failure, then, "failure_then"})
	}
	return out
}

// BoundField is the template field of the bound of an edge of this kind.
func (k EdgeKind) BoundField() string {
	if k == Failure {
		return "failure_bound"
	}
	return "success_bound"
}

// ThenField is the template field of an edge's then target.
func (k EdgeKind) ThenField() string {
	if k == Failure {
		return "failure_then"
	}
	return "success_then"
}

// BackEdges are the edges that go back inside a loop, in source order: the
// edges a run's rounds are counted on.
func (g *Graph) BackEdges() []Edge {
	var out []Edge
	for _, e := range g.backEdges() {
		out = append(out, g.spell(e))
	}
	return out
}

// backEdges are the edges from a step to itself or to an earlier step of
// the same loop.
func (g *Graph) backEdges() []edge {
	if len(g.sccs) == 0 {
		return nil
	}
	comp := make(map[int32]int, 8)
	for c, members := range g.sccs {
		for _, v := range members {
			comp[v] = c
		}
	}
	var out []edge
	for _, e := range g.edges {
		cf, ok1 := comp[e.from]
		ct, ok2 := comp[e.to]
		if ok1 && ok2 && cf == ct && e.to <= e.from {
			out = append(out, e)
		}
	}
	return out
}

// BoundLoops gives each back edge that has no bound the default one
// (FORMAT.md 6.5: limits.loop-rounds), in place, and returns how many it
// bounded. plan.Make calls it for a compiled skill, whose author was told
// by lint (unbounded-loop) which default the loop takes.
func BoundLoops(t *Template, rounds int) int {
	if rounds <= 0 {
		rounds = DefaultLimits().LoopRounds
	}
	g, err := New(t)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range g.backEdges() {
		st := &t.Steps[e.from]
		switch {
		case e.kind == Success && st.SuccessBound <= 0:
			st.SuccessBound = rounds
		case e.kind == Failure && st.FailureBound <= 0:
			st.FailureBound = rounds
		default:
			continue
		}
		n++
	}
	return n
}

// checkLoops is FORMAT v2's view of loops: a back edge without a bound is
// unbounded-loop (it takes the default bound), and a loop is a cycle only
// when nothing can leave it, or when a then target leads back into it, so
// that the bound would be used up and the loop go on anyway.
func (g *Graph) checkLoops() []Problem {
	var ps []Problem
	back := g.backEdges()
	var parent []int32
	for _, comp := range g.sccs {
		in := make(map[int32]bool, len(comp))
		for _, v := range comp {
			in[v] = true
		}
		exit, defaulted := false, false
		for _, v := range comp {
			for _, w := range g.out(v) {
				exit = exit || !in[w]
			}
		}
		for _, e := range back {
			if !in[e.from] {
				continue
			}
			if g.steps.Bound(int(e.from), e.kind) > 0 {
				continue
			}
			defaulted = true // it takes the default bound, then fail
			from, to := g.nodes[e.from], g.nodes[e.to]
			ps = append(ps, Problem{
				Code: CodeUnboundedLoop, Step: from, Index: int(e.from), Edge: e.kind, OnEdge: true,
				Message: fmt.Sprintf("step %s %s goes back to %s with no bound: the loop is taken at most %d times, then the plan fails",
					from, edgeName(g.spell(e)), backTo(from, to), g.loopRounds),
				Detail: fmt.Sprintf("write how often it may go round (FORMAT 6.5); in a template or make_plan's steps, set %s (and %s for where to go after)",
					e.kind.BoundField(), e.kind.ThenField()),
				Suggestion: fmt.Sprintf("%s: %s (at most %d times)", annotationKey(e.kind), retryWord(from, to), g.loopRounds),
			})
		}
		if parent == nil {
			parent = g.loopScratch()
		}
		loop, ids := g.loopIDs(comp, parent)
		first := g.nodes[loop[0]]
		if !exit && !defaulted {
			ps = append(ps, Problem{
				Code: CodeCycle, Step: first, Index: int(loop[0]),
				Message:    fmt.Sprintf("steps %s form a loop nothing can leave: every edge of its steps, and where each bound leads, stays inside it", strings.Join(ids, " -> ")),
				Detail:     "the loop: " + g.describePath(loop),
				Suggestion: "send an edge, or a bound's then target, to a step after the loop, to end or to fail",
			})
			continue
		}
		// A then target that goes back into the loop restarts it with no
		// bound left to count: the loop could go round for ever.
		for _, e := range g.thens {
			if in[e.from] && in[e.to] && e.to <= e.from {
				from := g.nodes[e.from]
				ps = append(ps, Problem{
					Code: CodeCycle, Step: from, Index: int(e.from), Edge: e.kind, OnEdge: true,
					Message: fmt.Sprintf("step %s: once its %s bound is used up, %s %q leads back into the loop %s, which could then go round for ever",
						from, e.kind, e.kind.ThenField(), thenOf(g.steps, int(e.from), e.kind), strings.Join(ids, " -> ")),
					Suggestion: "send the then target to a step after the loop, to end or to fail",
				})
			}
		}
	}
	return ps
}

// backTo names the target of a back edge: "itself" or the step.
func backTo(from, to string) string {
	if from == to {
		return "itself"
	}
	return "step " + to
}

// retryWord is how an annotation writes a back edge's target: "retry" for
// the step itself.
func retryWord(from, to string) string {
	if from == to {
		return "retry"
	}
	return to
}

func annotationKey(k EdgeKind) string {
	if k == Failure {
		return "on failure"
	}
	return "on success"
}
