package lint

import "github.com/skillc/skillc/compiler"

// RuleNoPathToEnd forwards the graph's no-path-to-end diagnostics, so they carry
// documentation and can be re-severitied or disabled.
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
	Run: forward("no-path-to-end"),
}
