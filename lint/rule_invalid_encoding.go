package lint

import "github.com/skillc/skillc/compiler"

// RuleInvalidEncoding passes on the compiler's invalid-encoding findings.
// Syntax: bytes that are not UTF-8, or NUL, cannot be read as text.
var RuleInvalidEncoding = &Rule{
	ID:       "invalid-encoding",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the file is not valid UTF-8 or contains a NUL byte",
	Doc: `A skill is text: UTF-8 without NUL bytes. A file saved in another encoding
(Latin-1, UTF-16) or a binary file named .md cannot be read reliably, so
positions and goals would be garbage.

Bad: a SKILL.md saved as UTF-16 by an editor.

Good: save the file as UTF-8 (a BOM is accepted and ignored).`,
	Run: forward("invalid-encoding"),
}
