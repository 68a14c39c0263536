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
	p.Report(compiler.Diagnostic{
		Summary:    fmt.Sprintf("name %q does not match its folder %q", res.Field.Value, written),
		Detail:     "a SKILL.md is found by its folder's name; rename the folder or change the name",
		Range:      res.Field.Range,
		Suggestion: p.nameFix(res, folder),
	})
}

// nameFix is the frontmatter line that gives the skill its folder's name,
// written as the line reads fixed ("name: refund-check"), or "" when the
// folder is no valid name or the fixed text would have a new error: then
// renaming the folder is the fix.
func (p *Pass) nameFix(res *NameResult, folder string) string {
	if !validName(folder) || p.Skill.Frontmatter.Strict && folder != suggestName(folder, "") {
		return ""
	}
	src, r := p.Skill.Source, res.Field.Range
	if r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return ""
	}
	fixed := make([]byte, 0, len(src)+len(folder))
	fixed = append(append(append(fixed, src[:r.Start.Byte]...), folder...), src[r.End.Byte:]...)
	if p.fixAddsError(fixed) {
		return ""
	}
	return "name: " + folder
}
