package compiler

import (
	"fmt"
	"strconv"
	"strings"

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
	// chosen, on the first part, says why version 2 took this list
	// over the list v1 would take; "" when both agree.
	chosen string
}

// stepLists picks the list of steps. v1: the first top-level ordered list
// after a heading named Steps, Workflow, Procedure or Process, else the
// first top-level ordered list. Version 2 passes over lists that are not
// a procedure (links, rules, definitions, examples) and joins the lists
// that continue it.
func (c *compilation) stepLists(doc ast.Node) []listPart {
	var first, firstAfter, v2First, v2After *ast.List
	var skipped *ast.List
	skipWhy := ""
	afterStepsHeading := false
	section := "" // the text of the last heading
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch v := n.(type) {
		case *ast.Heading:
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
				v2First = v
			}
			if afterStepsHeading {
				v2After = v
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
			return nil
		}
		return []listPart{{list: v1}}
	}
	chosen := v2After
	if chosen == nil {
		chosen = v2First
	}
	if chosen == nil {
		return nil
	}
	parts := []listPart{{list: chosen}}
	if chosen != v1 && v1 != nil && skipped != nil {
		parts[0].chosen = fmt.Sprintf("the list on line %d is %s, not steps", c.rangeOf(skipped).Start.Line, skipWhy)
	}
	return c.resumedLists(parts)
}

// resumedLists adds to parts the ordered lists that continue the
// numbering of the last one after something split it: a table, a code
// block, a paragraph or bullets indented less than the item's text. A
// heading or a thematic break ends the procedure. Each split is reported
// once, with the indentation that would make it one list.
func (c *compilation) resumedLists(parts []listPart) []listPart {
	l := parts[0].list
	for {
		next := l.Start + l.ChildCount()
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
			return parts
		}
		if len(between) > 0 {
			c.reportSplit(l, between[0], next)
		}
		parts = append(parts, listPart{list: resumed, between: between})
		l = resumed
	}
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
		d.Suggestion = strings.Repeat(" ", content) + strings.TrimLeft(string(c.src[s:c.lineEnd(s)]), " \t")
	} else {
		d.Detail = fmt.Sprintf("skillc reads one procedure, but other renderers show two lists: indent the %s to column %d, under the text of step %s", c.blockName([]ast.Node{at}), content+1, lastID)
	}
	c.report(d)
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
		text := c.inlineText(p, -1, -1, false)
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

// isLinkOnly reports whether a paragraph is nothing but a link or a URL.
func isLinkOnly(p ast.Node, text string) bool {
	if strings.HasPrefix(text, "http://") || strings.HasPrefix(text, "https://") {
		return !strings.Contains(text, " ")
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
	lower := strings.ToLower(text)
	for _, r := range ruleLeads {
		if strings.HasPrefix(lower, r) {
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
		b := &stepBuild{st: &Step{ID: m.id, From: StepParagraph}, number: m.number, v2: true}
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
		b.st.Inferences = append(b.st.Inferences, Inference{Kind: StepParagraph,
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
