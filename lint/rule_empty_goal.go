package lint

import "github.com/skillc/skillc/compiler"

// RuleEmptyGoal reports graph.Check's empty-goal problems at the
// step's goal.
var RuleEmptyGoal = &Rule{
	ID:       "empty-goal",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "a step has no goal text",
	Doc: `Each step's goal is what the agent is asked to do: the first paragraph of a
list item, or the heading title. An empty one gives the agent nothing.

Bad:
    1.
       - tools: search

Good:
    1. Search the thread.
       - tools: search`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      runEmptyGoal,
}

func runEmptyGoal(p *Pass) {
	for _, pr := range p.problems("empty-goal") {
		r := p.Skill.Steps[pr.Index].GoalRange
		if r.IsZero() {
			r = p.stepRange(pr.Index)
		}
		p.reportProblem(pr, r)
	}
}
