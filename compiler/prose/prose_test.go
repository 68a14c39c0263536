package prose

import (
	"fmt"
	"strings"
	"testing"
)

// ctx is the skill of most cases: step 3 of 1, 1b, 2, 2.1, 3, 4, 4B, 5, 9.
var ctx = Context{Step: "3", Steps: []string{"1", "1b", "2", "2.1", "3", "4", "4B", "5", "9"}, Next: "4"}

// show writes a reading compactly: "failure 4 (the issue persists)",
// "success 2 back", "failure 3 back bound 3 then 5", "wait (X)", "global",
// "unread (why)".
func show(rd Reading) string {
	var out []string
	for _, e := range rd.Edges {
		s := fmt.Sprintf("%s %s", e.Kind, e.Target)
		if e.Back {
			s += " back"
		}
		if e.Bound > 0 {
			s += fmt.Sprintf(" bound %d", e.Bound)
		}
		if e.Then != "" {
			s += " then " + e.Then
		}
		if e.Label != "" {
			s += " (" + e.Label + ")"
		}
		out = append(out, s)
	}
	for _, w := range rd.Waits {
		out = append(out, "wait ("+w.What+")")
	}
	for range rd.Globals {
		out = append(out, "global")
	}
	for _, u := range rd.Unread {
		out = append(out, "unread ("+u.Why+")")
	}
	return strings.Join(out, "; ")
}

const (
	whyMixed   = "its condition mixes a negation and a failure word, so which edge it is cannot be told"
	whySkip    = "skipping a step is not an edge to another step; the step stays in the plan"
	whyStop    = "it stops under a condition that does not read as a failure"
	whySeveral = "it names several steps, not one target"
	whyOwn     = "it names the agent's own work, not something outside it to wait for"
)

