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
		Suggestion: suggestName(folder, res.Name),
	})
}
