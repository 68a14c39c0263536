package compiler

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// This file holds the readings of FORMAT version 2 (section 6.2 and 6.3):
// the steps and goals of write-ups as people write them. Each reading is
// off under Options.Strict and records itself on the step it made
// (Step.From, Step.GoalFrom, Step.Inferences), so lint can show it.

// GoalLimit is the goal length, in characters, over which a first
// paragraph gives only its first sentence as the goal. It is lint's
// default limit (limits.max-goal-length): the compiler reads no config,
// and a goal that fits the default fits any looser limit.
const GoalLimit = 120

// stepHeading is a heading (or a paragraph) read as the start of a step.
type stepHeading struct {
	node    ast.Node
	text    string // the whole text, for messages
	keyword string // lowercased "step", "phase", ...; "" for "3. Title"
	written string // the ID as written: "3", "01", "2.1", "1b"
	id      string // the step ID it gives: "3", "1", "2.1", "1b", "gate-1"
	number  int    // the number a target such as "3" reaches, or -1
	title   string
	v2      bool // only version 2 reads it as a step
}

// stepKeywords lead heading-form steps in version 2; "step" is v1's own.
// Authors head the parts of a procedure with any of them, and gates
// (approval points) are numbered in a series of their own.
var stepKeywords = []string{"step", "phase", "stage", "part", "gate"}

// readStepHeading reads text as a step heading: v1's forms only under
// Strict, else version 2's as well.
func (c *compilation) readStepHeading(text string) (stepHeading, bool) {
	h := stepHeading{text: text, number: -1}
	if !c.infer {
		if !mayBeStepHeading(text) || !headingStep().MatchString(text) {
			return h, false
		}
		m := headingStep().FindStringSubmatch(text)
		h.keyword, h.written, h.title = "step", m[1], m[2]
		if m[3] != "" {
			h.keyword, h.written, h.title = "", m[3], m[4]
		}
		h.id, h.number = h.written, -1
		if n, err := strconv.Atoi(h.written); err == nil {
			h.number, h.id = n, strconv.Itoa(n)
		}
		return h, true
	}
	if !parseStepHeading(text, &h) {
		return h, false
	}
	if h.keyword == "" && isReferenceTitle(h.title) {
		// "## 1. Invariants": a numbered section, not a step.
		return h, false
	}
	h.v2 = !mayBeStepHeading(text) || !headingStep().MatchString(text)
	return h, true
}

// parseStepHeading reads version 2's step headings: `KEYWORD ID[ SEP
// Title]` with KEYWORD one of stepKeywords and SEP one of : . - -- – — ),
// or `ID. Title`, `ID) Title` and `2.1 Title`. An ID is a number, dotted
// numbers (2.1) or, after a keyword, a number and one letter (1b, 3A).
// Hand-written rather than a regexp: it runs on every heading of every
// file, and most headings fail at the first byte.
func parseStepHeading(text string, h *stepHeading) bool {
	s := text
	for _, kw := range stepKeywords {
		if len(s) > len(kw) && strings.EqualFold(s[:len(kw)], kw) && (s[len(kw)] == ' ' || s[len(kw)] == '\t') {
			h.keyword = kw
			s = strings.TrimLeft(s[len(kw):], " \t")
			break
		}
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	id, rest, ok := scanStepID(s, h.keyword != "")
	if !ok {
		return false
	}
	h.written = id
	h.id = id
	if n, ok := atoiSmall(id); ok {
		h.number, h.id = n, strconv.Itoa(n)
	} else if i := strings.IndexFunc(id, unicode.IsLetter); i > 0 {
		// "01b" reads as "1b", as "Step 01" reads as "1".
		if n, ok := atoiSmall(id[:i]); ok {
			h.id = strconv.Itoa(n) + id[i:]
		}
	}
	if h.keyword != "" {
		t := strings.TrimLeft(rest, " \t")
		if t == "" {
			return true
		}
		for _, sep := range []string{"--", ":", ".", "-", "–", "—", ")"} {
			if strings.HasPrefix(t, sep) {
				h.title = strings.TrimSpace(t[len(sep):])
				return true
			}
		}
		return false
	}
	if strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, ")") {
		rest = rest[1:]
	} else if !strings.Contains(id, ".") {
		return false
	}
	if rest == "" || rest[0] != ' ' && rest[0] != '\t' {
		return false
	}
	h.title = strings.TrimSpace(rest)
	return h.title != ""
}

