package lint

import (
	"fmt"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// RuleInvalidDescription reports a description over the specification's
// limit.
var RuleInvalidDescription = &Rule{
	ID:       "invalid-description",
	Severity: compiler.SeverityError,
	Source:   "spec",
	Summary:  "the description is over 1024 characters",
	Doc: `A description is 1-1024 characters: it is loaded into every conversation, so it
must stay short. Move the detail into the body.

Bad: a description that pastes the whole procedure.

Good:
    description: Check whether a refund was paid. Use when the user asks about a refund.`,
	Run: runInvalidDescription,
}

func runInvalidDescription(p *Pass) {
	fm := specFields(p.Skill)
	if fm == nil {
		return
	}
	if n := utf8.RuneCountInString(fm.Description.Value); n > maxDescriptionLen {
		p.Report(compiler.Diagnostic{
			Summary: fmt.Sprintf("\"description\" is %d characters; the limit is %d", n, maxDescriptionLen),
			Range:   fm.Description.Range,
		})
	}
}
