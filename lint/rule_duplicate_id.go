package lint

import "github.com/skillc/skillc/compiler"

// RuleDuplicateId reports graph.Check's duplicate-id problems at the step each is about.
var RuleDuplicateId = &Rule{
	ID:       "duplicate-id",
	Severity: compiler.SeverityError,
	Source:   "graph",
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
	Requires: []*Analysis{GraphAnalysis},
	Run:      graphRule("duplicate-id"),
}
