package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// RuleUnknownTarget reports an edge to no step: graph.Check's problem, an
// edge or entry of the template that names no step, placed at the edge's
// target; and, forwarded, the compiler's, for a bullet with no target and
// for a written target it cannot resolve. The compiler resolves targets
// as it reads a step's edges (a number, "step 4", #id, a terminal word,
// with the did-you-mean it caps per file) and keeps no unresolved edge
// in the IR, so that finding is still its own; moving it means recording
// the unresolved edges first.
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

// runUnknownTarget passes on the compiler's findings, whose fixes write
// the near-miss step ID in the target's place (safe when it is the only
// near one and a case change or one edit away, diag.Match.Sure), and
// places graph.Check's, with the same fix where the target is written.
func runUnknownTarget(p *Pass) {
	forward("unknown-target")(p)
	for _, pr := range p.problems("unknown-target") {
		r := p.stepRange(pr.Index)
		d := compiler.Diagnostic{Summary: pr.Message, Detail: pr.Detail, Suggestion: pr.Suggestion}
		if pr.OnEdge {
			st := p.Skill.Steps[pr.Index]
			e := st.Success
			if pr.Edge == compiler.Failure {
				e = st.Failure
			}
			if !e.TargetRange.IsZero() {
				r = e.TargetRange
				d.Fixes = targetFix(p.Skill, e, pr.Suggestion)
			}
		}
		d.Range = r
		p.Report(d)
	}
}

// targetFix is the fix that writes suggestion, a step ID, in place of
// edge e's written target, when the target is written as itself (not a
// "step 4" or a #id around it, whose form would need the same care).
func targetFix(sk *compiler.Skill, e compiler.Edge, suggestion string) []compiler.Fix {
	if suggestion == "" || e.TargetRange.End.Byte > len(sk.Source) || e.TargetRange.Start.Byte < 0 {
		return nil
	}
	written := string(sk.Source[e.TargetRange.Start.Byte:e.TargetRange.End.Byte])
	if written != e.Target {
		return nil
	}
	ids := make([]string, 0, len(sk.Steps))
	for _, st := range sk.Steps {
		ids = append(ids, st.ID)
	}
	m := compiler.NearestMatch(written, ids)
	if m.Name != suggestion {
		return nil
	}
	return []compiler.Fix{{
		Title: fmt.Sprintf("replace %q with %q", written, suggestion),
		Safe:  m.Sure(),
		Edits: []compiler.Edit{{Range: e.TargetRange, NewText: suggestion}},
	}}
}
