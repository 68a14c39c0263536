package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidDescription forwards the compiler's invalid-description diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleInvalidDescription = &Rule{
	ID:       "invalid-description",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the description is over 1024 characters",
	Doc: `A description is 1-1024 characters: it is loaded into every conversation, so it
must stay short. Move the detail into the body.

Bad: a description that pastes the whole procedure.

Good:
    description: Check whether a refund was paid. Use when the user asks about a refund.`,
	Run: forward("invalid-description"),
}
