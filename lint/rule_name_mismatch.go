package lint

import (
	"fmt"

	"golang.org/x/text/unicode/norm"

	"github.com/skillc/skillc/compiler"
)

// RuleNameMismatch reports a SKILL.md whose valid name is not its
// folder's.
var RuleNameMismatch = &Rule{
	ID:       "name-mismatch",
	Severity: compiler.SeverityError,
	Source:   "spec",
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
	Fix:      "unsafe: the folder's name written as the name, when it is a valid one; renaming the folder is the other fix, and which name the skill goes by is the author's to say.",
	Requires: []*Analysis{NameAnalysis},
	Run:      runNameMismatch,
}

func runNameMismatch(p *Pass) {
	res := p.ResultOf(NameAnalysis).(*NameResult)
	if res == nil || res.Problem != "" {
		return // an invalid name is invalid-name's, whatever its folder
	}
	written := compiler.SkillFolder(p.Skill.Filename)
	folder := written
	if !p.Skill.Frontmatter.Strict {
		folder = norm.NFKC.String(folder)
	}
	if folder == "" || folder == res.Name {
		return
	}
	d := compiler.Diagnostic{
		Summary: fmt.Sprintf("name %q does not match its folder %q", res.Field.Value, written),
		Detail:  "a SKILL.md is found by its folder's name; rename the folder or change the name",
		Range:   res.Field.Range,
	}
	// Unsafe: renaming the folder is the other fix, and which name the
	// skill should go by is the author's to say.
	if fix, ok := p.nameFix(res, folder, false); ok && p.fixWorks(d, fix) {
		// Both ways, so the line cannot read as a rule's name when the
		// folder has one ("name: name-mismatch").
		d.Suggestion = fmt.Sprintf("name: %s, or rename the folder to %q", folder, res.Name)
		d.Fixes = []compiler.Fix{fix}
	}
	p.Report(d)
}

// nameFix is the fix that writes name as the frontmatter's name value, or
// false when name is no valid name (under --strict, a-z, 0-9 and - only)
// or the value's place in the source is not known.
func (p *Pass) nameFix(res *NameResult, name string, safe bool) (compiler.Fix, bool) {
	if !validName(name) || p.Skill.Frontmatter.Strict && name != suggestName(name, "") {
		return compiler.Fix{}, false
	}
	src, r := p.Skill.Source, res.Field.Range
	if r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return compiler.Fix{}, false
	}
	fix := compiler.Fix{Title: fmt.Sprintf("write the name %q", name), Safe: safe}
	// A skill built without its text (an IR) has no span to replace:
	// the name is still the suggestion, and the fix has no edit to offer.
	if r.Start.Byte < r.End.Byte {
		fix.Edits = []compiler.Edit{{Range: r, NewText: name}}
	}
	return fix, true
}
