package lint

import (
	"fmt"
	"strings"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/compiler/prose"
)

// RuleProseBranch makes every branch read from prose visible (FORMAT 6,
// "every inference is visible"): what the compiler read and the annotation
// that says the same, where prose and an annotation disagree, and prose
// that reads as a branch but that the grammar could not read.
var RuleProseBranch = &Rule{
	ID:       "prose-branch",
	Severity: compiler.SeverityInfo,
	Source:   "lint",
	Summary:  "a step's prose says where to go next: what skillc read from it, or why it could not",
	Doc: `Authors write branches into the text: "If the issue persists, go to step 4",
"Otherwise, skip directly to Step 3", "If not, stop", "go back to step 1, up
to 3 times", "Do not proceed until the customer confirms". skillc reads them
(FORMAT 6.4 to 6.6) where no annotation states the edge, and this rule
reports each reading as info, quoting the words read, with the annotation
that says the same (what its fix writes). A condition that reads as a
failure or a negative ("persists", "fails", "is not", "no records") is the
failure edge, any other the success edge; the other side of a decision goes
to the next step. Loops ("go back to step 2", with the bound written, FORMAT
6.5) and waits are reported too. It is a warning where an annotation and the
prose disagree: the annotation wins. Prose that reads as a branch but
cannot be read (a step that does not exist, a condition whose side cannot
be told, a stop under a condition that is not a failure, two sentences
that disagree) is reported with why, and none of that step's branches is
applied. With strict (infer: false) nothing is applied; the rule still
says what the prose would give.

Bad:
    1. Run the tests.
       - on failure: 2

       If the tests fail, go to step 3.

Good:
    1. Run the tests.
       - on failure (the tests fail): 3`,
	Fix: "unsafe: the annotation that says what the prose says (`- on failure (the tests fail): 3`, `- wait: the customer confirms`), written after the step's last annotation or under its goal. It states a reading as the author's, and under strict it applies an edge that was not applied.",
	Run: runProseBranch,
}

func runProseBranch(p *Pass) {
	s := p.Skill
	reportedGlobal := false
	readings := compiler.ReadProse(s)
	for i, st := range s.Steps {
		if st.Range.IsZero() {
			continue
		}
		var rd prose.Reading // nil: the prose says nothing the reader reads
		if r := readings[i]; r != nil {
			rd = *r
		}
		next := compiler.End
		if i+1 < len(s.Steps) {
			next = s.Steps[i+1].ID
		}
		pick, why := compiler.ProseEdges(rd, next)
		if why == "" && st.ProseDropped() != "" {
			// The compiler undid them: they would have lost a step.
			pick, why = [2]*prose.Edge{}, st.ProseDropped()
		}
		if why != "" {
			e := firstForward(rd.Edges)
			p.Report(compiler.Diagnostic{
				Range:   p.RangeOf(e.Start, e.End),
				Summary: fmt.Sprintf("step %q: its prose branches are not applied", st.ID),
				Detail:  why,
			})
		}
		for k, e := range pick {
			if e == nil {
				continue
			}
			target := e.Target
			if target == "" {
				target = next // the other side of a decision
			}
			proseEdge(p, st, compiler.EdgeKind(k), target, e)
		}
		for k := range rd.Edges {
			if e := &rd.Edges[k]; e.Back {
				proseLoop(p, st, e)
			}
		}
		for _, w := range rd.Waits {
			if st.WaitFrom() != compiler.FromProse && strings.EqualFold(st.WaitFor(), w.What) {
				continue // a wait annotation already says it
			}
			d := compiler.Diagnostic{
				Range:      p.RangeOf(w.Start, w.End),
				Summary:    fmt.Sprintf("step %q waits for %q, read from its prose", st.ID, w.What),
				Suggestion: "- wait: " + w.What,
			}
			if st.WaitFrom() == "prose" {
				p.annotate(&d, st)
			}
			p.Report(d)
		}
		for _, u := range rd.Unread {
			p.Report(compiler.Diagnostic{
				Range:   p.RangeOf(u.Start, u.End),
				Summary: fmt.Sprintf("step %q: prose reads as a branch, but skillc cannot read it", st.ID),
				Detail:  fmt.Sprintf("%q: %s; state the edge with an annotation", u.Quote, u.Why),
			})
		}
		if f := &st.Failure; f.From == compiler.FromProse && f.Label == "even if it fails" && !reportedGlobal {
			reportedGlobal = true
			p.Report(compiler.Diagnostic{
				Range:   f.Range,
				Summary: "the write-up says once that a step that fails goes on to the next one; skillc reads it for every step",
				Detail:  "each step's failure edge without an annotation goes where its success would by default",
			})
		}
	}
}

func firstForward(edges []prose.Edge) prose.Edge {
	for _, e := range edges {
		if !e.Back {
			return e
		}
	}
	return prose.Edge{}
}

// annotation writes the bullet that states an edge as the prose does. A
// label goes in parentheses when it fits there.
func annotation(kind compiler.EdgeKind, label, target string) string {
	key := "on " + kind.String()
	if label != "" && len(label) <= 40 && !strings.ContainsAny(label, "()") {
		key += " (" + label + ")"
	}
	return fmt.Sprintf("- %s: %s", key, target)
}

