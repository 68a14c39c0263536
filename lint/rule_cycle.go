package lint

import "github.com/skillc/skillc/compiler"

// RuleCycle reports graph.Check's cycle problems at the step each is about.
var RuleCycle = &Rule{
	ID:       "cycle",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "steps form a loop",
	Doc: `A plan moves forward: update_plan marks a step done and starts the next one,
so a loop (2 -> 3 -> 2) can never finish. Send the retry to a new step, or to
fail.

Bad:
    2. Run the tests.
    3. Fix the failures.
       - on success: 2

Good:
    2. Run the tests.
    3. Fix the failures.
    4. Run the tests again.
       - on failure: fail`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      graphRule("cycle"),
}
