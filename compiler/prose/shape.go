package prose

import "strings"

// hasPrefixFold reports whether s begins with p, in any case. p is
// lowercase ASCII and starts with a letter other than k or s, the only
// ones a non-ASCII letter folds to: so a first byte that differs in ASCII
// case settles it without EqualFold's call (most sentences and goals are
// turned away there).
func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && s[0]|0x20 == p[0] && strings.EqualFold(s[:len(p)], p)
}

// This file reads the sentences that tell the shape of a procedure rather
// than one step's branch: a step that opens with its own condition ("If
// the rollup fails, ..."), the remark that earlier steps were remedies
// tried in turn ("If none of the previous steps helped, ..."), and the
// words that introduce a part of a procedure as the way for one outcome
// ("To diagnose a failing test, use these options, in order").

// Condition is a condition clause read at the head of a text.
type Condition struct {
	Label string
	Kind  Kind
	// Start and End are the byte offsets of the clause ("If ... ,").
	Start, End int
}

// LeadCondition reads the condition a text opens with: "If action is
// required, fix the issue" is a Success condition, "If no action is
// required, dismiss the alert" a Failure one. ok is false when the text
// does not open with "if", "when", "unless" or "in case", when the
// condition is "otherwise" or "if not" (the other side of something
// before), or when its side cannot be told.
func LeadCondition(text string) (Condition, bool) {
	t := strings.TrimLeft(text, "*_ \t")
	if !hasPrefixFold(t, "if ") && !hasPrefixFold(t, "when ") && !hasPrefixFold(t, "unless ") && !hasPrefixFold(t, "in case ") {
		return Condition{}, false // most goals: no tokens made
	}
	ts := tokenize(text, nil)
	if len(ts) == 0 || ts[0].kind != tWord {
		return Condition{}, false
	}
	switch ts[0].text {
	case "if", "when", "unless", "in":
	default:
		return Condition{}, false
	}
	r := &reader{text: text, pos: -1}
	c, n, ok := r.condition(ts, 0)
	if !ok || c.other || c.why != "" {
		return Condition{}, false
	}
	end := ts[n-1].end
	return Condition{Label: c.label, Kind: c.kind, Start: c.from, End: end}, true
}

// earlierWords refer back to the steps before; remedyWords name them as
// things tried.
var earlierWords = map[string]bool{"previous": true, "above": true, "earlier": true, "prior": true, "preceding": true, "these": true, "those": true}

// earlierList is earlierWords as a list, for mayFollowRemedies.
var earlierList = []string{"previous", "above", "earlier", "prior", "preceding", "these", "those"}

var remedyWords = map[string]bool{"steps": true, "options": true, "fixes": true, "solutions": true, "remedies": true,
	"suggestions": true, "methods": true, "things": true, "workarounds": true, "approaches": true}

// AfterRemedies finds the sentence that says the steps before were
// remedies tried in turn: a condition that reads as a failure and refers
// back to them ("If none of the previous steps helped, try rebooting",
// "If you're still encountering issues after trying all of these steps,
// reach out to support"). It returns the clause's offsets, or ok false.
func AfterRemedies(text string) (start, end int, ok bool) {
	if !mayFollowRemedies(text) {
		return 0, 0, false // most steps: no tokens made
	}
	return afterRemedies(text)
}

// mayFollowRemedies reports whether text may hold what AfterRemedies
// reads: "if" or "when", and a word of earlierWords. Their tokens are
// those ASCII letters, in any case, in the text: lowercasing makes them of
// no other character ("\u212a" is "k", in none of them, and "İ" is "i"
// with a dot above). So text without them is not tokenized: AfterRemedies
// runs on the last step of every skill.
func mayFollowRemedies(text string) bool {
	if !containsFold(text, "if") && !containsFold(text, "when") {
		return false
	}
	for _, w := range earlierList {
		if containsFold(text, w) {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds w, a lowercase ASCII word, in any
// ASCII case: b|0x20 is a lowercase letter only for that letter and its
// capital.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i]|0x20 != w[0] {
			continue
		}
		k := 1
		for k < len(w) && s[i+k]|0x20 == w[k] {
			k++
		}
		if k == len(w) {
			return true
		}
	}
	return false
}

