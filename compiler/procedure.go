package compiler

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// This file finds the procedure among a write-up's lists (FORMAT 6.2):
// which ordered list a reader calls the steps, and the lists that a
// markdown renderer splits but a reader reads as one.

// listPart is one ordered list of the procedure. A split procedure has
// several: each after the first continues the numbering of the one
// before, and between holds what split them (detail of the step before).
type listPart struct {
	list    *ast.List
	between []ast.Node
	// marked is true when a Steps (Workflow, ...) heading marks the
	// list: the author named the procedure, and lists after it are prose.
	marked bool
	// start is the number of the part's first step: the list's own
	// start, or for a list that starts again at 1 after another, the
	// number after the last step before it.
	start int
	// chosen, on the first part, says why version 2 took this list
	// over the list v1 would take; "" when both agree.
	chosen string
}

// stepLists picks the list of steps. v1: the first top-level ordered list
// after a heading named Steps, Workflow, Procedure or Process, else the
// first top-level ordered list. Version 2 passes over lists that are not
// a procedure (links, rules, definitions, examples) and joins the lists
// that continue it.
//
// It also returns the heading of the section that holds the chosen list,
// nil when there is none or under Strict.
func (c *compilation) stepLists(doc ast.Node) ([]listPart, *ast.Heading) {
	var first, firstAfter, v2First, v2After *ast.List
	var skipped *ast.List
	skipWhy := ""
	afterStepsHeading := false
	section := "" // the text of the last heading
	var head, chosenHead *ast.Heading
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch v := n.(type) {
		case *ast.Heading:
			head = v
			section = c.inlineText(v, -1, -1, false)
			t := strings.ToLower(strings.TrimSuffix(section, ":"))
			if stepsHeadings[strings.TrimSpace(t)] {
				afterStepsHeading = true
			}
		case *ast.List:
			if !v.IsOrdered() {
				continue
			}
			if first == nil {
				first = v
			}
			if afterStepsHeading && firstAfter == nil {
				firstAfter = v
			}
			if !c.infer || v2After != nil {
				continue
			}
			if why := c.notProcedure(v, section); why != "" {
				if skipped == nil {
					skipped, skipWhy = v, why
				}
				continue
			}
			if v2First == nil {
				v2First, chosenHead = v, head
			}
			if afterStepsHeading {
				v2After, chosenHead = v, head
			}
		}
		if !c.infer && firstAfter != nil {
			break
		}
	}
	v1 := firstAfter
	if v1 == nil {
		v1 = first
	}
	if !c.infer {
		if v1 == nil {
			return nil, nil
		}
		return []listPart{{list: v1, start: v1.Start}}, nil
	}
	chosen := v2After
	if chosen == nil {
		chosen = v2First
	}
	if chosen == nil {
		return nil, nil
	}
	parts := []listPart{{list: chosen, start: chosen.Start, marked: v2After != nil}}
	if chosen != v1 && v1 != nil && skipped != nil {
		parts[0].chosen = fmt.Sprintf("the list on line %d is %s, not steps", c.rangeOf(skipped).Start.Line, skipWhy)
	}
	return c.resumedLists(parts), chosenHead
}