// scanStepID reads a step ID at the start of s: 1-9 digits, then any
// ".digits", then (when letters) one ASCII letter that ends the word.
func scanStepID(s string, letters bool) (id, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 {
		return "", s, false
	}
	for i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j-i-1 > 9 {
			break
		}
		i = j
	}
	if letters && i < len(s) && isLetter(s[i]) && (i+1 == len(s) || !isLetter(s[i+1]) && s[i+1] < utf8.RuneSelf) {
		i++
	}
	if len(s[:i]) > 64 {
		return "", s, false
	}
	return s[:i], s[i:], true
}

// referenceWords end the titles of numbered sections that are reference,
// not steps: "1. Invariants", "2. Core rules", "7. Escalation triggers".
var referenceWords = map[string]bool{
	"invariants": true, "rules": true, "principles": true, "guidelines": true,
	"overview": true, "introduction": true, "background": true, "glossary": true,
	"terminology": true, "definitions": true, "references": true, "notes": true,
	"faq": true, "examples": true, "appendix": true, "triggers": true,
	"anti-patterns": true, "constraints": true, "resources": true,
}

// isReferenceTitle reports whether a heading title names a reference
// section rather than something to do.
func isReferenceTitle(title string) bool {
	f := strings.Fields(strings.ToLower(title))
	if len(f) == 0 || len(f) > 2 {
		return false
	}
	last := strings.TrimRight(f[len(f)-1], ":.)")
	return referenceWords[last]
}

// seriesIDs gives the headings of a minority series in a group their
// series' name: in "Phase 1..4, Gate 1, Gate 2, Phase 5", the gates are
// gate-1 and gate-2, so that their numbers do not collide with the
// phases'. The series with the most headings keeps plain numbers.
func seriesIDs(group []stepHeading) {
	count := map[string]int{}
	major := ""
	for _, h := range group {
		count[h.keyword]++
		if count[h.keyword] > count[major] || major == "" && h.keyword == group[0].keyword && count[h.keyword] == 1 {
			major = h.keyword
		}
	}
	if len(count) < 2 {
		return
	}
	for i := range group {
		h := &group[i]
		if h.keyword != major && h.keyword != "" && major != "" {
			h.id = h.keyword + "-" + h.id
			h.number = -1
			h.v2 = true
		}
	}
}

// goalFromParagraph gives a step headed "### Step 3" (no title) the first
// paragraph under the heading as its goal.
func (c *compilation) goalFromParagraph(b *stepBuild) {
	if len(b.blocks) == 0 {
		return
	}
	p := b.blocks[0]
	if p.Kind() != ast.KindParagraph {
		return
	}
	b.blocks = b.blocks[1:]
	gs, ge := c.blockSpan(p)
	b.st.GoalRange = c.idx.rng(gs, ge)
	b.st.Goal = c.inlineText(p, -1, -1, false)
	b.st.v2().GoalFrom = GoalHeadingParagraph
	c.shortenGoal(b)
	if b.st.GoalFrom() == GoalHeadingParagraph {
		b.st.addInference(Inference{Kind: GoalHeadingParagraph,
			Summary: fmt.Sprintf("step %q has no title: its goal is the paragraph under the heading", b.st.ID),
			Quote:   b.st.Goal, Range: b.st.GoalRange})
	}
}

