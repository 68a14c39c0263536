package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidId forwards the compiler's invalid-id diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleInvalidId = &Rule{
	ID:       "invalid-id",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "a step ID is not 1-64 characters of A-Za-z0-9_-",
	Doc: `A step ID, from {#id} or the step's number, is 1-64 characters of letters,
digits, _ and -, so it can be written in a target and passed to update_plan.

Bad:
    1. Look up the refund. {#look.up}

Good:
    1. Look up the refund. {#lookup}`,
	Run: forward("invalid-id"),
}