// sectionSteps reads a ladder of sections as the steps: when the section
// that holds the procedure's list is the first of two or more sibling
// sections in a row that each hold their own numbered list from 1
// ("## Restart the app" 1-3, "## Restart the browser" 1-3, ...), each
// section is a step (its heading the goal) and its list is the step's
// detail. Two sections are too few to tell a ladder from a procedure and
// its reference ("## Usage" 1-4, "## Themes" 1-10). A section named Steps, Workflow, Procedure or Process holds the
// procedure itself, so it is never a ladder. Else nil.
func (c *compilation) sectionSteps(head *ast.Heading) []*stepBuild {
	if head == nil || !c.infer {
		return nil
	}
	t := strings.ToLower(strings.TrimSuffix(c.inlineText(head, -1, -1, false), ":"))
	if stepsHeadings[strings.TrimSpace(t)] {
		return nil
	}
	level := head.Level
	var heads []*ast.Heading
	for n := ast.Node(head); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level > level {
			continue
		}
		if h.Level < level || !c.sectionHasList(h) {
			break
		}
		heads = append(heads, h)
	}
	if len(heads) < 3 || c.alternatives(heads) {
		return nil
	}
	builds := make([]*stepBuild, 0, len(heads))
	for i, h := range heads {
		b := &stepBuild{st: &Step{ID: strconv.Itoa(i + 1), V2: &StepV2{From: StepSection}}, number: i + 1, v2: true}
		hs, he := c.blockSpan(h)
		end := he
		for n := h.NextSibling(); n != nil; n = n.NextSibling() {
			if nh, ok := n.(*ast.Heading); ok && nh.Level <= level {
				break
			}
			b.blocks = append(b.blocks, n)
			if _, e := c.blockSpan(n); e > end {
				end = e
			}
		}
		b.st.Range = c.idx.rng(hs, end)
		b.st.IDRange = c.idx.rng(hs, he)
		b.st.GoalRange = b.st.IDRange
		b.st.Goal = c.inlineText(h, -1, -1, false)
		b.st.addInference(Inference{Kind: StepSection,
			Summary: fmt.Sprintf("step %q is the section %q, one of %d in a row that each hold their own numbered list", b.st.ID, b.st.Goal, len(heads)),
			Quote:   b.st.Goal, Range: b.st.IDRange})
		builds = append(builds, b)
	}
	return builds
}

// alternativeWords open the headings of alternative ways to do one thing
// ("Via the console", "Option B: the API"), which are not a ladder.
var alternativeWords = map[string]bool{"via": true, "option": true, "using": true, "alternatively": true, "method": true, "or": true, "with": true}

// alternatives reports whether section headings name alternative ways
// or kinds rather than a ladder: one opens with a word of
// alternativeWords, or most share their first word ("Steps for the
// commander", "Steps for the scribe") or their last ("Bank
// reconciliation", "Intercompany reconciliation").
func (c *compilation) alternatives(heads []*ast.Heading) bool {
	firsts, lasts := map[string]int{}, map[string]int{}
	for _, h := range heads {
		f := strings.Fields(strings.ToLower(c.inlineText(h, -1, -1, false)))
		if len(f) == 0 {
			continue
		}
		first := strings.TrimRight(f[0], ":")
		if alternativeWords[first] {
			return true
		}
		firsts[first]++
		lasts[strings.TrimRight(f[len(f)-1], ":.!?")]++
	}
	for _, m := range []map[string]int{firsts, lasts} {
		for _, n := range m {
			if 2*n > len(heads) {
				return true
			}
		}
	}
	return false
}

// sectionHasList reports whether the section under h holds, before any
// deeper heading, a numbered list that starts at 1.
func (c *compilation) sectionHasList(h *ast.Heading) bool {
	for n := h.NextSibling(); n != nil; n = n.NextSibling() {
		if n.Kind() == ast.KindHeading {
			return false
		}
		if l, ok := n.(*ast.List); ok && l.IsOrdered() {
			return l.Start == 1 && c.notProcedure(l, c.inlineText(h, -1, -1, false)) == ""
		}
	}
	return false
}

// resumedLists adds to parts the ordered lists that continue the
// numbering of the last one after something split it: a table, a code
// block, a paragraph or bullets indented less than the item's text. A
// heading or a thematic break ends the procedure. Each split is reported
// once, with the indentation that would make it one list.
func (c *compilation) resumedLists(parts []listPart) []listPart {
	l := parts[0].list
	for {
		next := parts[len(parts)-1].start + l.ChildCount()
		var between []ast.Node
		var resumed *ast.List
		for n := l.NextSibling(); n != nil; n = n.NextSibling() {
			if n.Kind() == ast.KindHeading || n.Kind() == ast.KindThematicBreak {
				break
			}
			if ol, ok := n.(*ast.List); ok && ol.IsOrdered() {
				if ol.Start == next {
					resumed = ol
				}
				break
			}
			between = append(between, n)
		}
		if resumed == nil {
			if sequel := c.sequel(between, l); sequel != nil && !parts[0].marked {
				parts = append(parts, listPart{list: sequel, between: between, start: next})
				l = sequel
				continue
			}
			return parts
		}
		if len(between) > 0 {
			c.reportSplit(l, between[0], next)
		}
		parts = append(parts, listPart{list: resumed, between: between, start: next})
		l = resumed
	}
}

