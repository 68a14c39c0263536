package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidName forwards the compiler's invalid-name diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleInvalidName = &Rule{
	ID:       "invalid-name",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the name is not 1-64 characters of a-z, 0-9 and -",
	Doc: `A skill name is 1-64 characters of lowercase a-z, 0-9 and -, with no leading
or trailing - and no --. Other names are rejected by Agent Skills loaders.

Bad:
    name: Refund_Check

Good:
    name: refund-check`,
	Run: forward("invalid-name"),
}
