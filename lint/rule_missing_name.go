package lint

import "github.com/skillc/skillc/compiler"

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
	Run: runMissingName,
}

func runMissingName(p *Pass) {
	fm := specFields(p.Skill)
	if fm == nil || fm.Name.Invalid {
		return // a name that is not a string is invalid-frontmatter's
	}
	// Without a name in the frontmatter, the skill's name is its path's
	// (the folder of a SKILL.md): the name to suggest.
	fix := suggestName(p.Skill.Name, "")
	switch {
	case !fm.Name.Set:
		p.Report(compiler.Diagnostic{
			Summary:    "frontmatter has no \"name\"",
			Detail:     "every skill needs a name: 1-64 characters of a-z, 0-9 and -",
			Range:      opening(fm),
			Suggestion: fix,
		})
	case fm.Name.Value == "":
		p.Report(compiler.Diagnostic{Summary: "\"name\" is empty", Range: fm.Name.Range, Suggestion: fix})
	}
}
