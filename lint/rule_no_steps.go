package lint

import "github.com/skillc/skillc/compiler"

// RuleNoSteps forwards the compiler's no-steps diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleNoSteps = &Rule{
	ID:       "no-steps",
	Severity: compiler.SeverityWarning,
	Source:   "compiler",
	Summary:  "no numbered steps were found",
	Doc: `skillc looks for the items of the first ordered list after a heading Steps,
Workflow, Procedure or Process (else the first top-level ordered list), or for
"Step N: Title" headings. Without steps there is no graph and no plan template.
It is a warning because many skills are instruction-style on purpose.

Bad:
    # Refund check
    Look up the refund, then answer.

Good:
    # Refund check
    1. Look up the refund.
    2. Answer the user.`,
	Run: forward("no-steps"),
}
