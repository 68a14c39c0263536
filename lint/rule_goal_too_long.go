package lint

import (
	"fmt"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// RuleGoalTooLong flags goals over the length limit.
var RuleGoalTooLong = &Rule{
	ID:       "goal-too-long",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "a step's goal is longer than the limit (default 120 characters)",
	Doc: `The goal is the line a checklist shows and an agent acts on; it should read at
a glance. Put the how in the step's detail paragraphs. The limit is
limits.max-goal-length in .skillc.yaml (default 120 characters).

Bad:
    1. Look up the customer's ACAT transfers in the brokerage system, compare each with the statement, and tell the user which were credited and when.

Good:
    1. Look up the customer's ACAT transfers.

       Compare each with the statement and tell the user which were credited.`,
	Run: runGoalTooLong,
}

func runGoalTooLong(p *Pass) {
	limit := DefaultMaxGoalLength
	if p.Config != nil && p.Config.MaxGoalLength > 0 {
		limit = p.Config.MaxGoalLength
	}
	for _, st := range p.Skill.Steps {
		// A goal has no more characters than bytes: most need no count.
		if len(st.Goal) <= limit {
			continue
		}
		if n := utf8.RuneCountInString(st.Goal); n > limit {
			p.Report(compiler.Diagnostic{
				Range:   st.GoalRange,
				Summary: fmt.Sprintf("step %q has a goal of %d characters, more than the limit of %d", st.ID, n, limit),
				Detail:  "keep the goal to one short sentence and move the rest into the step's detail",
			})
		}
	}
}
