package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidFrontmatter forwards the compiler's invalid-frontmatter diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleInvalidFrontmatter = &Rule{
	ID:       "invalid-frontmatter",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the YAML frontmatter cannot be read",
	Doc: `The frontmatter is the YAML block between --- lines at the very top. It
must be closed, be a mapping, use no aliases that expand without bound, and
give each field the right type: metadata is a map of string to string,
compatibility at most 500 characters.

Bad:
    ---
    name: refund-check
    metadata: [a, b]

Good:
    ---
    name: refund-check
    metadata:
      owner: payments
    ---`,
	Run: forward("invalid-frontmatter"),
}
