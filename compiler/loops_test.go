package compiler

import (
	"github.com/skillc/skillc/graph"

	"strings"
	"testing"
)

// TestLoopAnnotations: the bounds, retry and then targets of FORMAT 6.5
// and the wait keys of 6.6, and that --strict reads each as v1 does.
func TestLoopAnnotations(t *testing.T) {
	tests := []struct {
		name     string
		bullet   string // an annotation of step 3
		target   string
		bound    int
		then     string
		note     string
		strictTo string // the target under Strict, "" when v1 refuses it
		strictN  string // the note under Strict
	}{
		{"parenthesised", "on failure: 2 (at most 3 times)", "2", 3, "", "", "2", "at most 3 times"},
		{"comma", "no: 1, up to 5 times", "1", 5, "", "", "1", "up to 5 times"},
		{"retry", "on failure: retry (at most 3 times)", "3", 3, "", "", "", ""},
		{"then", "on failure: 2 (at most 3 times, then 4)", "2", 3, "4", "", "2", "at most 3 times, then 4"},
		{"then a terminal", "no: step 1 (up to two times, then end)", "1", 2, "end", "", "1", "up to two times, then end"},
		{"bound and a note", "on failure: 2 (at most 3 times) - the API is flaky", "2", 3, "", "the API is flaky", "2", "at most 3 times) - the API is flaky"},
		{"a note is no bound", "on failure: end - answer from the thread", "end", 0, "", "answer from the thread", "end", "answer from the thread"},
		{"a number in a note is no bound", "on failure: 2 (see 3 below)", "2", 0, "", "see 3 below", "2", "see 3 below"},
		{"a number word in any case", "on failure: 2 (Up To THREE times)", "2", 3, "", "", "2", "Up To THREE times"},
		{"once", "on failure: 2 (once)", "2", 1, "", "", "2", "once"},
		{"a number word is a whole word", "on failure: 2 (up to tens of times)", "2", 0, "", "up to tens of times", "2", "up to tens of times"},
		{"joined words are one word", "on failure: 2 (at most two-three times)", "2", 0, "", "at most two-three times", "2", "at most two-three times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "# T\n\n1. One.\n2. Two.\n3. Three.\n   - " + tt.bullet + "\n4. Four.\n"
			for _, strict := range []bool{false, true} {
				s, diags := Compile("t.md", []byte(src), Options{Strict: strict})
				want, note, bound, then := tt.target, tt.note, tt.bound, tt.then
				if strict {
					want, note, bound, then = tt.strictTo, tt.strictN, 0, ""
				}
				if want == "" {
					// The target stays as written, and graph.Check
					// reports it (lint's unknown-target).
					tm := s.Template()
					found := false
					for _, p := range graph.Check(tm, graph.DefaultLimits()) {
						found = found || p.Code == graph.CodeUnknownTarget
					}
					if !found {
						t.Errorf("strict %v: %q compiles, want unknown-target", strict, tt.bullet)
					}
					continue
				}
				if diags.HasErrors() {
					t.Fatalf("strict %v: %v", strict, diags)
				}
				e := s.Step("3").Failure
				if strings.HasPrefix(tt.bullet, "on success") {
					e = s.Step("3").Success
				}
				if e.Target != want || e.Rounds() != bound || e.Then() != then || e.Note != note {
					t.Errorf("strict %v: edge %q bound %d then %q note %q; want %q %d %q %q", strict, e.Target, e.Rounds(), e.Then(), e.Note, want, bound, then, note)
				}
				ts := s.Template().Steps[2]
				if ts.FailureBound != bound || ts.FailureThen != then {
					t.Errorf("strict %v: template bound %d then %q", strict, ts.FailureBound, ts.FailureThen)
				}
			}
		})
	}
}

func TestLoopAnnotationUnknownThen(t *testing.T) {
	src := "# T\n\n1. One.\n2. Two.\n   - on failure: 1 (at most 3 times, then 9)\n"
	s, diags := Compile("t.md", []byte(src), Options{})
	if diags.HasErrors() {
		t.Fatalf("the compiler reads syntax only: %v", diags)
	}
	e := s.Step("2").Failure
	if e.Then() != "9" || e.Bound.ThenRange.Start.Line != 5 || src[e.Bound.ThenRange.Start.Byte:e.Bound.ThenRange.End.Byte] != "9" {
		t.Fatalf("then %q at %+v", e.Then(), e.Bound)
	}
	var got []string
	for _, p := range graph.Check(s.Template(), graph.DefaultLimits()) {
		got = append(got, p.Code+": "+p.Message)
	}
	if len(got) != 1 || got[0] != `unknown-target: step "2": failure_then "9" names no step` {
		t.Fatalf("want unknown-target for then 9, got %v", got)
	}
}

func TestWaitAnnotation(t *testing.T) {
	for _, key := range []string{"wait", "Wait for", "approval"} {
		src := "# T\n\n1. Send the form.\n   - " + key + ": the customer's **signed** form.\n\n   Do not proceed until the bank answers.\n2. File it.\n"
		s, diags := Compile("t.md", []byte(src), Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		st := s.Step("1")
		if st.WaitFor() != "the customer's signed form" || st.WaitFrom() != "" || strings.Contains(st.Detail, "signed") {
			t.Errorf("%s: waits for %q (from %q), detail %q", key, st.WaitFor(), st.WaitFrom(), st.Detail)
		}
		if got := s.Template().Steps[0].WaitFor; got != st.WaitFor() {
			t.Errorf("%s: template wait_for %q", key, got)
		}
		strict, _ := Compile("t.md", []byte(src), Options{Strict: true})
		if st := strict.Step("1"); st.WaitFor() != "" || !strings.Contains(st.Detail, "signed") {
			t.Errorf("%s: strict reads a wait: %q, detail %q", key, st.WaitFor(), st.Detail)
		}
	}
}
