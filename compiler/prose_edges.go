package compiler

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skillc/skillc/compiler/prose"
	"github.com/skillc/skillc/graph"
)

// FromProse is Edge.From and Loop.From for what FORMAT 6.4 reads from a
// step's sentences.
const FromProse = "prose"

// inferProseEdges sets the edges a step's prose states where no annotation
// states them (FORMAT 6.4), keeps the loops it states in Step.Loops, and
// what it waits for in Step.WaitFor. It runs once the steps are built and
// their edges resolved: an edge still not Explicit holds the format's
// default, which prose replaces. An annotation always wins; where the
// prose disagrees with it, lint (prose-branch) warns. Strict reads v1 only.
func (c *compilation) inferProseEdges(opts Options) {
	s := c.skill
	if opts.Strict || len(s.Steps) == 0 || len(s.Source) == 0 {
		return
	}
	ids := stepIDs(s) // the global reading's and every step's
	global, globalAt := c.globalContinue(ids)
	readings := readProse(s, ids)
	s.prose = readings // lint's prose-branch reads them again
	c.inferShapeEdges(readings)
	applied := false
	for i, st := range s.Steps {
		rd := readings[i]
		if rd == nil {
			continue // nothing read: no edge, loop or wait to apply
		}
		if len(rd.Globals) > 0 && !global {
			global, globalAt = true, rd.Globals[0]
		}
		next := End
		if i+1 < len(s.Steps) {
			next = s.Steps[i+1].ID
		}
		pick, why := ProseEdges(*rd, next)
		for k := range rd.Edges {
			if e := &rd.Edges[k]; e.Back {
				v := st.v2()
				v.Loops = append(v.Loops, Loop{Kind: EdgeKind(e.Kind), Target: e.Target, Label: e.Label,
					Bound: e.Bound, Then: e.Then, Range: c.absRange(e.Start, e.End), From: FromProse})
			}
		}
		if why == "" {
			for k, edge := range [2]*Edge{&st.Success, &st.Failure} {
				e := pick[k]
				if e == nil {
					e = firstBack(rd.Edges, prose.Kind(k), st.ID)
				}
				if e == nil || edge.Explicit || e.Target == "" && pick[1-k] != nil && [2]*Edge{&st.Success, &st.Failure}[1-k].Explicit {
					continue // an annotation states it, or states the decision this would be the other side of
				}
				edge.Target, edge.Label, edge.From = e.Target, e.Label, FromProse
				applied = true
				edge.Range = c.absRange(e.Start, e.End)
				if e.Target == "" { // the other side of a decision: the next step
					edge.Target = next
				}
				if e.Back { // FORMAT 6.5: a loop, with the bound its prose writes
					edge.Bound = nil
					if e.Bound > 0 || e.Then != "" {
						edge.Bound = &Bound{Rounds: e.Bound, Then: e.Then}
					}
				}
			}
		}
		if len(rd.Waits) > 0 && st.WaitFor() == "" { // a wait annotation wins
			// Several waits of one step are all waited for, in order.
			whats := make([]string, 0, len(rd.Waits))
			for _, w := range rd.Waits {
				if !slices.Contains(whats, w.What) {
					whats = append(whats, w.What)
				}
			}
			v := st.v2()
			v.WaitFor = strings.Join(whats, "; ")
			v.WaitRange = c.absRange(rd.Waits[0].Start, rd.Waits[len(rd.Waits)-1].End)
			v.WaitFrom = FromProse
		}
	}
	if global {
		c.continueEvenIfFails(globalAt)
	}
	if applied || c.shaped() {
		c.keepReachable()
	}
	c.pruneShapeInferences()
}

// continueEvenIfFails applies "Continue to the next step even if a
// previous step fails", said once: every step's failure goes where its
// success would by default.
func (c *compilation) continueEvenIfFails(globalAt prose.Global) {
	s := c.skill
	// "Continue to the next step even if a previous step fails", said
	// once: every step's failure goes where its success would by default.
	for i, st := range s.Steps {
		if st.Failure.Explicit || st.Failure.From != "" {
			continue
		}
		st.Failure.Target = End
		if i+1 < len(s.Steps) {
			st.Failure.Target = s.Steps[i+1].ID
		}
		st.Failure.Label, st.Failure.From = "even if it fails", FromProse
		st.Failure.Range = c.absRange(globalAt.Start, globalAt.End)
	}
}

