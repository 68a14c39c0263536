package lint

import "github.com/skillc/skillc/compiler"

// RuleUnknownRule is reported by the lint driver itself; it is listed for
// its documentation.
var RuleUnknownRule = &Rule{
	ID:       "unknown-rule",
	Severity: compiler.SeverityError,
	Source:   "driver",
	Summary:  "a suppression comment names a rule that does not exist",
	Doc: `<!-- skillc-disable RULE --> and <!-- skillc-disable-file RULE --> take rule IDs
listed by "skillc rules" (or all). A misspelt ID would silently suppress nothing.

Bad:
    <!-- skillc-disable prose-branches -->

Good:
    <!-- skillc-disable prose-branch -->`,
	// Run is nil: the driver reports this rule itself.
	Run: nil,
}
