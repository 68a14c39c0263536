package compiler

import "testing"

// TestMayBeStepHeading: the shortcut rules out only text headingStep does
// not match.
func TestMayBeStepHeading(t *testing.T) {
	for _, s := range []string{"Step 1: a", "STEP 2", "step\t3 - x", "ſtep 4: x", "1. a", "12. b", "Steps", "Skill 0", "Notes", "", "Step", "Step:", "Stepping 1", "s", "Step 1", "St3p 1", "x Step 1"} {
		if headingStep().MatchString(s) && !mayBeStepHeading(s) {
			t.Errorf("mayBeStepHeading(%q) = false, but headingStep matches", s)
		}
	}
	for _, s := range []string{"Steps", "Skill 0", "Notes", "When to use"} {
		if mayBeStepHeading(s) {
			t.Errorf("mayBeStepHeading(%q) = true", s)
		}
	}
}

func TestParseStepHeading(t *testing.T) {
	tests := []struct {
		text               string
		ok                 bool
		keyword, id, title string
	}{
		{"Step 1: Find it", true, "step", "1", "Find it"},
		{"Step 3", true, "step", "3", ""},
		{"Step 01 - Go", true, "step", "1", "Go"},
		{"Step 2 -- Check", true, "step", "2", "Check"},
		{"Step 2 — Check", true, "step", "2", "Check"},
		{"Phase 1 — Build a loop", true, "phase", "1", "Build a loop"},
		{"PHASE 4: Dirty state", true, "phase", "4", "Dirty state"},
		{"GATE 1: Present", true, "gate", "1", "Present"},
		{"Part 2: Contain", true, "part", "2", "Contain"},
		{"Step 1b: Classify", true, "step", "1b", "Classify"},
		{"Step 3A: Full scan", true, "step", "3A", "Full scan"},
		{"Step 0: Set up", true, "step", "0", "Set up"},
		{"1) Define the capture", true, "", "1", "Define the capture"},
		{"3. Title", true, "", "3", "Title"},
		{"2.1 Narrow", true, "", "2.1", "Narrow"},
		{"2.1. Narrow", true, "", "2.1", "Narrow"},
		{"2a. Audit", false, "", "", ""},         // a letter needs a keyword
		{"2024 roadmap", false, "", "", ""},      // no separator
		{"Step 5, once done", false, "", "", ""}, // prose
		{"Steps", false, "", "", ""},
		{"Stepping 1: x", false, "", "", ""},
		{"1.", false, "", "", ""},
		{"Step 1 Title", false, "", "", ""},
	}
	for _, tt := range tests {
		h := stepHeading{number: -1}
		ok := parseStepHeading(tt.text, &h)
		if ok != tt.ok || ok && (h.keyword != tt.keyword || h.id != tt.id || h.title != tt.title) {
			t.Errorf("parseStepHeading(%q) = %v %q %q %q, want %v %q %q %q", tt.text, ok, h.keyword, h.id, h.title, tt.ok, tt.keyword, tt.id, tt.title)
		}
	}
}

func TestIsReferenceTitle(t *testing.T) {
	for title, want := range map[string]bool{
		"Invariants": true, "Core rules": true, "Escalation triggers": true,
		"Regenerate demo constraints": false, "Gather context": false, "Anchor & primary evidence": false,
	} {
		if got := isReferenceTitle(title); got != want {
			t.Errorf("isReferenceTitle(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestSentenceEnd(t *testing.T) {
	tests := map[string]string{
		"Pull the leads. Then sort them.":   "Pull the leads.",
		"Use a tool, e.g. curl. Then stop.": "Use a tool, e.g. curl.",
		"Is it there? Check.":               "Is it there?",
		"One sentence only.":                "",
		"Pick (a, b, etc.). Then go.":       "",
	}
	for s, want := range tests {
		got := ""
		if i := sentenceEnd(s); i > 0 {
			got = s[:i]
		}
		if got != want {
			t.Errorf("sentenceEnd(%q) cuts %q, want %q", s, got, want)
		}
	}
}
