package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// RuleProseBranch finds branches written as prose inside a step ("if tests
// pass, continue to Step 2", "otherwise stop") that no annotation states,
// and suggests the annotation, so the graph says what the text says.
var RuleProseBranch = &Rule{
	ID:       "prose-branch",
	Severity: compiler.SeverityInfo,
	Source:   "lint",
	Summary:  "a step's text says where to go next, but no annotation does",
	Doc: `Authors often write the branch into the text: "if tests pass, continue to Step
2", "go back to step 1", "skip to Step 4", "return to Phase 1", "otherwise
stop". skillc only follows annotations, so the graph ignores that sentence.
The rule reports the phrase when the step has no explicit edge of that kind and
suggests the annotation. A sentence about failing (fail, error, otherwise,
else, not) or going back becomes a failure edge; others a success edge; "stop"
or "abort" after a failure condition becomes "on failure: fail". Only targets
that name a step of the skill are reported. Going back to an earlier step is
reported without a suggestion: a plan cannot loop (see cycle). It is info:
prose is a hint, and the default edges may already do what the text says.

Bad:
    1. Run the tests.

       If tests fail, report the failures and stop.
       If tests pass, continue to step 2.

Good:
    1. Run the tests.
       - on success: 2
       - on failure: fail`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      runProseBranch,
}

// The phrases are found with a word scanner rather than regular
// expressions: it runs on the text of every step of every skill, and a
// single pass over the words is several times cheaper than backtracking
// regexps at each byte.
// Word classes, decided by a switch (cheaper than map lookups on every
// word of every step).
const (
	wordMove   = 1 << iota // continue, proceed, go, ...
	wordBack               // a move that goes back: return, loop, come
	wordStop               // stop, abort
	wordCue                // marks a clause about the failure path
	wordNegate             // don't, never, ...
	wordFiller             // straight, directly, back, on, forward
	wordPrep               // to, with, at
	wordKind               // step, phase
)

func classify(w string) int {
	switch w {
	case "continue", "proceed", "go", "jump", "skip", "move", "head":
		return wordMove
	case "return", "loop", "come":
		return wordMove | wordBack
	case "stop", "abort":
		return wordStop
	case "otherwise", "else", "no", "doesn't", "isn't", "won't", "decline", "declines", "wrong", "broken", "red",
		"doesn\u2019t", "isn\u2019t", "won\u2019t":
		return wordCue
	case "not", "cannot", "can't", "don't", "can\u2019t", "don\u2019t":
		return wordCue | wordNegate
	case "never", "without":
		return wordNegate
	case "straight", "directly", "back", "on", "forward":
		return wordFiller
	case "to", "with", "at":
		return wordPrep
	case "step", "phase":
		return wordKind
	}
	if strings.HasPrefix(w, "fail") || strings.HasPrefix(w, "error") {
		return wordCue
	}
	return 0
}

type word struct {
	text       string // lowercased
	class      int
	start, end int // byte offsets in the sentence
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '#' || c == '\'' || c >= 0x80
}

// words splits a sentence into words, keeping offsets, appending to out.
// Non-ASCII bytes count as word bytes, so "don’t" stays one word.
func words(s string, out []word) []word {
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		a, b := i, j
		for a < b && (s[a] == '-' || s[a] == '\'') {
			a++
		}
		for b > a && (s[b-1] == '-' || s[b-1] == '\'') {
			b--
		}
		if a < b {
			w := lowerASCII(s[a:b])
			out = append(out, word{w, classify(w), a, b})
		}
		i = j
	}
	return out
}

// lowerASCII lowercases ASCII letters, allocating only when there is an
// upper-case one; the words compared against are ASCII.
func lowerASCII(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}

// spaced reports whether only white space separates a and b.
func spaced(s string, a, b word) bool {
	return strings.TrimSpace(s[a.end:b.start]) == ""
}

// splitSentences calls f with each sentence of s (ended by . ; ! or ?) and
// its offset.
func splitSentences(s string, f func(sentence string, off int)) {
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', ';', '!', '?':
			// "1.5" and "e.g." do not end a sentence.
			if s[i] == '.' && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t' {
				continue
			}
			f(s[start:i+1], start)
			start = i + 1
		}
	}
	if start < len(s) {
		f(s[start:], start)
	}
}

