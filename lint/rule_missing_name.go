package lint

import "github.com/skillc/skillc/compiler"

// RuleMissingName forwards the compiler's missing-name diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleMissingName = &Rule{
	ID:       "missing-name",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the frontmatter has no name",
	Doc: `The Agent Skills specification requires a name in the frontmatter: it is how
agents and the plan server refer to the skill.

Bad:
    ---
    description: Check a refund. Use when the user asks about a refund.
    ---

Good:
    ---
    name: refund-check
    description: Check a refund. Use when the user asks about a refund.
    ---`,
	Run: forward("missing-name"),
}
