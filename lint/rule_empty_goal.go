package lint

import "github.com/skillc/skillc/compiler"

// RuleEmptyGoal forwards the compiler's empty-goal diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleEmptyGoal = &Rule{
	ID:       "empty-goal",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "a step has no goal text",
	Doc: `Each step's goal is what the agent is asked to do: the first paragraph of a
list item, or the heading title. An empty one gives the agent nothing.

Bad:
    1.
       - tools: search

Good:
    1. Search the thread.
       - tools: search`,
	Run: forward("empty-goal"),
}