// afterRemedies is AfterRemedies without the prefilter.
func afterRemedies(text string) (start, end int, ok bool) {
	ts := tokenize(text, nil)
	r := &reader{text: text, pos: -1}
	for i, t := range ts {
		if t.kind != tWord || t.text != "if" && t.text != "when" || i > 0 && ts[i-1].kind == tWord {
			continue
		}
		c, n, ok := r.condition(ts, i)
		if !ok || c.other || c.why != "" || c.kind != Failure {
			continue
		}
		for k := i + 1; k < n; k++ {
			if !earlierWords[ts[k].text] {
				continue
			}
			for m := k + 1; m < n && m <= k+2; m++ {
				if remedyWords[ts[m].text] {
					return c.from, ts[n-1].end, true
				}
			}
		}
	}
	return 0, 0, false
}

// InOrder reports whether text introduces alternatives to try one after
// another ("use these options, in order", "try the following fixes one at
// a time"): a word of remedyWords other than "steps", and "in order", "in
// turn", "one at a time" or "one by one". It returns the offsets of the
// words read.
func InOrder(text string) (start, end int, ok bool) {
	// "order", "turn" or "one", in any case, or no tokens: as in
	// mayFollowRemedies, lowercasing makes them of no other character.
	// Most procedures are introduced by a heading alone.
	if !containsFold(text, "order") && !containsFold(text, "turn") && !containsFold(text, "one") {
		return 0, 0, false
	}
	return inOrder(text)
}

// inOrder is InOrder without the prefilter.
func inOrder(text string) (start, end int, ok bool) {
	ts := tokenize(text, nil)
	noun := -1
	for i, t := range ts {
		if t.kind != tWord {
			continue
		}
		if remedyWords[t.text] && t.text != "steps" && t.text != "things" {
			noun = i
		}
		if noun < 0 {
			continue
		}
		w := func(k int) string {
			if k < len(ts) && ts[k].kind == tWord {
				return ts[k].text
			}
			return ""
		}
		switch {
		case t.text == "in" && (w(i+1) == "order" || w(i+1) == "turn"):
			return ts[noun].start, ts[i+1].end, true
		case t.text == "one" && (w(i+1) == "by" && w(i+2) == "one" || w(i+1) == "at" && w(i+2) == "a" && w(i+3) == "time"):
			return ts[noun].start, ts[min(i+3, len(ts)-1)].end, true
		}
	}
	return 0, 0, false
}

// Outcome reads the outcome a text introducing part of a procedure names:
// "To diagnose a failing acceptance test, ..." is for Failure, "To flip a
// passing acceptance test" for Success, "If the build fails, follow these
// steps" for Failure. ok is false when it names none, or both.
func Outcome(text string) (Kind, int, int, bool) {
	if c, ok := LeadCondition(text); ok {
		return c.Kind, c.Start, c.End, true
	}
	ts := tokenize(text, nil)
	found, kind, start, end := false, Success, 0, 0
	for i, t := range ts {
		if t.kind != tWord || i == 0 || ts[i-1].kind != tWord {
			continue
		}
		switch ts[i-1].text {
		case "a", "an", "the":
		default:
			continue
		}
		var k Kind
		switch t.text {
		case "failing", "failed", "broken", "erroring", "unsuccessful":
			k = Failure
		case "passing", "passed", "successful", "succeeding", "working", "green":
			k = Success
		default:
			continue
		}
		if found && k != kind {
			return Success, 0, 0, false
		}
		found, kind, start, end = true, k, ts[i-1].start, t.end
		if i+1 < len(ts) && ts[i+1].kind == tWord {
			end = ts[i+1].end
		}
	}
	return kind, start, end, found
}
