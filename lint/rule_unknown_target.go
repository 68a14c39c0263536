package lint

import (
	"fmt"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// RuleUnknownTarget reports an edge to no step: graph.Check's problem, an
// edge, then target or entry of the template that names no step, placed
// at the target as written and said in the author's words; and,
// forwarded, the compiler's, for a bullet with no target at all (syntax).
// The compiler keeps a target it cannot resolve in the IR as written, so
// graph.Check owns the check and its did-you-mean.
var RuleUnknownTarget = &Rule{
	ID:       "unknown-target",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "an edge points to a step that does not exist",
	Doc: `A target names a step number, a {#id}, end or fail. A target that names no step
would leave the plan stuck; the message suggests the nearest step ID.

Bad:
    1. Look up the refund.
       - on failure: 5      (there is no step 5)

Good:
    1. Look up the refund.
       - on failure: 3`,
	Fix: "the nearest step ID (or end, fail) written in the target's place. " +
		"Safe when it is the only name within two edits and a case change or one edit away; otherwise a guess, unsafe. A number gets none: 9 is no typo of 2.",
	Requires: []*Analysis{GraphAnalysis},
	Run:      runUnknownTarget,
}

func runUnknownTarget(p *Pass) {
	forward("unknown-target")(p)
	for _, pr := range p.problems("unknown-target") {
		r := p.stepRange(pr.Index)
		if pr.OnEdge && pr.Index >= 0 && pr.Index < len(p.Skill.Steps) {
			st := p.Skill.Steps[pr.Index]
			e := st.Success
			if pr.Edge == compiler.Failure {
				e = st.Failure
			}
			target, tr := e.Target, e.TargetRange
			if known(p.Skill, target) && e.Then() != "" {
				target, tr = e.Bound.Then, e.Bound.ThenRange // the bound's then target is the one
			}
			if !tr.IsZero() {
				r = tr
				// Written in the markdown: say it as the author wrote it.
				pr.Message = fmt.Sprintf("%s edge of step %q goes to %q, which is not a step", pr.Edge, st.ID, target)
				detail := "a target is a step's number or ID, end (done, complete, finish) or fail (abort, stop); steps here: " + stepList(p.Skill)
				if pr.Suggestion != "" {
					detail = fmt.Sprintf("did you mean %q? ", pr.Suggestion) + detail
				}
				pr.Detail = detail
				p.Report(compiler.Diagnostic{Range: r, Summary: pr.Message, Detail: pr.Detail,
					Suggestion: pr.Suggestion, Fixes: targetFix(p.Skill, target, tr, pr.Suggestion)})
				continue
			}
		}
		p.reportProblem(pr, r)
	}
}

// targetFix writes the suggested step ID (or end, fail) in place of the
// target written at tr. It is safe only when the suggestion is the one
// sure near miss (diag's rule); Pass.Report checks it like every fix.
func targetFix(sk *compiler.Skill, target string, tr compiler.Range, suggestion string) []compiler.Fix {
	if suggestion == "" || tr.Start.Byte < 0 || tr.End.Byte > len(sk.Source) || tr.Start.Byte >= tr.End.Byte {
		return nil
	}
	written := string(sk.Source[tr.Start.Byte:tr.End.Byte])
	if len(written) > 1 && written[0] == '#' && written[1:] == target {
		// "#id": the ID is after the mark, which stays.
		written = written[1:]
		tr.Start.Byte++
		tr.Start.Column++
	}
	if written != target {
		return nil // the target was read from other words (a label, a list)
	}
	names := make([]string, 0, len(sk.Steps)+2)
	for _, st := range sk.Steps {
		names = append(names, st.ID)
	}
	m := compiler.NearestMatch(written, append(names, compiler.End, compiler.Fail))
	if m.Name != suggestion {
		return nil
	}
	return []compiler.Fix{{
		Title: fmt.Sprintf("replace %q with %q", written, suggestion),
		Safe:  m.Sure(),
		Edits: []compiler.Edit{{Range: tr, NewText: suggestion}},
	}}
}

// known reports whether target is a step of s or a terminal.
func known(s *compiler.Skill, target string) bool {
	return target == compiler.End || target == compiler.Fail || s.Step(target) != nil
}

// stepList names the steps for a message, shortened for long skills.
func stepList(s *compiler.Skill) string {
	var ids []string
	for i, st := range s.Steps {
		if i == 10 {
			ids = append(ids, fmt.Sprintf("and %d more", len(s.Steps)-10))
			break
		}
		ids = append(ids, st.ID)
	}
	return strings.Join(ids, ", ")
}
