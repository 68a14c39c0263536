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
characters of letters, digits, _, . and -. In allowed-tools an entry may carry
a host's permission pattern in balanced parentheses, Bash(git:*) or
Read(./docs/**): the tool is the part before the parenthesis, and only it must
be a valid name (not under --strict, where allowed-tools is names separated by
spaces).

Bad:
    - tools: search/thread

Good:
    - tools: search_thread`,
	Run: forward("invalid-tool-name"),
}
