package lint

import (
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// RuleUnboundedLoop reports graph.Check's unbounded-loop problems: a back
// edge with no bound, which takes the default (FORMAT 6.5). With cycle, it
// is how lint proves every loop has a bound and an exit.
var RuleUnboundedLoop = &Rule{
	ID:       "unbounded-loop",
	Severity: compiler.SeverityWarning,
	Source:   "graph",
	Summary:  "a loop has no bound, so it takes the default number of rounds",
	Doc: `An edge may go back to an earlier step or to its own step: a retry, or "go
back to step 2". At run time each time it is taken starts a round, and a loop
must end, so the edge may be taken only so many times; after that it leads to
fail, or to the step written after "then". When no bound is written the loop
takes the default, limits.loop-rounds in .skillc.yaml (3). Write the bound
the procedure means, so the agent and the reader know when to give up.

Bad:
    2. Run the tests.
    3. Fix the failures.
       - on failure: 2

Good:
    2. Run the tests.
    3. Fix the failures.
       - on failure: 2 (at most 3 times, then 4)
    4. Ask for help.`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      runUnboundedLoop,
}

// runUnboundedLoop reports each unbounded back edge where it was written
// (its annotation bullet, or the sentence of prose it was read from), so
// the bound goes right there; an edge the author did not write is placed
// at its step.
func runUnboundedLoop(p *Pass) {
	for _, pr := range p.problems(graph.CodeUnboundedLoop) {
		r := p.stepRange(pr.Index)
		if pr.OnEdge && pr.Index >= 0 && pr.Index < len(p.Skill.Steps) {
			st := p.Skill.Steps[pr.Index]
			e := st.Success
			if pr.Edge == graph.Failure {
				e = st.Failure
			}
			if !e.Range.IsZero() {
				r = e.Range
			}
		}
		p.reportProblem(pr, r)
	}
}
