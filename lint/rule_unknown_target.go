package lint

import "github.com/skillc/skillc/compiler"

// RuleUnknownTarget reports an edge to no step: graph.Check's problem, an
// edge or entry of the template that names no step, placed at the edge's
// target; and, forwarded, the compiler's, for a bullet with no target and
// for a written target it cannot resolve. The compiler resolves targets
// as it reads a step's edges (a number, "step 4", #id, a terminal word,
// with the did-you-mean it caps per file) and keeps no unresolved edge
// in the IR, so that finding is still its own; moving it means recording
// the unresolved edges first.
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
