package lint

import "github.com/skillc/skillc/compiler"

// RuleUnknownTarget forwards the compiler's unknown-target diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleUnknownTarget = &Rule{
	ID:       "unknown-target",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "an edge points to a step that does not exist",
	Doc: `A target names a step number, a {#id}, end or fail. A target that names no step
would leave the plan stuck; the message suggests the nearest step ID.

Bad:
    1. Look up the refund.
       - on failure: 5      (there is no step 5)

Good:
    1. Look up the refund.
       - on failure: 3`,
	Run: forward("unknown-target"),
}
