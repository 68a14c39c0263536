package lint

import "github.com/skillc/skillc/compiler"

// RuleDuplicateEdge passes on the compiler's duplicate-edge findings.
// Syntax: a step has one success and one failure edge, and with two
// written the compiler cannot tell which the author meant; it keeps the
// first and says so while it reads the step.
var RuleDuplicateEdge = &Rule{
	ID:       "duplicate-edge",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "a step has two success or two failure edges",
	Doc: `A step has exactly one success edge and one failure edge. Two bullets for the
same kind (yes: and on success:, or no: and else:) contradict each other.

Bad:
    1. Paid?
       - yes: end
       - on success: 2

Good:
    1. Paid?
       - yes: end
       - no: 2`,
	Run: forward("duplicate-edge"),
}