// proseEdge reports one forward edge read from prose against the step's
// edge of that kind.
func proseEdge(p *Pass, st *compiler.Step, kind compiler.EdgeKind, target string, e *prose.Edge) {
	edge, opposite := st.Success, st.Failure
	if kind == compiler.Failure {
		edge, opposite = st.Failure, st.Success
	}
	if e.Target == "" && opposite.Explicit {
		return // an annotation states the decision this would be the other side of
	}
	d := compiler.Diagnostic{Range: p.RangeOf(e.Start, e.End)}
	quote := e.Quote
	switch {
	case edge.Explicit && edge.Target == target:
		return // the annotation already says it
	case edge.Explicit:
		d.Severity = compiler.SeverityWarning
		d.Summary = fmt.Sprintf("step %q: its annotation sends the %s edge to %q, its prose to %q", st.ID, kind, edge.Target, target)
		d.Detail = fmt.Sprintf("%q reads as %q; the annotation wins, so make them agree", quote, annotation(kind, e.Label, target))
		d.Range = edge.Range
	case edge.From == compiler.FromProse && edge.Target == target:
		d.Summary = fmt.Sprintf("step %q: its %s edge, to %q, is read from its prose", st.ID, kind, target)
		if e.Target == "" {
			d.Summary = fmt.Sprintf("step %q: its %s edge goes on to %q, the other side of the decision its prose states", st.ID, kind, target)
		}
		d.Detail = fmt.Sprintf("read from %q", quote)
		d.Suggestion = annotation(kind, e.Label, target)
	default:
		// Not applied: strict, or another reading of this step took the
		// edge (the compiler and this rule share ProseEdges, so only
		// strict gets here).
		d.Summary = fmt.Sprintf("step %q: its prose reads as the %s edge to %q, which strict mode does not apply", st.ID, kind, target)
		d.Detail = fmt.Sprintf("read from %q", quote)
		d.Suggestion = annotation(kind, e.Label, target)
	}
	p.annotate(&d, st)
	p.Report(d)
}

// proseLoop reports a back edge read from prose, applied or not, with the
// annotation of FORMAT 6.5 that says the same.
func proseLoop(p *Pass, st *compiler.Step, e *prose.Edge) {
	kind := compiler.EdgeKind(e.Kind)
	edge := st.Success
	if kind == compiler.Failure {
		edge = st.Failure
	}
	target := e.Target
	if target == st.ID {
		target = "retry"
	}
	if e.Bound > 0 {
		then := ""
		if e.Then != "" {
			then = ", then " + e.Then
		}
		target += fmt.Sprintf(" (at most %d times%s)", e.Bound, then)
	}
	d := compiler.Diagnostic{Range: p.RangeOf(e.Start, e.End), Suggestion: annotation(kind, e.Label, target)}
	switch {
	case edge.Explicit && edge.Target == e.Target:
		return
	case edge.Explicit:
		d.Severity = compiler.SeverityWarning
		d.Summary = fmt.Sprintf("step %q: its annotation sends the %s edge to %q, its prose loops back to %q", st.ID, kind, edge.Target, e.Target)
		d.Detail = fmt.Sprintf("%q reads as a loop; the annotation wins, so make them agree", e.Quote)
		d.Suggestion = ""
	case edge.From == compiler.FromProse && edge.Target == e.Target:
		d.Summary = fmt.Sprintf("step %q: its %s edge loops back to %q, read from its prose", st.ID, kind, e.Target)
		if e.Bound == 0 {
			d.Summary += " (no bound written: it takes the default)"
		}
		d.Detail = fmt.Sprintf("read from %q", e.Quote)
	case len(st.Loops()) == 0:
		// Strict mode keeps no loops.
		d.Summary = fmt.Sprintf("step %q: its prose loops back to %q on %s, which strict mode does not apply", st.ID, e.Target, kind)
		d.Detail = fmt.Sprintf("read from %q", e.Quote)
	case st.ProseDropped() != "":
		d.Summary = fmt.Sprintf("step %q: its prose loops back to %q on %s, which is not applied: %s", st.ID, e.Target, kind, st.ProseDropped())
		d.Detail = fmt.Sprintf("read from %q", e.Quote)
	case e.Target == st.ID && strings.Contains(e.Label, "until "):
		// compiler.firstBack: "keep X until C" names no step to go back to.
		d.Summary = fmt.Sprintf("step %q: its prose repeats it %s, but names no step to go back to, so no loop is applied", st.ID, e.Label)
		d.Detail = fmt.Sprintf("read from %q; write the loop as an annotation if a round should start over at this step or an earlier one", e.Quote)
	default:
		d.Summary = fmt.Sprintf("step %q: its prose loops back to %q on %s, but another of its branches states that edge", st.ID, e.Target, kind)
		d.Detail = fmt.Sprintf("read from %q", e.Quote)
	}
	p.annotate(&d, st)
	p.Report(d)
}
