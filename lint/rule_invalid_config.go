package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidConfig is reported by the lint driver itself; it is listed for
// its documentation.
var RuleInvalidConfig = &Rule{
	ID:       "invalid-config",
	Severity: compiler.SeverityError,
	Source:   "driver",
	Summary:  "the .skillc.yaml config has an unknown key or a bad value",
	Doc: `The config is checked like a skill: an unknown key, an unknown rule, a bad
severity or limit, or a tool registry file that cannot be read is reported with
its file:line:col, and the run stops with status 2. It cannot be disabled.

Bad:
    rules:
      prose-branches: of

Good:
    rules:
      prose-branch: off`,
	// Run is nil: the driver reports this rule itself.
	Run: nil,
}
