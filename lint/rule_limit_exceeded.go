package lint

import (
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// RuleLimitExceeded reports graph.Check's limit problems: a skill larger
// than make_plan accepts. goal-too-long and too-many-tools warn well below
// these limits; this rule is the hard line, an error in lint because
// make_plan refuses such a template.
var RuleLimitExceeded = &Rule{
	ID:       "limit-exceeded",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "the skill exceeds a limit of what make_plan accepts (100 steps, 500-character goals, 16 tools per step, 200-character title)",
	Doc: `A compiled skill seeds an agent's plan unchanged, so it is held to the plan's
limits: at most 100 steps, a goal of at most 500 characters, at most 16
recommended tools per step, a title of at most 200 characters. make_plan
refuses a template beyond them, so lint reports them as errors. A config may
lower them (limits.plan-max-steps, plan-max-goal-length, plan-max-tools,
plan-max-title-length), never raise them.

Bad:
    1. Look up the customer's ACAT transfers in the brokerage system, compare each ... (600 characters)

Good:
    1. Look up the customer's ACAT transfers.

       Compare each with the statement ... (the rest as the step's detail)`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      runLimitExceeded,
}

func runLimitExceeded(p *Pass) {
	res := p.ResultOf(GraphAnalysis).(*GraphResult)
	for _, pr := range p.problems(graph.CodeLimit) {
		var r compiler.Range
		switch pr.Limit {
		case graph.LimitTitle:
			r = p.Skill.TitleRange
		case graph.LimitSteps:
			// The first step past the limit: where to cut.
			r = p.stepRange(res.Limits.MaxSteps)
		case graph.LimitGoal:
			r = p.Skill.Steps[pr.Index].GoalRange
		case graph.LimitTools:
			tools := p.Skill.Steps[pr.Index].Tools
			if n := res.Limits.MaxTools; n < len(tools) {
				r = tools[n].Range
				if last := tools[len(tools)-1].Range; last.Start.Line == r.Start.Line {
					r.End = last.End
				}
			}
		}
		if r.IsZero() {
			r = p.stepRange(pr.Index)
		}
		p.reportProblem(pr, r)
	}
}
