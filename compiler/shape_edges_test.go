package compiler

import (
	"fmt"
	"strings"
	"testing"
)

// edges writes a compiled skill's edges compactly: "1>2/fail 2>end/fail",
// with a * after an edge read from the shape.
func edges(t *testing.T, src string, opts Options) string {
	t.Helper()
	s, _ := Compile("t.md", []byte(src), opts)
	tm := s.Template()
	var out []string
	for i, st := range s.Steps {
		mark := func(e Edge) string {
			if e.From == FromShape {
				return "*"
			}
			return ""
		}
		out = append(out, fmt.Sprintf("%s>%s%s/%s%s", st.ID, tm.Steps[i].NextOnSuccess, mark(st.Success), tm.Steps[i].NextOnFailure, mark(st.Failure)))
	}
	return strings.Join(out, " ")
}

// TestShapeEdges: the decisions a write-up states by its shape, and the
// shapes that state none.
func TestShapeEdges(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"alternative steps", "# T\n\n1. **Investigate the alert** to see if it is real.\n2. If **action is required**, fix the issue.\n3. If **no action is required**, dismiss the alert.\n",
			"1>2*/3* 2>end*/fail 3>end/fail"},
		{"alternatives whose own prose loops", "# T\n\n1. Create the rollup.\n2. Run the command.\n3. If the rollup fails, find the offending PR. Then recreate it without it, starting again from 1.\n4. If the rollup succeeds, proceed to the next rollup.\n",
			"1>2/fail 2>4*/3* 3>1/fail 4>end/fail"},
		{"two conditions of different things", "# T\n\n1. Inspect the pods.\n2. If pods are in CrashLoopBackOff, check their logs for failures.\n3. If needed, check the DaemonSet.\n4. Check the nodes.\n",
			"1>2/fail 2>3/fail 3>4/fail 4>end/fail"},
		{"one conditional step", "# T\n\n1. Add the label.\n2. If the team thinks it should be backported, they add the accepted label.\n3. Make the rollup.\n",
			"1>2/fail 2>3/fail 3>end/fail"},
		{"lettered branches", "# T\n\n## Step 1: Mode\n\nIf the doc is missing, go to step 2A. Otherwise, go to step 2B.\n\n## Step 2A: Full\n\nScan all.\n\n## Step 2B: Delta\n\nScan changes.\n\n## Step 3: Report\n\nSay it.\n",
			"1>2B/2A 2A>3*/fail 2B>3/fail 3>end/fail"},
		{"a lettered step without a sibling", "# T\n\n## Step 1: A\n\nx\n\n## Step 1b: B\n\ny\n\n## Step 2: C\n\nz\n",
			"1>1b/fail 1b>2/fail 2>end/fail"},
		{"remedies said after", "# T\n\n## Check the settings\n\n1. Open them.\n2. Look.\n\n## Restart the app\n\n1. Quit.\n2. Reopen.\n\n## Reboot\n\nIf none of the previous steps helped, try rebooting.\n\n1. Save files.\n2. Restart.\n",
			"1>end*/2* 2>end*/3* 3>end*/fail"},
		{"remedies introduced", "# T\n\nTo run a test:\n\n1. Run it.\n1. Read the output.\n\nTo diagnose a failing test, use these options, in order:\n\n1. Run it again.\n1. Turn on verbose output.\n",
			"1>2/fail 2>3/fail 3>end*/4* 4>end*/fail"},
		{"remedies said after the list", "# T\n\n1. Restart the app.\n2. Restart the browser.\n3. Reboot.\n\nIf you're still encountering issues after trying all of these steps, reach out to support.\n",
			"1>end*/2* 2>end*/3* 3>end*/fail"},
		{"a list of steps in order is no ladder", "# T\n\nTo set up, follow these steps in order:\n\n1. Install it.\n2. Configure it.\n",
			"1>2/fail 2>end/fail"},
		{"parts for each outcome", "# T\n\nTo run a test:\n\n1. Run it.\n1. Read the output.\n\nTo diagnose a failing test:\n\n1. Run it again.\n1. Read the logs.\n\nTo flip a passing test:\n\n1. Edit a check.\n1. Run it. Expect the test to fail.\n1. Undo the edit.\n",
			"1>2/fail 2>5*/3* 3>4/fail 4>end*/fail 5>6/fail 6>7/7 7>end/fail"},
		{"a checklist of questions", "# T\n\nThings to look at:\n\n1. Is the spike isolated?\n2. Is modsec on?\n3. Read the logs.\n4. Is there a wider impact?\n",
			"1>2/2* 2>3/3* 3>4/4* 4>end/end*"},
		{"questions with a branch of their own", "# T\n\n1. Is the spike isolated?\n2. Is modsec on? If not, go to step 4.\n3. Is there a wider impact?\n4. Report.\n",
			"1>2/fail 2>3/4 3>4/fail 4>end/fail"},
		{"too few questions", "# T\n\n1. Is the spike isolated?\n2. Is modsec on?\n3. Read the logs.\n",
			"1>2/fail 2>3/fail 3>end/fail"},
		{"a summary list is not a part", "# T\n\n1. Nominate it.\n2. Accept it.\n\nIn summary, there are two states:\n\n1. `nominated`: Needs attention.\n2. `accepted`: Done.\n",
			"1>2/fail 2>end/fail"},
		{"a step that repeats its part", "# T\n\n### Step 1: Set up\n\nInstall it.\n\n### Step 2: Start\n\nRun it.\n\n## Core Loop\n\n1. **Review** - Read it\n2. **Fix** - Fix it\n3. **Repeat** - Continue until the quality bar is met\n",
			"1>2/fail 2>3/fail 3>4/fail 4>5/fail 5>end/3"},
		{"a step that must not block the next", "# T\n\n1. Tag it.\n2. Write the release notes. They must not block step 3.\n3. Bump master.\n",
			"1>2/fail 2>3/3 3>end/fail"},
	} {
		if got := edges(t, c.src, Options{}); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		// Strict reads v1 only: every edge is the default.
		for _, e := range strings.Fields(edges(t, c.src, Options{Strict: true})) {
			if strings.Contains(e, "*") {
				t.Errorf("%s: strict read a shape edge: %s", c.name, e)
			}
		}
	}
}