// ProseEdges picks the forward edges a step's prose sets, by kind
// (Success, Failure), from the edges read: the first of each kind. A
// decision read from one condition ("If the tasks exist, skip to Step 3")
// has its other side go to the next step (FORMAT 6.4), given as an edge
// with an empty Target and the label "otherwise". why is non-empty when
// the prose cannot be applied: two sentences send one edge to different
// steps, or two conditions of opposite sides both go to one step (the way
// on to the next step, a third exit, is then left out), or the reader left
// a branch of the step unread: half a decision is worse than the defaults.
// next is the step's next step (End after the last): a condition whose
// move goes there anyway ("Once the user picks a team, proceed to the next
// step") is no decision, and its other side stays the default.
func ProseEdges(rd prose.Reading, next string) (pick [2]*prose.Edge, why string) {
	edges := rd.Edges
	if len(rd.Unread) > 0 && hasForward(edges) {
		u := rd.Unread[0]
		return pick, fmt.Sprintf("part of its prose is not read (%q: %s), so none of its branches is applied", u.Quote, u.Why)
	}
	for k := range edges {
		e := &edges[k]
		if e.Back {
			continue
		}
		switch p := pick[e.Kind]; {
		case p == nil:
			pick[e.Kind] = e
		case p.Target != e.Target:
			return [2]*prose.Edge{}, fmt.Sprintf("its prose sends the %s edge both to %s and to %s", e.Kind, p.Target, e.Target)
		}
	}
	s, f := pick[prose.Success], pick[prose.Failure]
	if s != nil && f != nil && s.Conditional && f.Conditional && s.Target == f.Target {
		return [2]*prose.Edge{}, fmt.Sprintf("two conditions both go to %s, so where the step goes otherwise is not said", s.Target)
	}
	for k, e := range pick {
		if other := 1 - k; e != nil && e.Conditional && e.Target != next && pick[other] == nil && !hasBack(edges, prose.Kind(other)) {
			pick[other] = &prose.Edge{Kind: prose.Kind(other), Label: "otherwise", Start: e.Start, End: e.End, Quote: e.Quote}
		}
	}
	return pick, ""
}

func hasForward(edges []prose.Edge) bool {
	for _, e := range edges {
		if !e.Back {
			return true
		}
	}
	return false
}

// firstBack is the first loop edge of kind k the prose states, or nil: a
// loop becomes the step's edge where no forward edge of the prose states
// that edge (FORMAT 6.4, 6.5).
//
// A loop on the step itself read from "keep X until C" is not applied: the
// prose names no step, and on the real write-ups the round restarts at an
// earlier step the reader infers ("If rebasing, continue the rebase process
// until all commits are rebased" goes back to 1 in resolving-merge-conflicts)
// or the repetition is inside the step ("keep raising the rate until it's
// debuggable"). It stays in Step.Loops, and lint says so.
func firstBack(edges []prose.Edge, k prose.Kind, self string) *prose.Edge {
	for i := range edges {
		e := &edges[i]
		if !e.Back || e.Kind != k || e.Target == "" {
			continue
		}
		if e.Target == self && strings.Contains(e.Label, "until ") {
			continue
		}
		return e
	}
	return nil
}

func hasBack(edges []prose.Edge, k prose.Kind) bool {
	for _, e := range edges {
		if e.Back && e.Kind == k {
			return true
		}
	}
	return false
}

// globalContinue reads the text before the first step, where a write-up
// says what holds for all of its steps.
func (c *compilation) globalContinue(ids []string) (bool, prose.Global) {
	s := c.skill
	from := 0
	if fm := s.Frontmatter; fm != nil && !fm.Range.IsZero() {
		from = fm.Range.End.Byte
	}
	to := s.Steps[0].Range.Start.Byte
	if from >= to || to > len(s.Source) {
		return false, prose.Global{}
	}
	text := proseOnly(c.sourceText()[from:to], nil, nil)
	rd := prose.Read(text, prose.Context{Steps: ids})
	if len(rd.Globals) == 0 {
		return false, prose.Global{}
	}
	g := rd.Globals[0]
	g.Start += from
	g.End += from
	return true, g
}