// readGoal sets the goal of a list item's first paragraph p: a bold lead
// is the goal and the rest detail; a paragraph over GoalLimit gives its
// first sentence. skipS and skipE are an {#id} attribute's span.
func (c *compilation) readGoal(b *stepBuild, p ast.Node, skipS, skipE int) {
	b.st.Goal = c.inlineText(p, skipS, skipE, false)
	if !c.infer {
		return
	}
	if lead, ok := p.FirstChild().(*ast.Emphasis); ok && lead.Level == 2 && lead.NextSibling() != nil {
		w := textWriter{}
		c.writeInline(&w, lead, skipS-c.bodyOff, skipE-c.bodyOff, false)
		goal := strings.TrimRight(w.String(), " :")
		after := c.inlineFrom(lead.NextSibling(), skipS, skipE)
		rest := strings.TrimLeft(after, " -–—:")
		// A lead stands apart: it ends in punctuation ("**Check the
		// ledger.**") or a separator follows it ("**Review** - ...").
		// "**The SDK** for the project" is one sentence with a bold part.
		apart := strings.HasSuffix(goal, ".") || strings.HasSuffix(goal, "?") || strings.HasSuffix(goal, "!") ||
			strings.HasSuffix(w.String(), ":") || len(rest) < len(after) && (strings.HasPrefix(after, ":") ||
			strings.HasPrefix(strings.TrimLeft(after, " "), "- ") || strings.HasPrefix(strings.TrimLeft(after, " "), "– ") ||
			strings.HasPrefix(strings.TrimLeft(after, " "), "— ") || strings.HasPrefix(strings.TrimLeft(after, " "), "-- "))
		if goal != "" && rest != "" && apart {
			b.st.Goal = goal
			b.lead = rest
			b.st.v2().GoalFrom = GoalBoldLead
			b.st.addInference(Inference{Kind: GoalBoldLead,
				Summary: fmt.Sprintf("step %q: the bold lead %q is the goal, the rest of the paragraph detail", b.st.ID, goal),
				Quote:   goal, Range: b.st.GoalRange})
			return
		}
	}
	c.shortenGoal(b)
}

// shortenGoal cuts a goal over GoalLimit to its first sentence, moving the
// rest to the step's lead detail.
func (c *compilation) shortenGoal(b *stepBuild) {
	g := b.st.Goal
	// No more characters than bytes: most goals pass on their length,
	// without a count.
	if len(g) <= GoalLimit || utf8.RuneCountInString(g) <= GoalLimit {
		return
	}
	i := sentenceEnd(g)
	if i <= 0 || i >= len(g) {
		return
	}
	first, rest := strings.TrimSpace(g[:i]), strings.TrimSpace(g[i:])
	b.st.Goal = first
	if b.lead != "" {
		rest += "\n\n" + b.lead
	}
	b.lead = rest
	b.st.v2().GoalFrom = GoalFirstSentence
	b.st.addInference(Inference{Kind: GoalFirstSentence,
		Summary: fmt.Sprintf("step %q: the first paragraph is over %d characters, so its first sentence is the goal", b.st.ID, GoalLimit),
		Quote:   first, Range: b.st.GoalRange})
}

// sentenceEnd returns the index just after the first sentence of s (its
// ".", "?" or "!" followed by a space and not ending an abbreviation
// such as "e.g."), or -1.
func sentenceEnd(s string) int {
	for i := 0; i+1 < len(s); i++ {
		ch := s[i]
		if ch != '.' && ch != '?' && ch != '!' || s[i+1] != ' ' {
			continue
		}
		if ch == '.' {
			// "e.g. ", "i.e. ", "etc. ", "vs. ": not a sentence's end.
			j := i
			for j > 0 && s[j-1] != ' ' {
				j--
			}
			w := strings.ToLower(s[j : i+1])
			if w == "e.g." || w == "i.e." || w == "vs." || w == "etc." || w == "approx." || w == "cf." || strings.Count(w, ".") > 1 {
				continue
			}
		}
		return i + 1
	}
	return -1
}

// inlineFrom is the plain text of the inline nodes from n to the last
// sibling.
func (c *compilation) inlineFrom(n ast.Node, skipStart, skipEnd int) string {
	w := textWriter{}
	c.writeInlineNodes(&w, n, skipStart-c.bodyOff, skipEnd-c.bodyOff, false)
	return w.String()
}

// noTools are tools values that say the step needs none.
var noTools = map[string]bool{"none": true, "n/a": true, "-": true, "no tools": true, "nothing": true, "—": true}

