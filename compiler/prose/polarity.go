package prose

import "strings"

// polarity decides which edge a condition takes (FORMAT 6.4): one that
// reads as a failure ("the issue persists", "it fails") or as a negative
// ("it is not", "no records", "not found") takes the failure edge, any
// other the success edge. A negation that governs a failure word cancels it
// ("no errors", "it does not fail"). When a condition has both and the
// negation does not plainly govern the failure word ("any test fails and
// no retry is left"), the reader cannot tell, and why says so.
func polarity(ts []token) (Kind, string) {
	var fails, negs []int
	neither := false
	for i, t := range ts {
		if t.kind != tWord {
			continue
		}
		switch {
		case failureWord(t.text):
			fails = append(fails, i)
		case negationWord(t.text) || t.text == "other" && i+1 < len(ts) && ts[i+1].text == "than":
			if t.text == "nor" && neither {
				continue // "neither A nor B" is one negation
			}
			neither = neither || t.text == "neither"
			negs = append(negs, i)
		}
	}
	switch {
	case len(fails) == 0 && len(negs) == 0:
		return Success, ""
	case len(negs) == 0, len(fails) == 0:
		return Failure, ""
	}
	// Both: each negation must govern a failure word within three words,
	// and each failure word must be governed by a negation.
	governed := func(f int) bool {
		for _, n := range negs {
			if n < f && f-n <= 3 {
				return true
			}
		}
		return false
	}
	for _, f := range fails {
		if !governed(f) {
			return Success, "its condition mixes a negation and a failure word, so which edge it is cannot be told"
		}
	}
	for _, n := range negs {
		ok := false
		for _, f := range fails {
			if n < f && f-n <= 3 {
				ok = true
			}
		}
		if !ok {
			return Success, "its condition mixes a negation and a failure word, so which edge it is cannot be told"
		}
	}
	return Success, ""
}

// failureWord is a word that says something went wrong or did not change.
func failureWord(w string) bool {
	switch {
	case strings.HasPrefix(w, "fail"), strings.HasPrefix(w, "error"), strings.HasPrefix(w, "persist"),
		strings.HasPrefix(w, "reject"), strings.HasPrefix(w, "declin"), strings.HasPrefix(w, "crash"),
		strings.HasPrefix(w, "conflict"), strings.HasPrefix(w, "unsuccessful"), strings.HasPrefix(w, "timeout"),
		strings.HasPrefix(w, "invalid"):
		return true
	}
	switch w {
	case "still", "remains", "remain", "recurs", "recur", "reappears", "denied", "denies", "deny", "missing", "absent",
		"broken", "breaks", "break", "wrong", "unable", "red", "false", "stuck", "blocked", "refuses", "refused",
		"unresolved", "unavailable", "unreachable", "down", "bad", "incorrect", "mismatch", "mismatches", "failing":
		return true
	}
	return false
}

// negationWord is a word that negates what it governs.
func negationWord(w string) bool {
	switch w {
	case "not", "no", "never", "none", "nothing", "neither", "nor", "without", "cannot", "nobody", "nowhere":
		return true
	}
	return strings.HasSuffix(w, "n't") || w == "dont" || w == "doesnt" || w == "isnt" || w == "cant"
}
