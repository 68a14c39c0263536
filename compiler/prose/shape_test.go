package prose

import "testing"

func TestLeadCondition(t *testing.T) {
	for _, c := range []struct {
		text string
		kind Kind
		ok   bool
	}{
		{"If action is required, fix the issue.", Success, true},
		{"If no action is required, dismiss the alert.", Failure, true},
		{"If the rollup fails, use the logs.", Failure, true},
		{"When the build is green, merge it.", Success, true},
		{"Otherwise, dismiss it.", 0, false},
		{"If not, stop.", 0, false},
		{"Investigate the alert if it is real.", 0, false},
		{"If any test fails and no retry is left, stop.", 0, false}, // its side cannot be told
	} {
		got, ok := LeadCondition(c.text)
		if ok != c.ok || ok && got.Kind != c.kind {
			t.Errorf("LeadCondition(%q) = %+v, %v", c.text, got, ok)
		}
		if ok && (got.Start != 0 || got.End <= got.Start || got.End > len(c.text)) {
			t.Errorf("LeadCondition(%q): offsets %d-%d", c.text, got.Start, got.End)
		}
	}
}

func TestAfterRemedies(t *testing.T) {
	for _, c := range []struct {
		text, want string
	}{
		{"If none of the previous steps helped, try rebooting your machine.", "If none of the previous steps helped"},
		{"If you're still encountering issues after trying all of these steps, reach out to support.", "If you're still encountering issues after trying all of these steps"},
		{"If the above options do not work, escalate.", "If the above options do not work"},
		{"If the previous steps passed, go on.", ""}, // not a failure
		{"If it fails, retry.", ""},                  // no reference to the steps before
		{"Repeat the previous steps if needed.", ""},
	} {
		a, z, ok := AfterRemedies(c.text)
		got := ""
		if ok {
			got = c.text[a:z]
		}
		if got != c.want {
			t.Errorf("AfterRemedies(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestInOrder(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"To diagnose a failing acceptance test, use these options, in order.", true},
		{"Try the following fixes one at a time.", true},
		{"Try these solutions in turn:", true},
		{"Follow these steps in order:", false}, // steps of a procedure, not alternatives
		{"These options are cumulative.", false},
	} {
		if _, _, ok := InOrder(c.text); ok != c.ok {
			t.Errorf("InOrder(%q) = %v", c.text, ok)
		}
	}
}

func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		text string
		kind Kind
		ok   bool
	}{
		{"To diagnose a failing acceptance test, use these options, in order.", Failure, true},
		{"A passing acceptance test may be a false negative. To \"flip\" a passing acceptance test:", Success, true},
		{"If the build fails, follow these steps:", Failure, true},
		{"To run a focussed acceptance test:", 0, false},
		{"Whether a passing or a failing test, read the log:", 0, false}, // both
	} {
		k, _, _, ok := Outcome(c.text)
		if ok != c.ok || ok && k != c.kind {
			t.Errorf("Outcome(%q) = %v, %v", c.text, k, ok)
		}
	}
}

func TestReadExpectFail(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Run the acceptance test. Expect the test to fail.", "failure 4 (expected to fail)"},
		{"Expect it to fail when the token is missing.", ""},
		{"You can expect it to fail.", ""},
		{"Expect the test to pass.", ""},
	} {
		if got := show(Read(c.text, ctx)); got != c.want {
			t.Errorf("Read(%q)\n got %s\nwant %s", c.text, got, c.want)
		}
	}
}

func TestReadNoBlock(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"That is a separate artifact and must not block step 5.", "failure 5 (even if it fails)"},
		{"It does not block the next step.", "failure 4 (even if it fails)"},
		{"These do not block the rest of the review.", ""},
		{"It must not block step 2.", ""}, // an earlier step: no pass-through
		{"A red build blocks step 5.", ""},
	} {
		if got := show(Read(c.text, ctx)); got != c.want {
			t.Errorf("Read(%q)\n got %s\nwant %s", c.text, got, c.want)
		}
	}
}
