package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidName forwards the compiler's invalid-name diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleInvalidName = &Rule{
	ID:       "invalid-name",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the name is not 1-64 lowercase letters, digits and -",
	Doc: `A skill name is 1-64 characters of lowercase letters, digits and -, with no
leading or trailing - and no --, as the reference validator (skills-ref) reads
it: after NFKC normalisation, letters of any script count, so 技能-审查 and
мой-навык are names, and Refund_Check or НАВЫК are not. Under --strict
(FORMAT v1) only a-z, 0-9 and - count. Other names are rejected by Agent
Skills loaders.

Bad:
    name: Refund_Check

Good:
    name: refund-check`,
	Run: forward("invalid-name"),
}
