package lint

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// RuleProseBranch finds branches written as prose inside a step ("if tests
// pass, continue to Step 2", "otherwise stop") that no annotation states,
// and suggests the annotation, so the graph says what the text says.
var RuleProseBranch = &Rule{
	ID:       "prose-branch",
	Severity: compiler.SeverityInfo,
	Source:   "lint",
	Summary:  "a step's text says where to go next, but no annotation does",
	Doc: `Authors often write the branch into the text: "if tests pass, continue to Step
2", "go back to step 1", "skip to Step 4", "return to Phase 1", "otherwise
stop". skillc only follows annotations, so the graph ignores that sentence.
The rule reports the phrase when the step has no explicit edge of that kind and
suggests the annotation. A sentence about failing (fail, error, otherwise,
else, not) or going back becomes a failure edge; others a success edge; "stop"
or "abort" after a failure condition becomes "on failure: fail". Only targets
that name a step of the skill are reported. Going back to an earlier step is
reported without a suggestion: a plan cannot loop (see cycle). It is info:
prose is a hint, and the default edges may already do what the text says.

Bad:
    1. Run the tests.

       If tests fail, report the failures and stop.
       If tests pass, continue to step 2.

Good:
    1. Run the tests.
       - on success: 2
       - on failure: fail`,
	Run: runProseBranch,
}

var (
	// proseGoto is a movement verb, "to", and a target.
	proseGoto = regexp.MustCompile(`(?i)\b(continue|proceed|go|jump|skip|return|move|loop|come|head)\s+(?:straight\s+|directly\s+|back\s+|on\s+|forward\s+)?(?:to|with|at)\s+(?:the\s+)?(step\s+|phase\s+|#)?([A-Za-z0-9_-]+)`)
	// proseStop is "stop" or "abort" as a verb that ends its clause ("and
	// stop.", "stop, leave the branch"), so the noun in "abort tests" is
	// not taken for it.
	proseStop = regexp.MustCompile(`(?i)\b(stop|abort)\b\s*(?:[.,;:!?)\x{2014}\x{2013}-]|$)`)
	// failureCue marks a clause about the failure path.
	failureCue = regexp.MustCompile(`(?i)\b(fail\w*|error\w*|otherwise|else|not|no|cannot|can't|doesn't|don't|isn't|won't|declines?|wrong|broken|red)\b`)
	negated    = regexp.MustCompile(`(?i)\b(don't|do not|never|not|without|cannot|can't)\s+$`)
	sentenceRe = regexp.MustCompile(`[^.;!?]+[.;!?]?`)
)

func runProseBranch(p *Pass) {
	s := p.Skill
	src := s.Source
	for _, st := range s.Steps {
		if st.Range.IsZero() {
			continue
		}
		from, to := st.Range.Start.Byte, min(st.Range.End.Byte, len(src))
		for _, sp := range proseSpans(src, from, to) {
			if inAnnotation(st, sp[0]) {
				continue
			}
			line := src[sp[0]:sp[1]]
			for _, sm := range sentenceRe.FindAllIndex(line, -1) {
				sentence := string(line[sm[0]:sm[1]])
				base := sp[0] + sm[0]
				proseBranchSentence(p, st, sentence, base)
			}
		}
	}
}

// inAnnotation reports whether off falls on an annotation bullet, which
// already states its edge.
func inAnnotation(st *compiler.Step, off int) bool {
	for _, a := range st.Annotations {
		if off >= a.Range.Start.Byte && off < a.Range.End.Byte {
			return true
		}
	}
	return false
}

func proseBranchSentence(p *Pass, st *compiler.Step, sentence string, base int) {
	for _, m := range proseGoto.FindAllStringSubmatchIndex(sentence, -1) {
		verb := strings.ToLower(sentence[m[2]:m[3]])
		target := sentence[m[6]:m[7]]
		id, ok := resolveStep(p.Skill, target, m[4] >= 0)
		if !ok || id == st.ID {
			continue
		}
		kind := compiler.Success
		back := verb == "return" || verb == "loop" || verb == "come" || strings.Contains(strings.ToLower(sentence[m[2]:m[6]]), "back")
		if back || failureCue.MatchString(sentence[:m[0]]) {
			kind = compiler.Failure
		}
		reportProseBranch(p, st, kind, id, base+m[0], base+m[1])
	}
	for _, m := range proseStop.FindAllStringIndex(sentence, -1) {
		if negated.MatchString(sentence[:m[0]]) || !failureCue.MatchString(sentence[:m[0]]) {
			continue
		}
		end := m[0] + len(strings.TrimRight(strings.ToLower(sentence[m[0]:m[1]]), " \t.,;:!?)\u2014\u2013-"))
		reportProseBranch(p, st, compiler.Failure, compiler.Fail, base+m[0], base+end)
	}
}

// resolveStep finds the step a prose target names. A bare word must be a
// step ID written with {#id}, or a number after "step", so that ordinary
// words ("go to the store") are never taken for targets.
func resolveStep(s *compiler.Skill, target string, marked bool) (string, bool) {
	for _, st := range s.Steps {
		if st.ID == target && (marked || st.ExplicitID) {
			return st.ID, true
		}
	}
	return "", false
}

func reportProseBranch(p *Pass, st *compiler.Step, kind compiler.EdgeKind, target string, start, end int) {
	edge, key := st.Success, "on success"
	if kind == compiler.Failure {
		edge, key = st.Failure, "on failure"
	}
	if edge.Explicit {
		return
	}
	d := compiler.Diagnostic{
		Range:      p.RangeOf(start, end),
		Summary:    fmt.Sprintf("step %q says where to go in prose; skillc follows only annotations", st.ID),
		Suggestion: fmt.Sprintf("- %s: %s", key, target),
	}
	switch {
	case isEarlier(p.Skill, target, st.ID):
		// Going back is a loop, which a plan cannot run (rule cycle):
		// suggesting the edge would trade this hint for an error.
		d.Summary = fmt.Sprintf("step %q says in prose to go back to step %q; a plan cannot loop", st.ID, target)
		d.Detail = "write the retry as a new step after this one and point the edge there, or end with fail"
		d.Suggestion = ""
	case edge.Target == target:
		d.Detail = "the default edge already goes there; an annotation makes it explicit"
	}
	p.Report(d)
}

// isEarlier reports whether step target is written at or before step id.
func isEarlier(s *compiler.Skill, target, id string) bool {
	for _, st := range s.Steps {
		switch st.ID {
		case target:
			return true
		case id:
			return false
		}
	}
	return false
}