func runProseBranch(p *Pass) {
	s := p.Skill
	src := s.Source
	var scratch []word
	order := make(map[string]int, len(s.Steps)) // step ID -> written position
	for i, st := range s.Steps {
		if _, dup := order[st.ID]; !dup {
			order[st.ID] = i
		}
	}
	for _, st := range s.Steps {
		if st.Range.IsZero() {
			continue
		}
		from, to := st.Range.Start.Byte, min(st.Range.End.Byte, len(src))
		if from >= to || !mayBranch(src[from:to]) {
			continue
		}
		text := string(src[from:to]) // one copy per step; spans index into it
		ann := 0                     // annotations and spans are both in source order
		for _, sp := range proseSpans(src, from, to) {
			for ann < len(st.Annotations) && st.Annotations[ann].Range.End.Byte <= sp[0] {
				ann++
			}
			if ann < len(st.Annotations) && sp[0] >= st.Annotations[ann].Range.Start.Byte {
				continue // an annotation bullet already states its edge
			}
			splitSentences(text[sp[0]-from:sp[1]-from], func(sentence string, off int) {
				proseBranchSentence(p, st, order, sentence, sp[0]+off, &scratch)
			})
		}
	}
}

// branchWords are the words a finding needs: a move (wordMove) or a stop
// (wordStop) word of classify. Both are matched after ASCII lowercasing,
// so a step whose text has none of them anywhere, in any case, cannot be
// reported, and most steps are passed over after one scan of their bytes.
var branchWords = [...]string{"continue", "proceed", "go", "jump", "skip", "move", "head", "return", "loop", "come", "stop", "abort"}

// branchByFirst lists branchWords by their first byte, in both cases, so
// mayBranch costs one table lookup per byte of text.
var branchByFirst = func() (t [256][]string) {
	for _, w := range branchWords {
		t[w[0]] = append(t[w[0]], w)
		t[w[0]-'a'+'A'] = append(t[w[0]-'a'+'A'], w)
	}
	return t
}()

// mayBranch reports whether text contains one of branchWords, ignoring
// ASCII case; a word inside a longer one counts, which only lets a few
// steps through to the full check.
func mayBranch(text []byte) bool {
	for i, c := range text {
		for _, w := range branchByFirst[c] {
			if len(text)-i >= len(w) && equalFoldASCII(text[i+1:i+len(w)], w[1:]) {
				return true
			}
		}
	}
	return false
}