func (c *compilation) absRange(start, end int) Range {
	return c.idx.rng(start-c.idx.base, end-c.idx.base)
}

func stepIDs(s *Skill) []string {
	ids := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		ids[i] = st.ID
	}
	return ids
}

// ReadProse reads what the prose of each step of s says (FORMAT 6.4 to
// 6.6), one Reading per step in order, with every offset an offset into
// s.Source; nil for a step whose prose says nothing it reads, as most
// steps' prose does not (a Reading is four slices, a pointer one word). The text read is a step's source with fenced code, HTML
// comments and its annotation bullets blanked out: code is not prose, and
// an annotation states its own edge. Lint's prose-branch rule reads the
// same text through this function.
func ReadProse(s *Skill) []*prose.Reading {
	if len(s.Steps) == 0 {
		return nil
	}
	if s.prose != nil {
		return s.prose // read once by Compile; the readings are not changed after
	}
	return readProse(s, stepIDs(s))
}

// readProse is ReadProse with the steps' IDs (stepIDs).
func readProse(s *Skill, ids []string) []*prose.Reading {
	ph, names := phases(s), stepNames(s)
	index := s.byID // Compile's; the readings leave it unchanged
	if index == nil {
		index = make(map[string]int, len(ids))
		for i, id := range ids {
			if _, dup := index[id]; !dup {
				index[id] = i
			}
		}
	}
	out := make([]*prose.Reading, len(s.Steps))
	var buf *prose.Buffer // made by the first step the prefilter lets through
	var scratch []byte    // proseOnly's
	// One string of the whole source: a step's text is a slice of it, not
	// a copy of its own. Compile has usually made it already.
	source := s.text
	if source == "" {
		source = string(s.Source)
	}
	for i := range s.Steps {
		if rd := readStep(&buf, &scratch, s, source, i, ids, names, index, ph); len(rd.Edges)+len(rd.Waits)+len(rd.Globals)+len(rd.Unread) > 0 {
			out[i] = new(prose.Reading)
			*out[i] = rd // a copy: &rd would put every step's rd on the heap, empty or not
		}
	}
	return out
}

func readStep(buf **prose.Buffer, scratch *[]byte, s *Skill, source string, i int, ids, names []string, index map[string]int, ph bool) prose.Reading {
	st := s.Steps[i]
	from, to := st.Range.Start.Byte, min(st.Range.End.Byte, len(s.Source))
	if st.Range.IsZero() || from < 0 || from >= to {
		return prose.Reading{}
	}
	next := End
	if i+1 < len(s.Steps) {
		next = s.Steps[i+1].ID
	}
	ctx := prose.Context{Step: st.ID, Steps: ids, Next: next, Phases: ph, Index: index, Names: names}
	src := source[from:to]
	// Blanking code, comments and annotations makes no word or arrow that
	// the source lacks unless an annotation's edge cuts a word (code and
	// comments are blanked from and to a byte no word holds): a source the
	// prefilter turns away reads as nothing, and its prose, for a step with
	// annotations a copy, is not made.
	if !prose.MayRead(src, ctx) && !cutsWord(st, src, from) {
		return prose.Reading{}
	}
	var blank [][2]int
	for i := range st.Annotations {
		r := &st.Annotations[i].Range // not a copy of the whole annotation
		blank = append(blank, [2]int{r.Start.Byte - from, r.End.Byte - from})
	}
	text := proseOnly(src, blank, scratch)
	if *buf == nil {
		// The prose of most skills says nothing: they need no buffer.
		*buf = new(prose.Buffer)
	}
	rd := (*buf).Read(text, ctx)
	rd.Shift(from)
	rd.Edges = slices.DeleteFunc(rd.Edges, func(e prose.Edge) bool { return namesOwnItem(st, e) })
	if repeatsPart(st.Goal) {
		// "5. **Repeat** - Continue until the quality bar is met": the
		// step is the repetition of its part, which starts over at the
		// part's first step.
		if p := partStart(s, i); p < i {
			for k := range rd.Edges {
				if e := &rd.Edges[k]; e.Back && e.Target == st.ID && strings.HasPrefix(e.Label, "until ") {
					e.Target = s.Steps[p].ID
				}
			}
		}
	}
	return rd
}

