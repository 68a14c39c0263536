package lint

import (
	"fmt"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// RuleInvalidFrontmatter reports a frontmatter the compiler could not read
// (its syntax findings: YAML errors, a field of the wrong type, a key
// given twice), and a compatibility over the specification's limit, which
// reads fine and so is this rule's own check.
var RuleInvalidFrontmatter = &Rule{
	ID:       "invalid-frontmatter",
	Severity: compiler.SeverityError,
	Source:   "spec",
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
	Run: runInvalidFrontmatter,
}

func runInvalidFrontmatter(p *Pass) {
	forward("invalid-frontmatter")(p)
	fm := specFields(p.Skill)
	if fm == nil {
		return
	}
	if n := utf8.RuneCountInString(fm.Compatibility.Value); n > maxCompatibilityLen {
		p.Report(compiler.Diagnostic{
			Summary: fmt.Sprintf("\"compatibility\" is %d characters; the limit is %d", n, maxCompatibilityLen),
			Range:   fm.Compatibility.Range,
		})
	}
}