// equalFoldASCII reports whether b equals the lowercase ASCII word w,
// ignoring ASCII case.
func equalFoldASCII(b []byte, w string) bool {
	for j := 0; j < len(w); j++ {
		c := b[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

func proseBranchSentence(p *Pass, st *compiler.Step, order map[string]int, sentence string, base int, scratch *[]word) {
	ws := words(sentence, (*scratch)[:0])
	*scratch = ws
	cue := false // a failure cue seen earlier in the sentence
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		class := ws[i].class
		if cue && class&wordStop != 0 && !negatedAt(ws, i) && endsClause(sentence, w.end) {
			reportProseBranch(p, st, order, compiler.Failure, compiler.Fail, base+w.start, base+w.end)
		}
		if class&wordMove != 0 {
			if id, end, back, ok := moveTarget(p.Skill, order, sentence, ws, i); ok && id != st.ID && !ownItem(st, base+w.start, ws, i, id) {
				kind := compiler.Success
				if back || class&wordBack != 0 || cue {
					kind = compiler.Failure
				}
				reportProseBranch(p, st, order, kind, id, base+w.start, base+end)
			}
		}
		if class&wordCue != 0 {
			cue = true
		}
	}
}

// moveTarget reads "VERB [back|on|...] to|with|at [the] [step|phase] TARGET"
// from word i and resolves TARGET to a step.
func moveTarget(s *compiler.Skill, order map[string]int, sentence string, ws []word, i int) (id string, end int, back bool, ok bool) {
	j := i + 1
	next := func() bool { return j < len(ws) && spaced(sentence, ws[j-1], ws[j]) }
	if next() && ws[j].class&wordFiller != 0 {
		back = ws[j].text == "back"
		j++
	}
	if !next() || ws[j].class&wordPrep == 0 {
		return "", 0, false, false
	}
	j++
	if next() && ws[j].text == "the" {
		j++
	}
	marked := false
	if next() && ws[j].class&wordKind != 0 {
		marked = true
		j++
	}
	if !next() {
		return "", 0, false, false
	}
	// The target as written, not lowercased: IDs are case-sensitive.
	target := sentence[ws[j].start:ws[j].end]
	if strings.HasPrefix(target, "#") {
		marked, target = true, target[1:]
	}
	id, ok = resolveStep(s, order, target, marked)
	return id, ws[j].end, back, ok
}

// negatedAt reports whether word i is negated ("don't stop", "never
// abort", "do not stop").
func negatedAt(ws []word, i int) bool {
	if i == 0 {
		return false
	}
	if ws[i-1].class&wordNegate != 0 {
		return true
	}
	return i >= 2 && ws[i-2].text == "do" && ws[i-1].text == "not"
}

// endsClause reports whether a stop word at end is a verb that ends its
// clause ("and stop.", "stop, leave the branch", "stop — the menu"), so
// the noun in "abort tests" is not taken for it.
func endsClause(sentence string, end int) bool {
	rest := strings.TrimLeft(sentence[end:], " \t")
	if rest == "" {
		return true
	}
	r := rest[0]
	return strings.IndexByte(".,;:!?)-", r) >= 0 || strings.HasPrefix(rest, "\u2014") || strings.HasPrefix(rest, "\u2013")
}

// resolveStep finds the step a prose target names. A bare word must be a
// step ID written with {#id}, or a number after "step", so that ordinary
// words ("go to the store") are never taken for targets.
func resolveStep(s *compiler.Skill, order map[string]int, target string, marked bool) (string, bool) {
	i, ok := order[target]
	if !ok || !marked && !s.Steps[i].ExplicitID {
		return "", false
	}
	return target, true
}

func reportProseBranch(p *Pass, st *compiler.Step, order map[string]int, kind compiler.EdgeKind, target string, start, end int) {
	edge, key := st.Success, "on success"
	if kind == compiler.Failure {
		edge, key = st.Failure, "on failure"
	}
	if edge.Explicit {
		return
	}
	d := compiler.Diagnostic{
		Range:      p.RangeOf(start, end),
		Summary:    fmt.Sprintf("step %q says where to go in prose; skillc follows only annotations", st.ID),
		Suggestion: fmt.Sprintf("- %s: %s", key, target),
	}
	switch {
	case target != compiler.Fail && order[target] <= order[st.ID]:
		// Going back is a loop, which a plan cannot run (rule cycle):
		// suggesting the edge would trade this hint for an error.
		d.Summary = fmt.Sprintf("step %q says in prose to go back to step %q; a plan cannot loop", st.ID, target)
		d.Detail = "write the retry as a new step after this one and point the edge there, or end with fail"
		d.Suggestion = ""
	case p.ResultOf(GraphAnalysis).(*GraphResult).Template.Steps[order[st.ID]].Next(kind) == target:
		d.Detail = "the default edge already goes there; an annotation makes it explicit"
	}
	p.Report(d)
}

// ownItem reports whether "step N" (the word step, not phase) of the move
// at word i, at byte offset off, lies inside a numbered list of the step
// that has an item N: it names that item, not step N of the skill
// (FORMAT 6.2).
func ownItem(st *compiler.Step, off int, ws []word, i int, id string) bool {
	if len(st.SubLists) == 0 {
		return false
	}
	step := false
	for j := i + 1; j < len(ws) && j <= i+4; j++ {
		if ws[j].text == "step" {
			step = true
			break
		}
	}
	n, err := strconv.Atoi(id)
	if !step || err != nil {
		return false
	}
	for _, l := range st.SubLists {
		if l.Range.Start.Byte <= off && off < l.Range.End.Byte && l.Start <= n && n < l.Start+l.Count {
			return true
		}
	}
	return false
}
