package lint

import "testing"

// TestHasConditionWord: the shortcut says yes only where the regexp does.
func TestHasConditionWord(t *testing.T) {
	for _, s := range []string{"Use when x.", "WHEN", "if", "x, if y", "When: y", "whenever", "iffy", "swhen", "when_x", "x_if", "é when", "whené", "Kif", "If-then", "wh", ""} {
		if got := hasConditionWord(s); got && !whenInDescription().MatchString(s) {
			t.Errorf("hasConditionWord(%q) = true, the regexp does not match", s)
		}
	}
	for _, s := range []string{"Use when x.", "WHEN it rains", "x, if y", "If-then"} {
		if !hasConditionWord(s) {
			t.Errorf("hasConditionWord(%q) = false", s)
		}
	}
}
