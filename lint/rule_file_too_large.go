package lint

import "github.com/skillc/skillc/compiler"

// RuleFileTooLarge forwards the compiler's file-too-large diagnostics, so they carry
// documentation and can be re-severitied or disabled.
var RuleFileTooLarge = &Rule{
	ID:       "file-too-large",
	Severity: compiler.SeverityError,
	Source:   "compiler",
	Summary:  "the file is over the size limit",
	Doc: `Files over the size limit (10 MiB by default) are not read: a skill is a
write-up for an agent's context window, and a file that large is almost
certainly not one.

Bad: a 40 MB log pasted into SKILL.md.

Good: keep the skill short and link to reference material.`,
	Run: forward("file-too-large"),
}