// sequel returns the ordered list after l that starts again at 1 with
// only paragraphs between (prose that introduces it: "To diagnose a
// failing test, use these options, in order."), when it reads as a
// procedure of two or more steps: in one section, such lists are the
// parts of one procedure, and a reader numbers their steps on. Else nil.
// A list after a Steps heading is the whole procedure: its caller does
// not look for sequels then.
func (c *compilation) sequel(between []ast.Node, l *ast.List) *ast.List {
	if len(between) == 0 {
		return nil
	}
	for _, n := range between {
		if n.Kind() != ast.KindParagraph {
			return nil
		}
	}
	last := between[len(between)-1]
	if summarises(c.leadText(last)) {
		return nil // "In summary, there are three states ...": what came before, again
	}
	ol, ok := last.NextSibling().(*ast.List)
	if !ok || !ol.IsOrdered() || ol.Start != 1 || ol.ChildCount() < 2 || c.notProcedure(ol, "") != "" {
		return nil
	}
	return ol
}

// summarises reports whether a paragraph opens as a summary of what came
// before ("In summary, ...", "To recap: ..."): the list it introduces
// restates, it does not go on.
func summarises(text string) bool {
	for _, p := range []string{"in summary", "to summarize", "to summarise", "to recap", "in short", "recap:", "summary:"} {
		if len(text) >= len(p) && strings.EqualFold(text[:len(p)], p) {
			return true
		}
	}
	return false
}

// reportSplit warns at the block that split a numbered list.
func (c *compilation) reportSplit(l *ast.List, at ast.Node, next int) {
	item, ok := l.LastChild().(*ast.ListItem)
	if !ok {
		return
	}
	lastID := strconv.Itoa(next - 1)
	markerCol := c.column(c.abs(item.Pos()))
	content := markerCol + item.Offset
	s, e := c.blockSpan(at)
	col := c.column(s)
	need := content - col
	d := Diagnostic{Severity: SeverityWarning, Rule: "list-split",
		Summary: fmt.Sprintf("this %s ends the numbered list in markdown; step %d goes on after it", c.blockName([]ast.Node{at}), next),
		Range:   c.idx.rng(s, min(e, c.lineEnd(s))),
	}
	if need > 0 {
		d.Detail = fmt.Sprintf("skillc reads one procedure, but other renderers show two lists and a %s outside step %s: indent it by %d more space%s, to column %d under the text of step %s",
			c.blockName([]ast.Node{at}), lastID, need, plural(need), content+1, lastID)
		// The fix is the line re-indented; a line that is not UTF-8 (an
		// invalid-encoding error already) gets no fix to copy.
		if line := c.src[s:c.lineEnd(s)]; utf8.Valid(line) {
			d.Suggestion = strings.Repeat(" ", content) + strings.TrimLeft(string(line), " \t")
			if edits := c.indentEdits(s, c.splitEnd(e, next), content, need); edits != nil {
				d.Fixes = []Fix{{Title: fmt.Sprintf("indent the %s by %d space%s", c.blockName([]ast.Node{at}), need, plural(need)), Safe: true, Edits: edits}}
			}
		}
	} else {
		d.Detail = fmt.Sprintf("skillc reads one procedure, but other renderers show two lists: indent the %s to column %d, under the text of step %s", c.blockName([]ast.Node{at}), content+1, lastID)
	}
	c.report(d)
}

// splitEnd is where the text that split the list before step next ends:
// the start of the line that resumes the list with "next." (or "next)"),
// so that the code blocks and bullets between, which a reader takes for
// the step's detail as skillc does, move together; e, the block's end,
// when no such line comes before a heading.
func (c *compilation) splitEnd(e, next int) int {
	marker := strconv.Itoa(next)
	for at := e; at < len(c.src); {
		start := at
		if c.src[start] == '\r' {
			start++
		}
		if start < len(c.src) && c.src[start] == '\n' {
			start++
		}
		end := c.lineEnd(start)
		line := string(c.src[start:end])
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) <= 3 {
			if rest, ok := strings.CutPrefix(trimmed, marker); ok && (strings.HasPrefix(rest, ". ") || strings.HasPrefix(rest, ") ") || rest == "." || rest == ")") {
				return start
			}
			if strings.HasPrefix(trimmed, "#") {
				return e
			}
		}
		if end <= at {
			break
		}
		at = end
	}
	return e
}

