package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidToolName forwards the compiler's invalid-tool-name diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleInvalidToolName = &Rule{
	ID:       "invalid-tool-name",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "a tool name is not 1-64 characters of A-Za-z0-9_.-",
	Doc: `Tool names are what MCP servers and function-calling APIs accept: 1-64
characters of letters, digits, _, . and -.

Bad:
    - tools: search/thread

Good:
    - tools: search_thread`,
	Run: forward("invalid-tool-name"),
}
