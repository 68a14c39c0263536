package lint

import "github.com/skillc/skillc/compiler"

// RuleNameMismatch forwards the compiler's name-mismatch diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleNameMismatch = &Rule{
	ID:       "name-mismatch",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the name differs from the skill's folder",
	Doc: `A SKILL.md lives in a folder named after the skill (skills/refund-check/SKILL.md);
the frontmatter name must equal that folder's name, or loaders find it under
one name and agents call it by another. Both are compared after NFKC
normalisation (not under --strict), so a name typed with a combining accent
matches a folder named with the precomposed letter.

Bad: skills/refund/SKILL.md with
    name: refund-check

Good: skills/refund-check/SKILL.md with
    name: refund-check`,
	Run: forward("name-mismatch"),
}