// cutsWord reports whether an edge of an annotation of st, as proseOnly
// blanks it in src (the step's source, from its byte from), falls between
// two bytes of a word.
func cutsWord(st *Step, src string, from int) bool {
	cuts := func(k int) bool {
		return k > 0 && k < len(src) && isWordByte(src[k-1]) && isWordByte(src[k])
	}
	for i := range st.Annotations {
		r := &st.Annotations[i].Range
		if cuts(r.Start.Byte-from) || cuts(r.End.Byte-from) {
			return true
		}
	}
	return false
}

// repeatsPart reports whether a goal says only that the step repeats:
// "Repeat", "Loop", "Iterate", "Repeat the loop".
func repeatsPart(goal string) bool {
	// Every step's goal comes here: most are turned away by their first
	// word before anything is lowercased or split (a twentieth of lint's
	// instructions on 2,000 skills went to that).
	lead := strings.TrimLeft(goal, " \t")
	if !hasPrefixFold(lead, "repeat") && !hasPrefixFold(lead, "loop") && !hasPrefixFold(lead, "iterate") {
		return false
	}
	f := strings.Fields(strings.ToLower(strings.TrimRight(goal, ".:!")))
	if len(f) == 0 || len(f) > 3 {
		return false
	}
	switch f[0] {
	case "repeat", "loop", "iterate":
		return len(f) == 1 || f[len(f)-1] == "loop" || f[len(f)-1] == "again" || f[len(f)-1] == "cycle"
	}
	return false
}

// hasPrefixFold reports whether s begins with prefix, in any case. prefix
// is lowercase ASCII and starts with a letter other than k or s, the only
// ones a non-ASCII letter folds to: so a first byte that differs in ASCII
// case settles it without EqualFold's call (every step's goal and lead
// comes here, and most are turned away by it).
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && s[0]|0x20 == prefix[0] && strings.EqualFold(s[:len(prefix)], prefix)
}

// partStart is the index of the first step of the part that holds step i.
func partStart(s *Skill, i int) int {
	start := 0
	for _, p := range s.parts {
		if p <= i {
			start = p
		}
	}
	return start
}

// stepNames are the titles prose may call the steps by ("go back to
// DIAGNOSE", "→ FULL SCAN"): a heading step's title and a bold lead; nil
// when no step has one. A list item's first sentence is no name.
func stepNames(s *Skill) []string {
	var names []string
	for i, st := range s.Steps {
		if from := st.GoalFrom(); s.Form != FormHeading && from != GoalBoldLead || from == GoalHeadingParagraph || from == GoalFirstSentence || st.Goal == "" {
			continue
		}
		if names == nil {
			names = make([]string, len(s.Steps))
		}
		names[i] = strings.TrimRight(st.Goal, ".:")
	}
	return names
}

// namesOwnItem reports whether e was read inside a numbered list of the
// step that has an item of e's target number: there "step 1" names the
// list's own item 1 (FORMAT 6.2), not step 1 of the skill.
func namesOwnItem(st *Step, e prose.Edge) bool {
	n, err := strconv.Atoi(e.Target)
	if err != nil {
		return false
	}
	for _, l := range st.SubLists() {
		if e.Start >= l.Range.Start.Byte && e.Start < l.Range.End.Byte && n >= l.Start && n < l.Start+l.Count {
			return true
		}
	}
	return false
}

// phases reports whether the skill calls its steps phases: its first step
// is written "Phase 1: ...", so that prose's "phase 2" names step 2.
func phases(s *Skill) bool {
	st := s.Steps[0]
	from, to := st.Range.Start.Byte, min(st.Range.End.Byte, len(s.Source))
	if from < 0 || from >= to {
		return false
	}
	line := s.Source[from:to]
	if k := bytes.IndexByte(line, '\n'); k >= 0 {
		line = line[:k]
	}
	line = bytes.TrimLeft(line, "#*0123456789.) \t")
	return len(line) >= 5 && strings.EqualFold(string(line[:5]), "phase")
}

