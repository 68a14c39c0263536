package compiler

import (
	"fmt"
	"strings"

	"github.com/skillc/skillc/compiler/prose"
)

// FromShape is Edge.From for an edge read from the shape of the write-up
// rather than from one step's sentences: lettered branches (3A/4A beside
// 3B/4B), two steps that each open with one side of a condition ("If
// action is required, ..." / "If no action is required, ..."), remedies
// tried in turn, and parts of a procedure introduced by the outcome they
// are for. Each such edge is recorded as an Inference of its step
// (EdgeShape), with the annotation that says the same.
const FromShape = "shape"

// EdgeShape is Inference.Kind for an edge read from the shape.
const EdgeShape = "edge-shape"

// inferShapeEdges sets the edges the write-up's shape states (FORMAT 6.4
// as real write-ups write decisions). It runs before the prose of each
// step is read, so a step's own sentences win over its shape, and an
// annotation wins over both.
func (c *compilation) inferShapeEdges(readings []*prose.Reading) {
	s := c.skill
	if !c.infer || len(s.Steps) < 2 || len(s.Source) == 0 {
		return
	}
	c.letteredBranches()
	c.alternativeSteps()
	c.remedies()
	c.outcomeParts()
	c.questionChecklist(readings)
}

// questionChecklist: a procedure of questions that says nowhere where an
// answer goes ("1. Is the spike isolated to that application? 2. Is the
// ingress using modsec? ...") is a checklist of things to look at: either
// answer informs, and the reader goes on to the next item. The format's
// default would fail the plan on the first "no", which such a write-up
// never means. Three questions at least, half of the steps or more, and no
// step with an edge of its own, written or in prose.
func (c *compilation) questionChecklist(readings []*prose.Reading) {
	steps := c.skill.Steps
	questions := 0
	for i, st := range steps {
		if st.Success.Explicit || st.Failure.Explicit || st.Success.From != "" || st.Failure.From != "" ||
			i < len(readings) && readings[i] != nil && (len(readings[i].Edges) > 0 || len(readings[i].Unread) > 0) {
			return
		}
		if strings.HasSuffix(strings.TrimSpace(st.Goal), "?") {
			questions++
		}
	}
	if questions < 3 || 2*questions < len(steps) {
		return
	}
	why := fmt.Sprintf("%d of the %d steps are questions and none says where an answer goes: a checklist, where either answer goes on", questions, len(steps))
	for i, st := range steps {
		c.setShape(i, Failure, c.next(i), why, st.Goal, st.GoalRange)
	}
}

// setShape sets edge k of step i to target, unless an annotation states
// it, and records why.
func (c *compilation) setShape(i int, k EdgeKind, target, why, quote string, r Range) {
	st := c.skill.Steps[i]
	e := &st.Success
	if k == Failure {
		e = &st.Failure
	}
	if e.Explicit || e.Target == target && e.From == FromShape {
		return
	}
	*e = Edge{Target: target, From: FromShape, Range: r}
	st.addInference(Inference{Kind: EdgeShape,
		Summary: fmt.Sprintf("step %q: its %s edge goes to %q: %s", st.ID, k, target, why),
		Quote:   quote, Range: r, Fix: fmt.Sprintf("- on %s: %s", k, target)})
}

func (c *compilation) next(i int) string {
	if i+1 < len(c.skill.Steps) {
		return c.skill.Steps[i+1].ID
	}
	return End
}

// letteredBranches: where a write-up numbers parallel paths 3A/4A and
// 3B/4B, a step of one branch goes on, on success, past the steps of the
// other branches written after it: 3A to 4A, 4A to 5, not to 3B and 4B.
// Only when two branches share a number (3A and 3B), so "1, 1b, 2" is no
// branching.
func (c *compilation) letteredBranches() {
	steps := c.skill.Steps
	shared := false
	seen := map[string]string{} // number -> a letter seen with it
	for _, st := range steps {
		if n, l := splitLetter(st.ID); l != "" {
			if o, ok := seen[n]; ok && !strings.EqualFold(o, l) {
				shared = true
			}
			seen[n] = l
		}
	}
	if !shared {
		return
	}
	for i, st := range steps {
		_, l := splitLetter(st.ID)
		if l == "" || st.Success.Explicit || st.Success.From != "" {
			continue
		}
		j := i + 1
		for j < len(steps) {
			if _, m := splitLetter(steps[j].ID); m == "" || strings.EqualFold(m, l) {
				break
			}
			j++
		}
		if j == i+1 {
			continue
		}
		target := End
		if j < len(steps) {
			target = steps[j].ID
		}
		c.setShape(i, Success, target,
			fmt.Sprintf("it is on the branch of the steps lettered %s, so it goes past step %q of another branch", l, steps[i+1].ID),
			st.ID, st.IDRange)
	}
}