// TestRead: the phrasings of issue 12 and those of the real write-ups
// (shared/realworld, realworld-eval, corpus), each with what it says.
func TestRead(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		// FORMAT 6.4: a condition and a move; polarity from the condition.
		{"If the issue persists, go to step 4.", "failure 4 (the issue persists)"},
		{"If it is, go to step 4. Otherwise, go to step 5.", "success 4 (it is); failure 5 (otherwise)"},
		{"If it is, go to step 4, otherwise go to step 5.", "success 4 (it is); failure 5 (otherwise)"},
		{"If the issue persists, go to step 4. Otherwise, you are done.", "failure 4 (the issue persists); success end (otherwise)"},
		{"If the issue persists, go to step 4. If not, go to step 5.", "failure 4 (the issue persists); success 5 (if not)"},
		{"Continue to step 4.", "success 4"},
		{"If the tests pass, continue to step 5.", "success 5 (the tests pass)"},
		{"If tests pass continue to step 5", "success 5 (tests pass)"},
		{"**If tests pass:** continue to Step 5.", "success 5 (tests pass)"},
		{"Skip to step 5.", "success 5"},
		{"Otherwise, skip directly to Step 5.", "failure 5 (otherwise)"},
		{"Else skip to step 5.", "failure 5 (otherwise)"},
		{"If not, skip to step 5.", "failure 5 (if not)"},
		{"If so, go straight to Step 5.", "success 5 (if so)"},
		{"| Version output | Proceed to Step 4 |", "success 4 (Version output)"},
		{"If the network rejects the dispute, skip to step 9.", "failure 9 (the network rejects the dispute)"},
		{"If the customer declines, go to step 5.", "failure 5 (the customer declines)"},
		{"If the record is not found, go to step 5.", "failure 5 (the record is not found)"},
		{"If there are no records, go to step 5.", "failure 5 (there are no records)"},
		{"If it cannot be reached, go to step 5.", "failure 5 (it cannot be reached)"},
		{"If it doesn't match, jump to step 5.", "failure 5 (it doesn't match)"},
		{"If it doesn’t match, jump to step 5.", "failure 5 (it doesn’t match)"},
		{"If the build fails, proceed to step 5.", "failure 5 (the build fails)"},
		{"If the tests do not pass, go to step 5.", "failure 5 (the tests do not pass)"},
		{"If you're still encountering issues, move on to step 5.", "failure 5 (you're still encountering issues)"},
		{"If the owner's reply is anything other than a clear yes, go to step 5.", "failure 5 (the owner's reply is anything other than a clear yes)"},
		// A negation that governs a failure word cancels it.
		{"If there are no errors, go to step 5.", "success 5 (there are no errors)"},
		{"If the issue does not persist, go to step 5.", "success 5 (the issue does not persist)"},
		{"If it completes without errors, continue to step 5.", "success 5 (it completes without errors)"},
		// Neither-nor is one negation.
		{"If neither CoreCLR nor NativeAOT is detected, stop.", "failure fail (neither CoreCLR nor NativeAOT is detected)"},
		// Unsure: read nothing, say why.
		{"If any test fails and no retry is left, go to step 5.", "unread (" + whyMixed + ")"},
		// The condition after the move.
		{"Go to step 5 if the build fails.", "failure 5 (the build fails)"},
		{"Go to step 5 when the build is green.", "success 5 (the build is green)"},
		{"Continue to step 5 unless the build fails.", "success 5 (unless the build fails)"},
		{"Unless the build is green, go to step 5.", "failure 5 (unless the build is green)"},
		// Targets.
		{"If tasks NOT found → continue to Step 1b.", "failure 1b back (tasks NOT found)"},
		{"**If tasks exist** → skip to [Step 5: Execute](#step-5-execute).", "success 5 (tasks exist)"},
		{"Proceed to **Step 4B** (architectural change detection)", "success 4B"},
		{"Proceed to step 4b.", "success 4B"},
		{"Go to step 2.1 now.", "success 2.1 back"},
		{"If it works, go to the next step.", "success 4 (it works)"},
		{"If it fails, return to the previous step.", "failure 2.1 back (it fails)"},
		{"When it is clean, skip to #present.", ""}, // no step "present" in ctx
		{"If it is clean, skip to the end.", "success end (it is clean)"},
		{"Go to step 7.", "unread (step 7 names no step of this skill)"},
		{"Go to the store and buy milk.", ""},
		{"Go to phase 4.", ""}, // the steps are not phases
		{"Proceed with the steps as written.", ""},
		{"Proceed to steps 4-5.", "unread (" + whySeveral + ")"},
		{"- **YES** → Go to Step 4", "success 4 (YES)"},
		{"- **NO** → Go to Step 5", "failure 5 (NO)"},
		// Terminals.
		{"If this resolves it, you are done.", "success end (this resolves it)"},
		{"If this resolves it, you're done.", "success end (this resolves it)"},
		{"Confirm the project. If not, stop.", "failure fail (if not)"},
		{"If there is no concrete code anchor, stop and ask for one.", "failure fail (there is no concrete code anchor)"},
		{"If no PR exists on the branch, stop and tell the user.", "failure fail (no PR exists on the branch)"},
		{"If HubSpot is unavailable, stop.", "failure fail (HubSpot is unavailable)"},
		{"If the tag pipeline fails, stop and report it.", "failure fail (the tag pipeline fails)"},
		{"Stop and ask the user.", "failure fail"},
		{"Report and stop.", ""}, // a normal end, not a failure
		{"Stop the server, then continue.", ""},
		{"Don't stop here.", ""},
		{"If it's a security incident, STOP.", "unread (" + whyStop + ")"},
		{"uip: command not found | Tell user to install the CLI. Stop", "failure fail (uip: command not found)"},
		// A condition carried into the sentence that moves.
		{"If this returns a value, you're ready. Skip to Step 5.", "success 5 (this returns a value)"},
		{"If this returns a value, you're ready.\n\nSkip to Step 5.", "success 5"},
		// Skipping is not an edge.
		{"If you do not use it, skip this step.", "unread (" + whySkip + ")"},
		{"Skip step 5 when nothing changed.", "unread (" + whySkip + ")"},
		// Loops (FORMAT 6.5).
		{"If any fail, go back to step 2.", "failure 2 back (any fail)"},
		{"Go back to step 1.", "success 1 back"},
		{"Loop back to step 2 if the check fails.", "failure 2 back (the check fails)"},
		{"Return to step 1.", "success 1 back"},
		{"Recreate it, starting again from **1.**", "success 1 back"},
		{"If feedback received, revise the plan and go back to Step 1.", "success 1 back (feedback received)"},
		{"`Converged: false` → loop back to step 1 for another round", "failure 1 back (Converged: false)"},
		{"If it fails, go back to step 2, up to 3 times.", "failure 2 back bound 3 (it fails)"},
		{"If it fails, go back to step 2 (at most 3 times, then go to step 5).", "failure 2 back bound 3 then 5 (it fails)"},
		{"If it fails, go back to step 2 (at most three times, then stop).", "failure 2 back bound 3 then fail (it fails)"},
		{"If it fails, retry up to 3 times.", "failure 3 back bound 3 (it fails)"},
		{"Retry up to 5 times, then go to step 5.", "failure 3 back bound 5 then 5"},
		{"If it fails with an INSUFFICIENT_SCOPES error, ask the user to refresh the token and retry.", "failure 3 back (it fails with an INSUFFICIENT_SCOPES error)"},
		{"It is safe to retry.", ""},
		{"Retry the request in a few minutes.", ""},
		{"Repeat until the queue is empty.", "failure 3 back (until the queue is empty)"},
		{"Repeat from step 2 until the tests pass.", "failure 2 back (until the tests pass)"},
		{"Repeat steps 1-2 until nothing is left.", "failure 1 back (until nothing is left)"},
		{"Otherwise sleep 30 seconds and repeat.", "failure 3 back (otherwise)"},
		{"If rebasing, continue the rebase process until all commits are rebased.", "failure 3 back (rebasing, until all commits are rebased)"},
		{"Keep tracing up until you find the source.", "failure 3 back (until you find the source)"},
		{"The loop then continues automatically until completion.", ""},
		{"Go back to step 4.", "unread (it says to go back, but step \"4\" comes after this one)"},
		// Waiting (FORMAT 6.6).
		{"Do not proceed until the customer confirms.", "wait (the customer confirms)"},
		{"**Do not proceed until user responds.**", "wait (user responds)"},
		{"Ask the user to confirm. Do not proceed until confirmed.", "wait (confirmed)"},
		{"Don't advance until the owner has signed off.", "wait (the owner has signed off)"},
		{"Do not proceed to Steps 7–8 without explicit confirmation.", "wait (explicit confirmation)"},
		{"Do NOT proceed to Phase 3 until the user confirms the reconstruction is accurate.", "wait (the user confirms the reconstruction is accurate)"},
		{"Wait for approval.", "wait (approval)"},
		{"Wait for the customer's signed form (see the policy).", "wait (the customer's signed form)"},
		{"Wait for specific network responses before asserting.", ""},
		{"Do not proceed until you have reproduced **and** minimised.", "unread (" + whyOwn + ")"},
		{"Don't proceed to writing until you have the title.", ""},
		{"Do not skip items, do not present without them.", ""},
		{"This skill only applies to .NET applications — do not proceed.", ""},
		// Statements for every step.
		{"Continue to the next step even if a previous step fails.", "global"},
		{"Continue even if this step fails.", "failure 4 (even if this step fails)"},
		// Prose that is not an instruction to move.
		{"Before you proceed to step 4, check the logs.", ""},
		{"When you are done reading, then proceed to do the next step.", ""},
		{"When they try again they can continue with Step 1.", ""},
		{`Run "go to step 4" in the shell.`, ""},
		{"See step 4 for details.", ""},
		// A move under a condition that names no step: on to the next.
		{"If a deletion fails, report the error and continue with remaining deletions.", "failure 4 (a deletion fails)"},
		{"If either or both are missing, proceed with the **native fallback** approach: use `find`.", "failure 4 (either or both are missing)"},
		{"If PayPal is not connected, note it in the draft and continue.", "failure 4 (PayPal is not connected)"},
		{"If it is already tagged, proceed anyway.", "success 4 (it is already tagged)"},
		{"If rebasing, continue the rebase process.", ""},
		{"If the build fails, continue debugging.", ""},
		{"If the build fails, proceed to writing the report.", ""},
		{"If an issue has no commits, list it as skipped and move on.", ""},
		{"If neither is available, ask if they want to install it or proceed with visual-only analysis.", ""},
		{"Continue with the remaining deletions.", ""},
	} {
		if got := show(Read(c.text, ctx)); got != c.want {
			t.Errorf("Read(%q)\n got %s\nwant %s", c.text, got, c.want)
		}
		if got := show(Read(c.text, indexed)); got != c.want {
			t.Errorf("Read(%q) with an Index\n got %s\nwant %s", c.text, got, c.want)
		}
	}
}