// proseOnly returns src as text with fenced code blocks, HTML comments and
// the byte ranges of blank replaced by spaces. Line breaks are kept and
// every other byte keeps its offset, so offsets into the text are offsets
// into src. A text it blanks is worked out in *scratch, when given, which
// it keeps for the next call: ReadProse blanks the annotations of most
// steps, one after the other.
func proseOnly(src string, blank [][2]int, scratch *[]byte) string {
	// Most steps hold no code and no comment: their lines are not read one
	// by one, and with nothing else to blank the text is src as it stands.
	fenced := strings.Contains(src, "```") || strings.Contains(src, "~~~")
	if len(blank) == 0 && !fenced && !strings.Contains(src, "<!--") {
		return src
	}
	var b []byte
	if scratch != nil {
		b = (*scratch)[:0]
	}
	b = append(b, src...)
	clear := func(a, z int) {
		a, z = max(a, 0), min(z, len(b))
		for k := a; k < z; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	for _, r := range blank {
		clear(r[0], r[1])
	}
	var fence []byte
	for off := 0; fenced && off < len(b); {
		end := bytes.IndexByte(b[off:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += off
		}
		// A loop, not bytes.TrimLeft, which builds a set from its cutset
		// on every call: this runs on every line of every step.
		i := off
		for i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '>') {
			i++
		}
		trimmed := b[i:end]
		switch {
		case fence != nil:
			done := bytes.HasPrefix(trimmed, fence)
			clear(off, end)
			if done {
				fence = nil
			}
		case bytes.HasPrefix(trimmed, []byte("```")) || bytes.HasPrefix(trimmed, []byte("~~~")):
			fence = bytes.Clone(trimmed[:3])
			clear(off, end)
		}
		off = end + 1
	}
	// HTML comments may span lines; a comment left open runs to the end.
	for off := 0; off < len(b); {
		k := bytes.Index(b[off:], []byte("<!--"))
		if k < 0 {
			break
		}
		a := off + k
		z := bytes.Index(b[a+4:], []byte("-->"))
		if z < 0 {
			clear(a, len(b))
			break
		}
		clear(a, a+4+z+3)
		off = a + 4 + z + 3
	}
	if scratch != nil {
		*scratch = b
	}
	return string(b)
}

// keepReachable undoes prose and shape edges that would leave a step
// unreachable which the format's defaults reach: a reader who took "proceed to Step
// 4B" at the end of 3B while nothing else leads to 4A has misread the
// write-up (or the write-up's branch is in prose skillc did not read), and
// a wrong edge is worse than the default. The edges undone are those of the
// step written just before the step that was lost, whose default led to
// it; for prose, the step says why in ProseDropped, and lint reports it
// (an undone shape edge just leaves no record). Each round
// undoes at least one step's edges, so it ends within len(Steps) rounds.
func (c *compilation) keepReachable() {
	s := c.skill
	base := unreachable(s, false)
	for range s.Steps {
		lost := unreachable(s, true)
		undone := false
		for i, st := range s.Steps {
			if !lost[st.ID] || base[st.ID] || i == 0 {
				continue
			}
			prev := s.Steps[i-1]
			prose := false
			for _, e := range [2]*Edge{&prev.Success, &prev.Failure} {
				if e.From == FromProse || e.From == FromShape {
					prose = prose || e.From == FromProse
					*e = Edge{}
					undone = true
				}
			}
			// An undone shape edge leaves no record (pruneShapeInferences);
			// undone prose says why, where lint reports the prose.
			if prose && prev.ProseDropped() == "" {
				prev.v2().ProseDropped = fmt.Sprintf("with them, step %q could never be reached; state the edges with annotations", st.ID)
			}
		}
		if !undone {
			return
		}
	}
}

// unreachable is the set of step IDs the entry does not reach, with the
// prose edges (withProse) or with the format's defaults in their place.
// A skill whose steps cannot be told apart is left to lint: nil.
func unreachable(s *Skill, withProse bool) map[string]bool {
	t := s.Template()
	if !withProse {
		for i, st := range s.Steps {
			if st.Success.From == FromProse || st.Success.From == FromShape {
				t.Steps[i].NextOnSuccess = t.DefaultNext(i, graph.Success)
			}
			if st.Failure.From == FromProse || st.Failure.From == FromShape {
				t.Steps[i].NextOnFailure = t.DefaultNext(i, graph.Failure)
			}
		}
	}
	g, err := graph.New(t)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, id := range g.Unreachable() {
		out[id] = true
	}
	return out
}
