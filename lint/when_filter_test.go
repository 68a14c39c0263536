package lint

import (
	"regexp"
	"strings"
	"testing"
)

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

// whenLineCases are lines around the edges of saysWhenToUse's shortcuts:
// each form of the sentences, words that only start like one, words with
// a needle inside, commas before "use", headings, and the folds (?i)
// allows.
var whenLineCases = []string{
	"Use this skill when the user asks.", "use it for refunds", "Invoke me if", "APPLY THIS WHEN", "Load the skill for x",
	"When the user asks, check.", "Done. If you need it, ask.", "**When** the user", "x: if a customer",
	"To style slides, use this skill.", "to do x,use it", "To do x,\tUSE THE SKILL now", "to x, used it", "To x,use",
	"user asked", "reuse", "causes", "swhen", "elif", "unloaded", "x, use", ",use this",
	"Do step 3 of the **procedure** with care.", "- tools: `list_records`, ask_user", "", "u", "if", "_if the user",
	"uſe this when", "invoKe this when", "İf the user", "é when", "3when", "x.when the user", "To x, uſe it",
	"## When to use", "   # Use cases", "#### Triggers", "####### When", "# Notes", "x ## when",
}

// saysWhenToUseBefore is what saysWhenToUse was before its shortcuts: the
// heading regexp and one sentence regexp with toSentence's form as a third
// alternative.
var saysWhenToUseBefore = regexp.MustCompile(`(?i)^\s{0,3}#{1,6}\s.*\b(when|use cases?|triggers?)\b|` +
	`(?i)\b(use|invoke|apply|load)\s+(it|this|this skill|the skill|me)?\s*(when|whenever|if|for)\b|(^|[.!?:]\s+|\*\*)(when|whenever|if)\s+(the\s+|a\s+|an\s+)?(user|you|customer|someone|agent|asked)\b|(^|[.!?]\s+)to\s+[^.!?]{1,160},\s*use\s+(it|this|this skill|the skill)\b`)

// TestSaysWhenToUse: the shortcuts change no answer, and do turn away
// plain step lines without a regexp.
func TestSaysWhenToUse(t *testing.T) {
	for _, s := range whenLineCases {
		if got, want := saysWhenToUse([]byte(s)), saysWhenToUseBefore.MatchString(s); got != want {
			t.Errorf("saysWhenToUse(%q) = %v, before the shortcuts %v", s, got, want)
		}
	}
	for _, s := range []string{"Do step 3 of the **procedure** with care.", "- tools: `list_records`, ask_user", "reuse", "swhen", "3when", ""} {
		if mayBeWhenSentence([]byte(s)) && mayBeToSentence([]byte(s)) {
			t.Errorf("both shortcuts let %q through", s)
		}
	}
}

// FuzzSaysWhenToUse: whatever the line, the shortcuts change no answer.
func FuzzSaysWhenToUse(f *testing.F) {
	for _, s := range whenLineCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "\n") {
			return // the rule asks of one line at a time
		}
		if got, want := saysWhenToUse([]byte(s)), saysWhenToUseBefore.MatchString(s); got != want {
			t.Errorf("saysWhenToUse(%q) = %v, before the shortcuts %v", s, got, want)
		}
	})
}
