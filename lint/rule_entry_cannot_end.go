package lint

import "github.com/skillc/skillc/compiler"

// RuleEntryCannotEnd forwards the graph's entry-cannot-end diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleEntryCannotEnd = &Rule{
	ID:       "entry-cannot-end",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "no path from the first step reaches end",
	Doc: `If the entry step cannot reach end, no run of the plan can ever complete.

Bad:
    1. Try.
       - on success: fail

Good:
    1. Try.
       - on success: end`,
	Run: forward("entry-cannot-end"),
}
