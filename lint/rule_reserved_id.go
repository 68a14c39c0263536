package lint

import "github.com/skillc/skillc/compiler"

// RuleReservedId forwards the compiler's reserved-id diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleReservedId = &Rule{
	ID:       "reserved-id",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "a step ID is end or fail",
	Doc: `end and fail are the two terminals of every graph, in any case; a step cannot
take either name.

Bad:
    3. Wrap up. {#end}

Good:
    3. Wrap up. {#wrap-up}`,
	Run: forward("reserved-id"),
}
