package lint

import "github.com/skillc/skillc/compiler"

// RuleEntryCannotEnd reports graph.Check's entry-cannot-end problems at the step each is about.
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
	Requires: []*Analysis{GraphAnalysis},
	Run:      graphRule("entry-cannot-end"),
}
