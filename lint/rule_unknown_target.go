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
	Requires: []*Analysis{GraphAnalysis},
	Run:      runUnknownTarget,
}

func runUnknownTarget(p *Pass) {
	for _, d := range p.Upstream {
		if d.Rule == "unknown-target" {
			d.Fixes = p.nearMissTargetFix(d)
			p.Report(d)
		}
	}
	for _, pr := range p.problems("unknown-target") {
		r := p.stepRange(pr.Index)
		if pr.OnEdge {
			st := p.Skill.Steps[pr.Index]
			e := st.Success
			if pr.Edge == compiler.Failure {
				e = st.Failure
			}
			if !e.TargetRange.IsZero() {
				r = e.TargetRange
			}
		}
		p.reportProblem(pr, r)
	}
}

// nearMissTargetFix replaces a target with the near-miss step ID the
// compiler suggested. It is unsafe: the author may have meant another
// step, or one not written yet.
func (p *Pass) nearMissTargetFix(d compiler.Diagnostic) []compiler.Fix {
	start, end := d.Range.Start.Byte, d.Range.End.Byte
	src := p.Skill.Source
	if d.Suggestion == "" || start >= end || end > len(src) {
		return nil
	}
	to := d.Suggestion
	if src[start] == '#' && p.Skill.Step(to) != nil {
		to = "#" + to // the compiler's range holds the # of #id
	}
	fixed := append(append(append([]byte{}, src[:start]...), to...), src[end:]...)
	if p.fixAddsError(fixed) {
		return nil
	}
	return []compiler.Fix{{
		Title: fmt.Sprintf("replace %q with %q", src[start:end], to),
		Edits: []compiler.Edit{{Range: d.Range, NewText: to}},
	}}
}
