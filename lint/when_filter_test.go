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

// mayBeWhenSentenceCases are lines around the edges of the shortcut:
// each form of whenSentence, words that only start like one, words with a
// needle inside, and the folds (?i) allows.
var mayBeWhenSentenceCases = []string{
	"Use this skill when the user asks.", "use it for refunds", "Invoke me if", "APPLY THIS WHEN", "Load the skill for x",
	"When the user asks, check.", "Done. If you need it, ask.", "**When** the user", "x: if a customer",
	"To style slides, use this skill.", "to do x,use it", "user asked", "reuse", "causes", "swhen", "elif", "unloaded",
	"Do step 3 of the **procedure** with care.", "- tools: `list_records`, ask_user", "", "u", "if", "_if the user",
	"uſe this when", "invoKe this when", "İf the user", "é when", "3when", "x.when the user",
}

// TestMayBeWhenSentence: the shortcut turns away only lines the regexp
// would not match, and does turn away plain step lines.
func TestMayBeWhenSentence(t *testing.T) {
	for _, s := range mayBeWhenSentenceCases {
		if whenSentence().MatchString(s) && !mayBeWhenSentence([]byte(s)) {
			t.Errorf("mayBeWhenSentence(%q) = false, the regexp matches", s)
		}
	}
	for _, s := range []string{"Do step 3 of the **procedure** with care.", "- tools: `list_records`, ask_user", "reuse", "swhen", "3when", ""} {
		if mayBeWhenSentence([]byte(s)) {
			t.Errorf("mayBeWhenSentence(%q) = true", s)
		}
	}
}

// FuzzMayBeWhenSentence: no line the shortcut turns away matches the
// regexp.
func FuzzMayBeWhenSentence(f *testing.F) {
	for _, s := range mayBeWhenSentenceCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if whenSentence().MatchString(s) && !mayBeWhenSentence([]byte(s)) {
			t.Errorf("mayBeWhenSentence(%q) = false, the regexp matches", s)
		}
	})
}
