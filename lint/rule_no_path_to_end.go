package lint

import "github.com/skillc/skillc/compiler"

// RuleNoPathToEnd reports graph.Check's no-path-to-end problems at the step each is about.
var RuleNoPathToEnd = &Rule{
	ID:       "no-path-to-end",
	Severity: compiler.SeverityWarning,
	Source:   "graph",
	Summary:  "the step can never reach end",
	Doc: `From this step every path leads to fail: once the agent is here the plan cannot
complete. That can be deliberate (an escalation step), so it is a warning.

Bad:
    3. Give up.
       - on success: fail

Good:
    3. Hand over to a person.
       - on success: end`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      graphRule("no-path-to-end"),
}
