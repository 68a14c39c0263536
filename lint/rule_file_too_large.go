package lint

import "github.com/skillc/skillc/compiler"

// RuleFileTooLarge passes on the compiler's file-too-large findings.
// Syntax: a file over the size limit, or nested too deep to parse at a
// bounded cost, is not read at all, so there is no text to check
// (Skill.Unread).
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