// toolsAreNames reads a tools value the version 2 way and reports whether
// it is a list of names to read as tools, and whether it carries a note.
// "none" names no tool (the bullet is consumed); a value that reads as
// prose ("ask the user for the order number", "Actual commands, library
// names") is detail, not tools. A parenthesised note after a name is
// skipped by readTools, and the bullet stays in the detail so the note is
// not lost.
func (c *compilation) toolsAreNames(b *stepBuild, bt *bulletText, syn annotationSyntax, item ast.Node) (names, note bool) {
	value := strings.TrimSpace(bt.s[syn.valueStart:])
	// The value's range, worked out only for an inference: most tools
	// values are plain names and infer nothing.
	valueRange := func() Range { return c.btRange(bt, syn.valueStart, len(bt.s)) }
	if noTools[strings.ToLower(strings.Trim(value, " .*`"))] {
		b.consumed = append(b.consumed, item)
		b.st.addInference(Inference{Kind: ToolsNone,
			Summary: fmt.Sprintf("step %q: %q means no tools", b.st.ID, value), Quote: value, Range: valueRange()})
		return false, false
	}
	if value == "" {
		return true, false // "tools:" with nested bullets
	}
	bare := stripNotes(value)
	note = bare != value
	if note {
		b.st.addInference(Inference{Kind: ToolsNote,
			Summary: fmt.Sprintf("step %q: the text in parentheses in %q is a note, not a tool", b.st.ID, value), Quote: value, Range: valueRange()})
	}
	// Split by hand: this runs on every tools bullet, and most values are
	// a few names that need no allocation to check.
	for len(bare) > 0 {
		part := bare
		if i := strings.IndexAny(bare, ",;"); i >= 0 {
			part, bare = bare[:i], bare[i+1:]
		} else {
			bare = ""
		}
		part = strings.TrimSpace(part)
		if !strings.ContainsAny(part, " \t") {
			continue
		}
		for _, w := range strings.Fields(part) {
			if c.proseWord(w) {
				b.st.addInference(Inference{Kind: ToolsProse,
					Summary: fmt.Sprintf("step %q: the tools value %q reads as prose, so it is detail, not tool names", b.st.ID, value), Quote: value, Range: valueRange()})
				return false, false
			}
		}
	}
	return true, note
}

// stripNotes removes parenthesised notes from s: a "(" after a space,
// up to its ")"; "send_email()" keeps its parentheses.
func stripNotes(s string) string {
	for {
		i := strings.Index(s, " (")
		if i < 0 {
			return s
		}
		i++
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return strings.TrimSpace(s[:i])
		}
		s = s[:i] + " " + s[i+j+1:]
	}
}

// proseWord reports whether a word of a space-separated tools value reads
// as a word of prose rather than a tool's name: three or more letters and
// nothing else, starting in lowercase ("ask", "the", "commands"), and not
// a name in the skill's allowed-tools. Names have marks (search_thread,
// mcp.fetch, list-users), capitals (Read, Bash, getUser) or backticks;
// single letters ("a b c") are names too.
func (c *compilation) proseWord(w string) bool {
	w = strings.TrimRight(w, ".:")
	if len(w) < 3 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !(w[i] >= 'a' && w[i] <= 'z') {
			return false
		}
	}
	if fm := c.skill.Frontmatter; fm != nil {
		for _, t := range fm.AllowedTools {
			if strings.EqualFold(t.Name, w) {
				return false
			}
		}
	}
	return true
}

// subLists records the numbered lists inside the step's blocks, at any
// depth. Only lists, list items and quotes can hold a list, so nothing
// else is descended into; a plain recursion, not ast.Walk, so that no
// closure is allocated per block.
func (c *compilation) subLists(b *stepBuild) {
	for _, blk := range b.blocks {
		c.collectLists(b.st, blk)
	}
}

func (c *compilation) collectLists(st *Step, n ast.Node) {
	switch v := n.(type) {
	case *ast.List:
		if v.IsOrdered() {
			x := st.v2()
			x.SubLists = append(x.SubLists, SubList{Range: c.rangeOf(v), Start: v.Start, Count: v.ChildCount()})
		}
	case *ast.ListItem, *ast.Blockquote:
	default:
		return
	}
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		c.collectLists(st, ch)
	}
}