// TestShapeEdgesUndone: a shape edge that would lose a step is undone,
// without a record and without a word about prose the step does not have.
func TestShapeEdgesUndone(t *testing.T) {
	src := "# T\n\n## Step 1: Mode\n\nPick one.\n\n## Step 2A: Full\n\nScan all.\n\n## Step 2B: Delta\n\nScan changes.\n\n## Step 3: Report\n\nSay it.\n"
	if got, want := edges(t, src, Options{}), "1>2A/fail 2A>2B/fail 2B>3/fail 3>end/fail"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	s, _ := Compile("t.md", []byte(src), Options{})
	for _, st := range s.Steps {
		if st.ProseDropped() != "" {
			t.Errorf("step %s: ProseDropped %q", st.ID, st.ProseDropped())
		}
		for _, inf := range st.Inferences() {
			if inf.Kind == EdgeShape {
				t.Errorf("step %s keeps the record %q", st.ID, inf.Summary)
			}
		}
	}
}

// TestShapeEdgesVisible: every shape edge is an inference with the
// annotation that states it, and an annotation wins over the shape.
func TestShapeEdgesVisible(t *testing.T) {
	src := "# T\n\n1. Investigate the alert.\n   - on failure: 3\n2. If action is required, fix the issue.\n3. If no action is required, dismiss the alert.\n"
	s, _ := Compile("t.md", []byte(src), Options{})
	one := s.Step("1")
	if one.Failure.From != "" || one.Failure.Target != "3" || one.Success.Target != "2" || one.Success.From != FromShape {
		t.Errorf("step 1: %+v / %+v", one.Success, one.Failure)
	}
	// An annotation that says otherwise: the pair is no decision.
	s2, _ := Compile("t.md", []byte(strings.Replace(src, "on failure: 3", "on failure: fail", 1)), Options{})
	for _, st := range s2.Steps {
		if st.Success.From == FromShape || st.Failure.From == FromShape {
			t.Errorf("step %s took a shape edge against the annotation", st.ID)
		}
	}
	var fixes []string
	for _, st := range s.Steps {
		for _, inf := range st.Inferences() {
			if inf.Kind == EdgeShape {
				fixes = append(fixes, st.ID+" "+inf.Fix)
				if inf.Range.IsZero() || inf.Quote == "" || !strings.Contains(inf.Summary, "open with the two sides") && !strings.Contains(inf.Summary, "alternatives") {
					t.Errorf("inference %+v", inf)
				}
			}
		}
	}
	if got := strings.Join(fixes, "; "); got != "1 - on success: 2; 2 - on success: end" {
		t.Errorf("fixes: %s", got)
	}
}
