package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// RuleMissingName reports a frontmatter without a name, or with an empty
// one.
var RuleMissingName = &Rule{
	ID:       "missing-name",
	Severity: compiler.SeverityError,
	Source:   "spec",
	Summary:  "the frontmatter has no name",
	Doc: `The Agent Skills specification requires a name in the frontmatter: it is how
agents and the plan server refer to the skill.

Bad:
    ---
    description: Check a refund. Use when the user asks about a refund.
    ---

Good:
    ---
    name: refund-check
    description: Check a refund. Use when the user asks about a refund.
    ---`,
	Fix: "the name line written first in the frontmatter: safe for a SKILL.md (its folder's name is the only valid one), unsafe elsewhere (the file's name, made a valid name, is a guess).",
	Run: runMissingName,
}

func runMissingName(p *Pass) {
	fm := specFields(p.Skill)
	if fm == nil || fm.Name.Invalid {
		return // a name that is not a string is invalid-frontmatter's
	}
	if fm.Name.Set && fm.Name.Value != "" {
		return
	}
	// Without a name in the frontmatter, the skill's name is its path's
	// (the folder of a SKILL.md): the name to suggest, worked out only
	// for a finding (it was most of the rule's cost on skills with names).
	fix := suggestName(p.Skill.Name, "")
	switch {
	case !fm.Name.Set:
		d := compiler.Diagnostic{
			Summary:    "frontmatter has no \"name\"",
			Detail:     "every skill needs a name: 1-64 characters of a-z, 0-9 and -",
			Range:      opening(fm),
			Suggestion: fix,
		}
		d.Fixes = p.nameLineFix(fm, fix)
		p.Report(d)
	case fm.Name.Value == "":
		p.Report(compiler.Diagnostic{Summary: "\"name\" is empty", Range: fm.Name.Range, Suggestion: fix})
	}
}

// nameLineFix is the fix that writes "name: NAME" as the frontmatter's
// first line, after its opening ---. Safe for a SKILL.md, whose only valid
// name is its folder's; elsewhere the file's name is a guess.
func (p *Pass) nameLineFix(fm *compiler.Frontmatter, name string) []compiler.Fix {
	src := p.Skill.Source
	open := fm.Range.Start.Byte
	if name == "" || fm.Range.IsZero() || open < 0 || open+3 > len(src) || string(src[open:open+3]) != "---" {
		return nil
	}
	at := open + 3
	for at < len(src) && (src[at] == ' ' || src[at] == '\t' || src[at] == '\r') {
		at++
	}
	if at >= len(src) || src[at] != '\n' {
		return nil
	}
	at++
	nl := "\n"
	if at >= 2 && src[at-2] == '\r' {
		nl = "\r\n"
	}
	safe := compiler.SkillFolder(p.Skill.Filename) == name
	return []compiler.Fix{{
		Title: fmt.Sprintf("add the name %q", name),
		Safe:  safe,
		Edits: []compiler.Edit{{Range: p.RangeOf(at, at), NewText: "name: " + name + nl}},
	}}
}
