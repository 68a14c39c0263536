package lint

import "github.com/skillc/skillc/compiler"

// RuleUnreachableStep reports graph.Check's unreachable-step problems at the step each is about.
var RuleUnreachableStep = &Rule{
	ID:       "unreachable-step",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "no path from the entry reaches the step",
	Doc: `Every step should be reachable from the first one by success and failure
edges; a step nothing leads to is dead text the agent never runs.

Bad:
    1. Check the refund.
       - yes: end
       - no: end
    2. Escalate.          (nothing goes to 2)

Good:
    1. Check the refund.
       - yes: end
       - no: 2
    2. Escalate.`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      graphRule("unreachable-step"),
}