// splitLetter splits a step ID like "3A" into "3" and "A"; "" for the
// letter when the ID is not a number and one letter.
func splitLetter(id string) (string, string) {
	n := len(id)
	if n < 2 || !isDigits(id[:n-1]) {
		return id, ""
	}
	if ch := id[n-1]; ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
		return id[:n-1], id[n-1:]
	}
	return id, ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// alternativeSteps: two steps in a row that each open with one side of a
// condition ("2. If action is required, fix the issue." "3. If no action
// is required, dismiss the alert.", "If the rollup fails, ..." "If the
// rollup succeeds, ...") are the two ways out of the step before them:
// it goes to the step of the success side on success and to the other on
// failure, and the first of the two goes on past the second.
func (c *compilation) alternativeSteps() {
	steps := c.skill.Steps
	cond := func(i int) (prose.Condition, bool) {
		if i < 0 || i >= len(steps) {
			return prose.Condition{}, false
		}
		return prose.LeadCondition(steps[i].Goal)
	}
	for i := 1; i+1 < len(steps); i++ {
		a, ok1 := cond(i)
		b, ok2 := cond(i + 1)
		if !ok1 || !ok2 || a.Kind == b.Kind || !sameSubject(a.Label, b.Label) {
			continue
		}
		if _, ok := cond(i - 1); ok {
			continue // a third conditional step: not a pair
		}
		if _, ok := cond(i + 2); ok {
			continue
		}
		ok, fail := i, i+1
		if a.Kind == prose.Failure {
			ok, fail = i+1, i
		}
		if p := steps[i-1]; p.Success.Explicit && p.Success.Target != steps[ok].ID || p.Failure.Explicit && p.Failure.Target != steps[fail].ID {
			continue // the step before says otherwise: its annotation wins, and the pair is no decision
		}
		why := fmt.Sprintf("steps %q and %q open with the two sides of a condition (%q, %q)", steps[i].ID, steps[i+1].ID, a.Label, b.Label)
		quote := steps[i].Goal
		c.setShape(i-1, Success, steps[ok].ID, why, quote, steps[i].GoalRange)
		c.setShape(i-1, Failure, steps[fail].ID, why, quote, steps[i].GoalRange)
		c.setShape(i, Success, c.next(i+1),
			fmt.Sprintf("it is one of two alternatives, so it goes on past step %q, the other", steps[i+1].ID), quote, steps[i].GoalRange)
		i++
	}
}

// remedies: a procedure whose steps are remedies tried in turn (a
// troubleshooting ladder) ends each step on success and moves to the next
// remedy on failure. A reader knows it from a step that says the steps
// before it were tried ("If none of the previous steps helped, try
// rebooting"), or from the words that introduce the part ("use these
// options, in order"). The ladder is the part of the procedure that holds
// them; its last step fails as before.
func (c *compilation) remedies() {
	steps := c.skill.Steps
	for _, p := range c.partBounds() {
		from, to := p[0], p[1] // steps[from:to]
		if to-from < 2 {
			continue
		}
		why, quote, r := "", "", Range{}
		if a, z, ok := prose.InOrder(c.intro(from)); ok {
			at := c.introStart(from) + a
			why = "the part it is in is introduced as alternatives to try in order"
			quote, r = c.srcText(at, c.introStart(from)+z), c.absRange(at, c.introStart(from)+z)
		} else {
			last := steps[to-1]
			text := c.stepText(last)
			if a, z, ok := prose.AfterRemedies(text); ok {
				at := last.Range.Start.Byte + a
				why = fmt.Sprintf("step %q says the steps before it are remedies tried in turn", last.ID)
				quote, r = c.srcText(at, last.Range.Start.Byte+z), c.absRange(at, last.Range.Start.Byte+z)
			} else if from0, tail := c.trailer(to - 1); tail != "" {
				// After the last step: "If you're still encountering
				// issues after trying all of these steps, reach out."
				if a, z, ok := prose.AfterRemedies(tail); ok {
					why = "the text after the steps says they are remedies tried in turn"
					quote, r = c.srcText(from0+a, from0+z), c.absRange(from0+a, from0+z)
				}
			}
		}
		if why == "" {
			continue
		}
		for i := from; i < to; i++ {
			c.setShape(i, Success, End, why+": a remedy that works ends the procedure", quote, r)
			if i+1 < to {
				c.setShape(i, Failure, steps[i+1].ID, why+": when it does not work, the next one is tried", quote, r)
			}
		}
	}
}

