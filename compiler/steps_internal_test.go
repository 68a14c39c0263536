package compiler

import "testing"

// TestMayBeStepHeading: the shortcut rules out only text headingStep does
// not match.
func TestMayBeStepHeading(t *testing.T) {
	for _, s := range []string{"Step 1: a", "STEP 2", "step\t3 - x", "ſtep 4: x", "1. a", "12. b", "Steps", "Skill 0", "Notes", "", "Step", "Step:", "Stepping 1", "s", "Step 1", "St3p 1", "x Step 1"} {
		if headingStep.MatchString(s) && !mayBeStepHeading(s) {
			t.Errorf("mayBeStepHeading(%q) = false, but headingStep matches", s)
		}
	}
	for _, s := range []string{"Steps", "Skill 0", "Notes", "When to use"} {
		if mayBeStepHeading(s) {
			t.Errorf("mayBeStepHeading(%q) = true", s)
		}
	}
}
