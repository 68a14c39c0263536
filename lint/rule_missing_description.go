package lint

import "github.com/skillc/skillc/compiler"

// RuleMissingDescription reports a frontmatter without a description, or
// with an empty one.
var RuleMissingDescription = &Rule{
	ID:       "missing-description",
	Severity: compiler.SeverityError,
	Source:   "spec",
	Summary:  "the frontmatter has no description",
	Doc: `The description is what an agent reads to decide whether to use the skill;
the Agent Skills specification requires it.

Bad:
    ---
    name: refund-check
    ---

Good:
    ---
    name: refund-check
    description: Check whether a refund was paid. Use when the user asks about a refund.
    ---`,
	Run: runMissingDescription,
}

func runMissingDescription(p *Pass) {
	fm := specFields(p.Skill)
	if fm == nil || fm.Description.Invalid {
		return // a description that is not a string is invalid-frontmatter's
	}
	const detail = "say what the skill does and when to use it, in at most 1024 characters"
	switch {
	case !fm.Description.Set:
		p.Report(compiler.Diagnostic{Summary: "frontmatter has no \"description\"", Detail: detail, Range: opening(fm)})
	case fm.Description.Value == "":
		p.Report(compiler.Diagnostic{Summary: "\"description\" is empty", Detail: detail, Range: fm.Description.Range})
	}
}