// indexed is ctx with its Index, as the compiler gives it.
var indexed = func() Context {
	c := ctx
	c.Index = map[string]int{}
	for i, id := range c.Steps {
		c.Index[id] = i
	}
	return c
}()

// TestReadPhases: "phase N" names a step when the steps are phases.
func TestReadPhases(t *testing.T) {
	c := ctx
	c.Phases = true
	if got := show(Read("If the design is rejected, return to phase 1.", c)); got != "failure 1 back (the design is rejected)" {
		t.Errorf("got %s", got)
	}
	if got := show(Read("Then move on to the next phase.", c)); got != "success 4" {
		t.Errorf("got %s", got)
	}
}

// TestReadNames: a step named by its title, after a move verb or an
// arrow: the whole title in any case, or the name before its dash as the
// title writes it.
func TestReadNames(t *testing.T) {
	c := Context{Step: "4", Steps: []string{"1", "2", "3A", "3B", "4", "5"}, Next: "5",
		Names: []string{"SCOPE — Map the Feature Boundary", "Determine Scan Mode", "Full Scan", "Delta Scan", "FIX — Repair Everything", ""}}
	for _, tc := range []struct{ text, want string }{
		{"If a fix breaks something else, go back to SCOPE.", "failure 1 back (a fix breaks something else)"},
		{"If a fix breaks something else, go back to Scope.", ""}, // the short name as the title writes it
		{"- **Does not exist** → FULL SCAN (first run)\n- **Exists** → DELTA SCAN", "failure 3A back (Does not exist); success 3B back (Exists)"},
		{"If it is new, go to the full scan.", "success 3A back (it is new)"},
		{"If it is new, go to full scan results.", ""}, // more words follow: not the title
		{"| Exists | Delta Scan |", ""},                // a table cell is no move
		{"Exists → delta scanning", ""},
	} {
		if got := show(Read(tc.text, c)); got != tc.want {
			t.Errorf("Read(%q)\n got %s\nwant %s", tc.text, got, tc.want)
		}
	}
	// Two steps of one name are no target.
	c.Names = []string{"Review", "Review", "", "", "", ""}
	if got := show(Read("If it fails, go back to review.", c)); got != "" {
		t.Errorf("ambiguous name: got %s", got)
	}
}

