package lint

import "github.com/skillc/skillc/compiler"

// RuleDuplicateId forwards the compiler's duplicate-id diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleDuplicateId = &Rule{
	ID:       "duplicate-id",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "two steps have the same ID",
	Doc: `Step IDs are unique in a skill, or a target could not tell which step it
means. They repeat when two {#id} overrides clash or a heading number is
written twice.

Bad:
    ## Step 2: Look up
    ## Step 2: Answer

Good:
    ## Step 2: Look up
    ## Step 3: Answer`,
	Run: forward("duplicate-id"),
}