// indentEdits moves the block [s, e) under the step's text: its first
// line to column content, each later line that is not blank need columns
// right, so the block's own nesting is kept. A fenced code block's
// closing fence, when blockSpan left it out, moves with it, or it would
// close nothing. A later line indented with a tab gets no fix (nil):
// where a tab stop falls inside a list item is for the renderer to say.
// Safe: skillc already reads the block as the step's detail (FORMAT 6.2);
// the fix only makes other renderers read it so.
func (c *compilation) indentEdits(s, e, content, need int) []Edit {
	for s > 0 && c.src[s-1] != '\n' && (c.src[s-1] == ' ' || c.src[s-1] == '\t') {
		s--
	}
	if s > 0 && c.src[s-1] != '\n' {
		return nil // the block does not start its line
	}
	lead := s
	for lead < len(c.src) && (c.src[lead] == ' ' || c.src[lead] == '\t') {
		lead++
	}
	edits := []Edit{{Range: c.idx.rng(s, lead), NewText: strings.Repeat(" ", content)}}
	fence := ""
	if t := strings.TrimLeft(string(c.src[lead:c.lineEnd(lead)]), " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		fence = t[:3]
		// Only when the span stops before the closing fence.
		last := e
		for last > lead && c.src[last-1] != '\n' {
			last--
		}
		if last > lead && strings.HasPrefix(strings.TrimLeft(string(c.src[last:e]), " "), fence) {
			fence = ""
		}
	}
	pad := strings.Repeat(" ", need)
	line := c.lineEnd(s)
	for line < len(c.src) {
		// line is the end of the line just done; step past its newline.
		start := line
		if start < len(c.src) && c.src[start] == '\r' {
			start++
		}
		if start < len(c.src) && c.src[start] == '\n' {
			start++
		}
		if start >= len(c.src) {
			break
		}
		end := c.lineEnd(start)
		text := c.src[start:end]
		closing := fence != "" && start >= e && strings.HasPrefix(strings.TrimLeft(string(text), " "), fence)
		if start >= e && !closing {
			break
		}
		if len(strings.TrimSpace(string(text))) > 0 {
			if strings.IndexByte(string(text[:len(text)-len(strings.TrimLeft(string(text), " \t"))]), '\t') >= 0 {
				return nil
			}
			edits = append(edits, Edit{Range: c.idx.rng(start, start), NewText: pad})
		}
		line = end
		if closing {
			break
		}
	}
	return edits
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// column is the 0-based column, in bytes, of src offset off.
func (c *compilation) column(off int) int {
	i := off
	for i > 0 && c.src[i-1] != '\n' {
		i--
	}
	return off - i
}

// lineEnd is the offset of the end of the line holding off.
func (c *compilation) lineEnd(off int) int {
	for off < len(c.src) && c.src[off] != '\n' {
		off++
	}
	if off > 0 && off <= len(c.src) && c.src[off-1] == '\r' {
		off--
	}
	return off
}

// blockName names the first of blocks for a message.
func (c *compilation) blockName(blocks []ast.Node) string {
	if len(blocks) == 0 {
		return "list of another kind"
	}
	switch v := blocks[0].(type) {
	case *ast.List:
		if v.IsOrdered() {
			return "numbered list"
		}
		return "bullet list"
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return "code block"
	case *ast.Paragraph:
		// goldmark without its table extension reads a table as a
		// paragraph of "|" lines.
		if lines := v.Lines(); lines.Len() > 1 {
			if seg := lines.At(0); strings.HasPrefix(strings.TrimSpace(string(seg.Value(c.body))), "|") {
				return "table"
			}
		}
		return "paragraph"
	case *ast.HTMLBlock:
		return "HTML block"
	case *ast.Blockquote:
		return "quote"
	}
	return "block"
}

// notProcedure says why an ordered list is not what a reader calls the
// steps, or "". A list of links, a list of rules ("Always ...", "DO NOT
// ..."), a list of definitions ("**term** — what it means") and a list
// under a heading that names examples or rules are reference, not a
// procedure.
func (c *compilation) notProcedure(l *ast.List, section string) string {
	if isReferenceTitle(section) || strings.Contains(strings.ToLower(section), "example") {
		return fmt.Sprintf("under the heading %q", section)
	}
	items, links, rules, defs := 0, 0, 0, 0
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		items++
		p := it.FirstChild()
		if p == nil || p.Kind() != ast.KindParagraph && p.Kind() != ast.KindTextBlock {
			continue
		}
		text := c.leadText(p)
		if isLinkOnly(p, text) {
			links++
		}
		if isRule(text) {
			rules++
		}
		if c.isDefinition(p) {
			defs++
		}
	}
	switch {
	case items == 0:
		return ""
	case links == items:
		return "a list of links"
	case rules*2 >= items && rules >= 2:
		return "a list of rules"
	case defs == items && items >= 2:
		return "a list of definitions"
	}
	return ""
}

