package lint

import "github.com/skillc/skillc/compiler"

// RuleUnknownTarget reports an edge to no step. The compiler reports a
// written target that resolves to no step (how the text reads is its
// business); graph.Check's problem, an edge or entry of the template that
// names no step, is placed at the edge's target.
var RuleUnknownTarget = &Rule{
	ID:       "unknown-target",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "an edge points to a step that does not exist",
	Doc: `A target names a step number, a {#id}, end or fail. A target that names no step
would leave the plan stuck; the message suggests the nearest step ID.

Bad:
    1. Look up the refund.
       - on failure: 5      (there is no step 5)

Good:
    1. Look up the refund.
       - on failure: 3`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      runUnknownTarget,
}

func runUnknownTarget(p *Pass) {
	forward("unknown-target")(p)
	for _, pr := range p.problems("unknown-target") {
		r := p.stepRange(pr.Index)
		if pr.OnEdge {
			st := p.Skill.Steps[pr.Index]
			e := st.Success
			if pr.Edge == compiler.Failure {
				e = st.Failure
			}
			if !e.TargetRange.IsZero() {
				r = e.TargetRange
			}
		}
		p.reportProblem(pr, r)
	}
}