// outcomeParts: parts of a procedure introduced by the outcome they are
// for ("To diagnose a failing acceptance test, use these options" after
// running it, then "To flip a passing acceptance test: ...") are the two
// ways on from the step before the first of them: to the part of the
// failure on failure, to the other on success. The first of the two
// parts ends the procedure rather than running on into the other.
func (c *compilation) outcomeParts() {
	steps := c.skill.Steps
	bounds := c.partBounds()
	for k := 1; k+1 < len(bounds); k++ {
		a, b := bounds[k], bounds[k+1]
		ka, sa, ea, ok1 := prose.Outcome(c.intro(a[0]))
		kb, _, _, ok2 := prose.Outcome(c.intro(b[0]))
		if !ok1 || !ok2 || ka == kb {
			continue
		}
		before := a[0] - 1
		okPart, failPart := a, b
		if ka == prose.Failure {
			okPart, failPart = b, a
		}
		at := c.introStart(a[0])
		quote, r := c.srcText(at+sa, at+ea), c.absRange(at+sa, at+ea)
		why := fmt.Sprintf("the parts from step %q and from step %q are introduced as the ways on for each outcome", steps[a[0]].ID, steps[b[0]].ID)
		c.setShape(before, Success, steps[okPart[0]].ID, why, quote, r)
		c.setShape(before, Failure, steps[failPart[0]].ID, why, quote, r)
		if last := a[1] - 1; steps[last].Success.From == "" && !steps[last].Success.Explicit {
			c.setShape(last, Success, End, fmt.Sprintf("it ends the part for one outcome; the part from step %q is for the other", steps[b[0]].ID), quote, r)
		}
	}
}

// partBounds are the parts of the procedure as [from, to) step indices.
func (c *compilation) partBounds() [][2]int {
	n := len(c.skill.Steps)
	var out [][2]int
	from := 0
	for _, p := range c.skill.parts {
		if p > from && p < n {
			out = append(out, [2]int{from, p})
			from = p
		}
	}
	return append(out, [2]int{from, n})
}

// introStart is where the text that introduces the part beginning at
// step i starts: the end of the step before, or, for the first step, the
// end of the frontmatter.
func (c *compilation) introStart(i int) int {
	s := c.skill
	if i > 0 {
		return s.Steps[i-1].Range.End.Byte
	}
	if fm := s.Frontmatter; fm != nil && !fm.Range.IsZero() {
		return fm.Range.End.Byte
	}
	return 0
}

// intro is the prose between the step before i (or the frontmatter) and
// step i: what introduces the part that step i begins. It starts after
// the last heading there and holds at most the last two paragraphs; code
// is blanked. Offsets are those from introStart(i): what is cut is
// blanked too.
func (c *compilation) intro(i int) string {
	s := c.skill
	from, to := c.introStart(i), s.Steps[i].Range.Start.Byte
	if from < 0 || from >= to || to > len(s.Source) {
		return ""
	}
	text := proseOnly(c.sourceText()[from:to], nil, nil)
	cut := 0
	if h := strings.LastIndex(text, "\n#"); h >= 0 {
		if e := strings.IndexByte(text[h+1:], '\n'); e >= 0 {
			cut = h + 1 + e
		} else {
			cut = len(text)
		}
	}
	// The last two paragraphs: back over at most two blank lines that
	// have text after them.
	end := len(strings.TrimRight(text, " \t\r\n"))
	paras := 0
	for k := end - 1; k > cut; k-- {
		if text[k] == '\n' && strings.TrimSpace(lineAt(text, k-1)) == "" {
			if paras++; paras == 2 {
				cut = k
				break
			}
		}
	}
	return strings.Repeat(" ", cut) + text[cut:]
}

