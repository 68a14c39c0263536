package plan

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/termsafe"
)

// maxGoalColumn caps the goal column, so one long goal does not push every
// "tools:" far to the right.
const maxGoalColumn = 48

// Checklist renders p as the short text every plan tool returns (DESIGN.md
// §2): a header, one line per step, then what comes next.
//
//	ACAT reimbursement · active · 1/4 done
//	[x] 1  Already credited in this thread?
//	[>] 2  List ACAT transfers.              tools: list_acat_transfers
//	next: 2 List ACAT transfers. (on success -> 3, on failure -> 4)
func Checklist(p *Plan) string { return ChecklistIn(p, ToolWords) }

// ChecklistIn is the checklist whose guidance names the tools in w's words.
func ChecklistIn(p *Plan, w Words) string {
	// Titles, goals and notes come from a model or a skill: escaped, they
	// cannot drive the terminal that `skillc plan` prints the checklist to.
	return termsafe.Escape(checklist(p, w))
}

func checklist(p *Plan, w Words) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s · %d/%d done\n", p.Title, p.Status, p.Done(), len(p.Steps))
	if p.Objective != "" {
		fmt.Fprintf(&b, "objective: %s\n", p.Objective)
	}
	idw, goalw := 0, 0
	for _, s := range p.Steps {
		idw = max(idw, utf8.RuneCountInString(s.ID))
		if len(s.RecommendedTools) > 0 {
			goalw = max(goalw, min(utf8.RuneCountInString(s.Goal), maxGoalColumn))
		}
	}
	rounds := p.roundNotes()
	for _, s := range p.Steps {
		fmt.Fprintf(&b, "%s %s  %s", marker(s.Status), pad(s.ID, idw), s.Goal)
		if len(s.RecommendedTools) > 0 {
			b.WriteString(strings.Repeat(" ", max(goalw-utf8.RuneCountInString(s.Goal), 0)+2))
			b.WriteString("tools: ")
			b.WriteString(strings.Join(s.RecommendedTools, ", "))
		}
		if r := rounds[s.ID]; r != "" {
			fmt.Fprintf(&b, "  (%s)", r)
		}
		b.WriteByte('\n')
	}
	if p.Closed() {
		if p.Note != "" {
			fmt.Fprintf(&b, "note: %s\n", p.Note)
		}
		return b.String()
	}
	next := false
	for _, s := range p.Steps {
		if s.Status == StepInProgress {
			next = true
			fmt.Fprintf(&b, "next: %s %s (%s, %s)\n", s.ID, s.Goal,
				edgeText("on success", s.SuccessLabel, p.edgeTarget(&s, graph.Success)),
				edgeText("on failure", s.FailureLabel, p.edgeTarget(&s, graph.Failure)))
			if s.WaitFor != "" {
				fmt.Fprintf(&b, "waits for: %s\n", s.WaitFor)
			}
		}
	}
	switch Outcome(p) {
	case StatusCompleted:
		fmt.Fprintf(&b, "the path reached %s: close the plan with %s (status completed)\n", graph.End, w.Close)
	case StatusFailed:
		fmt.Fprintf(&b, "the path reached %s: close the plan with %s (status failed)\n", graph.Fail, w.Close)
	default:
		if !next {
			fmt.Fprintf(&b, "no step is in progress: %s, %s or %s a step with %s, or close the plan with %s\n", w.Check, w.Fail, w.Skip, w.Update, w.Close)
		}
	}
	return b.String()
}

func marker(s StepStatus) string {
	switch s {
	case StepDone:
		return "[x]"
	case StepInProgress:
		return "[>]"
	case StepFailed:
		return "[!]"
	case StepSkipped:
		return "[-]"
	}
	return "[ ]"
}

func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(w-utf8.RuneCountInString(s), 0))
}

// edgeText shows an edge with its label when the label says more than the
// key word does ("on success (one record) -> end").
func edgeText(kind, label, target string) string {
	switch strings.ToLower(label) {
	case "", "on success", "success", "on failure", "failure":
		return fmt.Sprintf("%s -> %s", kind, target)
	}
	return fmt.Sprintf("%s (%s) -> %s", kind, label, target)
}
