package lint

import (
	"strings"
	"testing"
)

// TestMayBranch: the prefilter lets through every word that can start a
// prose-branch finding, in any case, and passes over text with none.
func TestMayBranch(t *testing.T) {
	for _, w := range branchWords {
		if classify(w)&(wordMove|wordStop) == 0 {
			t.Errorf("%q is in branchWords but classify gives neither move nor stop", w)
		}
		for _, v := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
			if !mayBranch([]byte("1. Then " + v + " to step 2.")) {
				t.Errorf("mayBranch misses %q", v)
			}
		}
	}
	// Every word classify calls a move or a stop is in branchWords.
	for _, w := range strings.Fields("continue proceed go jump skip move head return loop come stop abort otherwise else no not never straight to step phase fail error") {
		if classify(w)&(wordMove|wordStop) != 0 && !mayBranch([]byte(w)) {
			t.Errorf("classify(%q) is a move or stop, but mayBranch is false", w)
		}
	}
	for _, s := range []string{"", "Do step 3 of the **procedure** with care.", "If the list is empty, tell the user; keep the answer short.", "Café — naïve"} {
		if mayBranch([]byte(s)) {
			t.Errorf("mayBranch(%q) = true", s)
		}
	}
}

// TestHasConditionWord: the shortcut says yes only where the regexp does.
func TestHasConditionWord(t *testing.T) {
	for _, s := range []string{"Use when x.", "WHEN", "if", "x, if y", "When: y", "whenever", "iffy", "swhen", "when_x", "x_if", "é when", "whené", "Kif", "If-then", "wh", ""} {
		if got := hasConditionWord(s); got && !whenInDescription.MatchString(s) {
			t.Errorf("hasConditionWord(%q) = true, the regexp does not match", s)
		}
	}
	for _, s := range []string{"Use when x.", "WHEN it rains", "x, if y", "If-then"} {
		if !hasConditionWord(s) {
			t.Errorf("hasConditionWord(%q) = false", s)
		}
	}
}