// TestReadOffsets: an edge's offsets are its clause's, and Quote is the
// text between them without markup.
func TestReadOffsets(t *testing.T) {
	text := "Restart it.\n\n**If the issue persists**, go to step 4. Done."
	rd := Read(text, ctx)
	if len(rd.Edges) != 1 {
		t.Fatalf("edges %+v", rd.Edges)
	}
	e := rd.Edges[0]
	if got := text[e.Start:e.End]; got != "If the issue persists**, go to step 4" {
		t.Errorf("range %q", got)
	}
	if e.Quote != "If the issue persists, go to step 4" {
		t.Errorf("quote %q", e.Quote)
	}
}

// TestReadLast: "otherwise" after the last step goes to the end.
func TestReadLast(t *testing.T) {
	c := Context{Step: "2", Steps: []string{"1", "2"}, Next: End}
	if got := show(Read("If it works, continue to the next step. Otherwise, go back to step 1.", c)); got != "success end (it works); failure 1 back (otherwise)" {
		t.Errorf("got %s", got)
	}
}

// FuzzRead: the reader never panics, its offsets lie within the text in
// order, and every target is a step of the context or a terminal.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"If the issue persists, go to step 4. Otherwise, you are done.",
		"Do not proceed to Steps 7–8 without explicit confirmation.",
		"If it fails, go back to step 2 (at most 3 times, then go to step 5).",
		"| a | Proceed to Step 2 |\n- **NO** → Go to Step 5",
		"Continue to the next step even if a previous step fails.",
		"\"quoted “curly go to step 1”",
		"If not, stop. Repeat until done. Wait for approval.",
		"- **Exists** → FULL SCAN (first run)\nIf it fails, go back to SCOPE.",
		"If none of the previous steps helped, try these options, in order. To fix a failing test:",
		"It must not block step 4. Expect the test to fail. If it fails, continue with the rest.",
	} {
		f.Add(s)
	}
	valid := map[string]bool{End: true, Fail: true}
	for _, id := range ctx.Steps {
		valid[id] = true
	}
	named := ctx
	named.Names = []string{"SCOPE — Map it", "", "Full Scan", "", "Delta Scan", "Review", "Review", "", "x"}
	f.Fuzz(func(t *testing.T, text string) {
		rd := Read(text, ctx)
		more := Read(text, named) // steps named by their titles
		rd.Edges = append(rd.Edges, more.Edges...)
		rd.Unread = append(rd.Unread, more.Unread...)
		for _, fn := range []func(string) (int, int, bool){AfterRemedies, InOrder} {
			if a, z, ok := fn(text); ok && (a < 0 || z > len(text) || a > z) {
				t.Fatalf("offsets %d-%d outside %q", a, z, text)
			}
		}
		if c, ok := LeadCondition(text); ok && (c.Start < 0 || c.End > len(text) || c.Start > c.End) {
			t.Fatalf("condition %+v outside %q", c, text)
		}
		if _, a, z, ok := Outcome(text); ok && (a < 0 || z > len(text) || a > z) {
			t.Fatalf("outcome %d-%d outside %q", a, z, text)
		}
		in := func(what string, start, end int) {
			if start < 0 || end > len(text) || start > end {
				t.Fatalf("%s [%d,%d) outside %d bytes of %q", what, start, end, len(text), text)
			}
		}
		for _, e := range rd.Edges {
			in("edge", e.Start, e.End)
			if !valid[e.Target] || e.Then != "" && !valid[e.Then] {
				t.Fatalf("edge to %q then %q in %q", e.Target, e.Then, text)
			}
		}
		for _, w := range rd.Waits {
			in("wait", w.Start, w.End)
		}
		for _, g := range rd.Globals {
			in("global", g.Start, g.End)
		}
		for _, u := range rd.Unread {
			in("unread", u.Start, u.End)
		}
	})
}

// BenchmarkRead: the reader is linear in its text.
func BenchmarkRead(b *testing.B) {
	text := strings.Repeat("If the issue persists, go to step 4. Otherwise, you are done. Wait for approval. ", 200)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Read(text, ctx)
	}
}