// leadText is the first line of paragraph p as written, without leading
// emphasis marks: enough to tell a rule or a URL by its first words,
// without rendering the paragraph (a slice of the body, no copy).
func (c *compilation) leadText(p ast.Node) string {
	lines := p.Lines()
	if lines.Len() == 0 {
		return ""
	}
	seg := lines.At(0)
	start, v := trimLine(c.body, seg.Start, seg.Stop)
	t := c.bodyString(start, start+len(v))
	return strings.TrimLeft(t, "*_")
}

// isLinkOnly reports whether a paragraph is nothing but a link or a URL.
func isLinkOnly(p ast.Node, text string) bool {
	if strings.HasPrefix(text, "http://") || strings.HasPrefix(text, "https://") {
		return p.Lines().Len() == 1 && !strings.Contains(text, " ")
	}
	switch p.FirstChild().(type) {
	case *ast.Link, *ast.AutoLink:
		return p.FirstChild() == p.LastChild()
	}
	return false
}

// ruleLeads open the items of a list of rules. Uppercase "DO" marks a
// rule; "Do the backup" is a step, so "do" counts only in capitals.
var ruleLeads = []string{"always ", "never ", "do not ", "don't ", "don’t ", "avoid ", "must not "}

func isRule(text string) bool {
	for _, r := range ruleLeads {
		if hasPrefixFold(text, r) {
			return true
		}
	}
	return strings.HasPrefix(text, "DO ") || strings.HasPrefix(text, "MUST ") || strings.HasPrefix(text, "NEVER ") ||
		strings.HasPrefix(text, "ALWAYS ") || strings.HasPrefix(text, "DON'T ")
}

// isDefinition reports whether a paragraph reads "**term** — what it
// means": a bold lead, a dash, and a description that goes on in
// lowercase ("**Unlabeled** — never triaged").
func (c *compilation) isDefinition(p ast.Node) bool {
	lead, ok := p.FirstChild().(*ast.Emphasis)
	if !ok || lead.Level != 2 || lead.NextSibling() == nil {
		return false
	}
	rest := strings.TrimLeft(c.inlineFrom(lead.NextSibling(), -1, -1), " ")
	for _, sep := range []string{"— ", "– ", "- ", "-- ", ": "} {
		if strings.HasPrefix(rest, sep) {
			r := strings.TrimLeft(rest[len(sep):], " ")
			return r != "" && r[0] >= 'a' && r[0] <= 'z'
		}
	}
	return false
}

