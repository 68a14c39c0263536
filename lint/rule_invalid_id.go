package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidId reports a step ID that is not valid: an {#id} the
// compiler did not take (Skill.RefusedIDs), and graph.Check's, for a template's step.
var RuleInvalidId = &Rule{
	ID:       "invalid-id",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "a step ID is not 1-64 characters of A-Za-z0-9_-",
	Doc: `A step ID, from {#id} or the step's number, is 1-64 characters of letters,
digits, _ and -, so it can be written in a target and passed to update_plan.

Bad:
    1. Look up the refund. {#look.up}

Good:
    1. Look up the refund. {#lookup}`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      runInvalidID,
}

func runInvalidID(p *Pass) {
	p.refusedIDs("invalid-id")
	graphRule("invalid-id")(p)
}
