package lint

import "github.com/skillc/skillc/compiler"

// RuleCycle reports graph.Check's cycle problems at the step each is about:
// a loop nothing can leave (under --strict, every loop).
var RuleCycle = &Rule{
	ID:       "cycle",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "steps form a loop nothing can leave",
	Doc: `A loop is fine when it is bounded and has a way out: "on failure: 2 (at
most 3 times)" goes back to step 2 three times, then fails (FORMAT 6.5). A
loop is an error when nothing can leave it: every edge of its steps, and
every "then" target of its bounds, stays inside it, so once the bounds are
used up it still goes round. Under --strict (infer: false), as in FORMAT
version 1, every loop is an error: send the retry to a new step, or to fail.

Bad:
    2. Run the tests.
       - on failure: 3
    3. Fix the failures.
       - on success: 2 (at most 3 times, then 2)
       - on failure: 2

Good:
    2. Run the tests.
       - on failure: 3
    3. Fix the failures.
       - on success: 2 (at most 3 times)
       - on failure: fail`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      graphRule("cycle"),
}
