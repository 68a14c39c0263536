package plan_test

import (
	"strings"
	"testing"

	"github.com/skillc/skillc/plan"
)

// TestChecklistEscapes: control characters in a title, a goal or a note
// reach the checklist escaped, never raw: a title of "\x1b]0;pwned\x07"
// would otherwise retitle the terminal `skillc plan view` prints to.
func TestChecklistEscapes(t *testing.T) {
	steps := goals(2)
	steps[0].Goal = "Clear\x1b[2J the screen."
	steps[1].Goal = "Ring\x07 and \u009b2J."
	p, _, err := plan.Make(nil, plan.MakeInput{Title: "\x1b]0;pwned\x07", Steps: steps}, "p1", t0)
	if err != nil {
		t.Fatalf("make: %v", err)
	}
	got := plan.Checklist(p)
	for _, want := range []string{`\x1b]0;pwned\x07 · active`, `Clear\x1b[2J the screen.`, `Ring\x07 and \u009b2J.`} {
		if !strings.Contains(got, want) {
			t.Errorf("checklist lacks %q:\n%s", want, got)
		}
	}
	p.Status, p.Note = plan.StatusCancelled, "gave up\x1b[0m"
	got += plan.Checklist(p)
	if !strings.Contains(got, `note: gave up\x1b[0m`) {
		t.Errorf("the note is not escaped:\n%s", got)
	}
	if strings.ContainsAny(got, "\x1b\x07\u009b") {
		t.Errorf("a raw control character got through:\n%q", got)
	}
}