// lineAt is the line of text that holds byte k.
func lineAt(text string, k int) string {
	a := strings.LastIndexByte(text[:k+1], '\n') + 1
	if a > k {
		return ""
	}
	z := strings.IndexByte(text[a:], '\n')
	if z < 0 {
		return text[a:]
	}
	return text[a : a+z]
}

// stepText is a step's source as prose (code blanked), offsets from the
// step's start.
func (c *compilation) stepText(st *Step) string {
	from, to := st.Range.Start.Byte, min(st.Range.End.Byte, len(c.skill.Source))
	if st.Range.IsZero() || from < 0 || from >= to {
		return ""
	}
	return proseOnly(c.sourceText()[from:to], nil, nil)
}

func (c *compilation) srcText(a, z int) string {
	src := c.skill.Source
	a, z = max(a, 0), min(z, len(src))
	if a >= z {
		return ""
	}
	return strings.Join(strings.Fields(string(src[a:z])), " ")
}

// shaped reports whether an edge was read from the shape.
func (c *compilation) shaped() bool {
	for _, st := range c.skill.Steps {
		if st.Success.From == FromShape || st.Failure.From == FromShape {
			return true
		}
	}
	return false
}

// sameSubject reports whether two conditions speak of one thing, so that
// they can be its two sides: "action is required" and "no action is
// required", "the rollup fails" and "the rollup succeeds", but not "pods
// are in CrashLoopBackOff" and "needed". At least half of the words of the
// shorter one, leaving out negations and small words, are in the other.
func sameSubject(a, b string) bool {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(s)) {
			w = strings.Trim(w, ".,;:!?()\"'`*_")
			switch w {
			case "", "the", "a", "an", "is", "are", "was", "were", "be", "it", "this", "that", "there", "no", "not", "any", "you", "we", "to", "of", "or", "and":
				continue
			}
			if strings.HasSuffix(w, "n't") {
				continue
			}
			m[w] = true
		}
		return m
	}
	wa, wb := words(a), words(b)
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	shared := 0
	for w := range wa {
		if wb[w] {
			shared++
		}
	}
	return shared > 0 && 2*shared >= len(wa)
}

// pruneShapeInferences drops the record of a shape edge that the step's
// prose or keepReachable replaced: only what the template holds is
// reported. A record still holds when its step's edge of that kind is a
// shape edge to the target its Fix names.
func (c *compilation) pruneShapeInferences() {
	for _, st := range c.skill.Steps {
		v := st.V2
		if v == nil {
			continue
		}
		keep := v.Inferences[:0]
		for _, inf := range v.Inferences {
			if inf.Kind == EdgeShape && !holds(st, inf) {
				continue
			}
			keep = append(keep, inf)
		}
		v.Inferences = keep
	}
}

func holds(st *Step, inf Inference) bool {
	for k, e := range [2]Edge{st.Success, st.Failure} {
		if e.From == FromShape && inf.Fix == fmt.Sprintf("- on %s: %s", EdgeKind(k), e.Target) {
			return true
		}
	}
	return false
}

// trailer is the prose right after step i up to the next heading, with
// its offset, when step i is the last of the procedure's steps; else "".
func (c *compilation) trailer(i int) (int, string) {
	s := c.skill
	if i != len(s.Steps)-1 {
		return 0, ""
	}
	from := s.Steps[i].Range.End.Byte
	if from < 0 || from >= len(s.Source) {
		return 0, ""
	}
	rest := c.sourceText()[from:]
	if h := strings.Index(rest, "\n#"); h >= 0 {
		rest = rest[:h+1]
	}
	return from, proseOnly(rest, nil, nil)
}
