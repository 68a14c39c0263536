package lint

import "github.com/skillc/skillc/compiler"

// RuleUnreachableStep forwards the graph's unreachable-step diagnostics, so they carry
// documentation and can be re-severitied or disabled.
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
	Run: forward("unreachable-step"),
}