// paragraphSteps finds steps written as paragraphs that start "Step N:"
// (bold or not), two or more siblings in a row at the top level of the
// body, with distinct IDs; a step runs to the next such paragraph or the
// next heading. Version 2 only.
func (c *compilation) paragraphSteps(doc ast.Node) []*stepBuild {
	if !c.infer {
		return nil
	}
	var run []stepHeading
	seen := map[string]bool{}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Kind() == ast.KindHeading && len(run) >= 2 {
			break
		}
		p, ok := n.(*ast.Paragraph)
		if !ok {
			continue
		}
		h, ok := c.readStepParagraph(p)
		if !ok {
			continue
		}
		if seen[h.id] {
			break // a second series: the first is the procedure
		}
		seen[h.id] = true
		run = append(run, h)
	}
	if len(run) < 2 {
		return nil
	}
	builds := make([]*stepBuild, 0, len(run))
	for _, m := range run {
		b := &stepBuild{st: &Step{ID: m.id, V2: &StepV2{From: StepParagraph}}, number: m.number, v2: true}
		p := m.node
		ps, pe := c.blockSpan(p)
		end := pe
		for n := p.NextSibling(); n != nil; n = n.NextSibling() {
			if n.Kind() == ast.KindHeading {
				break
			}
			if q, ok := n.(*ast.Paragraph); ok {
				if _, ok := c.readStepParagraph(q); ok {
					break
				}
			}
			b.blocks = append(b.blocks, n)
			if _, e := c.blockSpan(n); e > end {
				end = e
			}
		}
		b.st.Range = c.idx.rng(ps, end)
		b.st.IDRange = c.idx.rng(ps, c.lineEnd(ps))
		b.st.GoalRange = b.st.IDRange
		b.st.Goal = m.title
		b.st.addInference(Inference{Kind: StepParagraph,
			Summary: fmt.Sprintf("step %q read from the paragraph %q", m.id, firstLine(m.text)),
			Quote:   firstLine(m.text), Range: b.st.IDRange})
		c.shortenGoal(b)
		builds = append(builds, b)
	}
	return builds
}

// readStepParagraph reads a paragraph that starts "Step N: Title" or
// "**Step N: Title**". The title is the rest of the paragraph.
func (c *compilation) readStepParagraph(p *ast.Paragraph) (stepHeading, bool) {
	first := p.FirstChild()
	if first == nil {
		return stepHeading{}, false
	}
	if t, ok := first.(*ast.Text); ok {
		v := t.Segment.Value(c.body)
		if len(v) < 6 || !strings.EqualFold(string(v[:5]), "step ") {
			return stepHeading{}, false
		}
	} else if e, ok := first.(*ast.Emphasis); !ok || e.Level != 2 {
		return stepHeading{}, false
	}
	text := c.inlineText(p, -1, -1, false)
	h := stepHeading{text: text, number: -1, node: p}
	if !parseStepHeading(text, &h) || h.keyword != "step" || h.title == "" {
		return h, false
	}
	h.v2 = true
	return h, true
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// firstLineOf is the source text of the first line of block n.
func (c *compilation) firstLineOf(n ast.Node) string {
	s, _ := c.blockSpan(n)
	return strings.TrimSpace(string(c.src[s:c.lineEnd(s)]))
}

// continuedSteps reads the steps that go on after heading-form steps: when
// the section that ends them is named as a procedure ("## Core loop",
// "## Workflow") and opens with a numbered list, its items are the next
// steps, numbered on from next (setup steps, then the loop). Version 2
// only; else nil.
func (c *compilation) continuedSteps(h *ast.Heading, next int) []*stepBuild {
	if !c.infer {
		return nil
	}
	title := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(c.inlineText(h, -1, -1, false)), ":"))
	f := strings.Fields(title)
	if len(f) == 0 || len(f) > 3 || !stepsHeadings[f[len(f)-1]] && f[len(f)-1] != "loop" {
		return nil
	}
	l, ok := h.NextSibling().(*ast.List)
	if !ok || !l.IsOrdered() || c.notProcedure(l, "") != "" {
		return nil
	}
	builds := c.listSteps([]listPart{{list: l, start: next}})
	if len(builds) > 0 {
		b := builds[0]
		b.st.addInference(Inference{Kind: StepResumed,
			Summary: fmt.Sprintf("the steps go on with the numbered list of the section %q, from step %q", c.inlineText(h, -1, -1, false), b.st.ID),
			Quote:   c.firstLineOf(h), Range: c.rangeOf(h)})
	}
	for _, b := range builds {
		b.st.v2().From, b.v2 = StepResumed, true
	}
	return builds
}
