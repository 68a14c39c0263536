package lint

import "github.com/skillc/skillc/compiler"

// RuleMissingDescription forwards the compiler's missing-description diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleMissingDescription = &Rule{
	ID:       "missing-description",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the frontmatter has no description",
	Doc: `The description is what an agent reads to decide whether to use the skill;
the Agent Skills specification requires it.

Bad:
    ---
    name: refund-check
    ---

Good:
    ---
    name: refund-check
    description: Check whether a refund was paid. Use when the user asks about a refund.
    ---`,
	Run: forward("missing-description"),
}
