package lint

import "github.com/skillc/skillc/compiler"

// RuleUnknownBranchKey passes on the compiler's unknown-branch-key
// findings. Syntax: whether a bullet such as "many: 4" is an annotation or
// prose is decided while the compiler reads the step's bullets, and a
// bullet it cannot read as either is reported there.
var RuleUnknownBranchKey = &Rule{
	ID:       "unknown-branch-key",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "an annotation key is not a known edge key",
	Doc: `A bullet whose value is a target (a step or a terminal) but whose key is not an
edge key is almost certainly a branch written the wrong way. Name the edge with
a known key and put your word in the label.

Bad:
    - many: 4

Good:
    - no (many): 4`,
	Fix: "the key rewritten as the edge it reads as, the word kept as its label (`no (many): 4`), or a misspelt key corrected (`on faliure` to `on failure`). " +
		"Safe when the side is forced (the step's other edge is written) or the key is a typo no other key is as near to; unsafe when yes or no is the reading's guess.",
	Run: forward("unknown-branch-key"),
}
