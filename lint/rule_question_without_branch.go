package lint

import (
	"fmt"
	"strings"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// RuleQuestionWithoutBranch flags a step whose goal is a question but which
// does not say where each answer goes.
var RuleQuestionWithoutBranch = &Rule{
	ID:       "question-without-branch",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "a step asks a question but has no explicit yes and no edges",
	Doc: `A goal that ends in "?" is a decision. Without both a success (yes) and a
failure (no) edge, the defaults apply: yes goes to the next step and no fails
the whole plan, which is rarely what the author meant.

Bad:
    1. Already credited in this thread?
    2. List ACAT transfers.

Good:
    1. Already credited in this thread?
       - yes: end
       - no: 2
    2. List ACAT transfers.

A "no" edge that skillc read from the write-up (FORMAT 6.4: prose such as "If
not, go to 4", or the shape of a checklist of questions, where either answer
goes on) is not the default: the inferred info reports that reading and the
annotation that says the same, so this rule does not warn again.`,
	Run: runQuestionWithoutBranch,
}

func runQuestionWithoutBranch(p *Pass) {
	// Where each edge goes in the template, defaults filled in.
	steps := p.Skill.TemplateSteps()
	next := func(i int, k graph.EdgeKind) string { return graph.NextOf(steps, i, k) }
	for i, st := range p.Skill.Steps {
		if !strings.HasSuffix(strings.TrimSpace(st.Goal), "?") || st.Success.Explicit && st.Failure.Explicit {
			continue
		}
		if !st.Failure.Explicit && st.Failure.From != "" {
			// The harm this rule prevents is the default "no fails the plan";
			// an inferred "no" is the author's, reported by inferred.
			continue
		}
		var missing []string
		if !st.Success.Explicit {
			missing = append(missing, "`- yes: "+next(i, graph.Success)+"`")
		}
		if !st.Failure.Explicit {
			missing = append(missing, "`- no: "+next(i, graph.Failure)+"`")
		}
		r := st.GoalRange
		if r.IsZero() {
			r = st.IDRange
		}
		detail := "without explicit edges, yes goes to the next step and no fails the plan"
		if st.Success.From != "" || st.Failure.From != "" {
			// An inferred edge (FORMAT 6.4) is not the default.
			detail = fmt.Sprintf("without explicit edges, yes goes to %s and no to %s, as skillc reads the write-up", next(i, graph.Success), next(i, graph.Failure))
		}
		p.Report(compiler.Diagnostic{
			Range:      r,
			Summary:    fmt.Sprintf("step %q asks a question but does not say where each answer goes", st.ID),
			Detail:     detail,
			Suggestion: "add " + strings.Join(missing, " and ") + ", with the targets you mean",
		})
	}
}
