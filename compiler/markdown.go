package compiler

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// This file reads text out of goldmark's AST: the source span of a block,
// the plain text of inline content, and a readable rendering of blocks for a
// step's detail. goldmark renders HTML only; plain text for an agent is ours.

// abs turns an offset into the markdown body into an offset into src.
func (c *compilation) abs(off int) int { return off + c.bodyOff }

// blockSpan returns the span of a block and everything inside it, as
// offsets into src, without trailing white space.
func (c *compilation) blockSpan(n ast.Node) (start, end int) {
	start, end = -1, -1
	c.spanOf(n, &start, &end)
	if start < 0 {
		return c.abs(0), c.abs(0)
	}
	if end < start {
		// A block with no lines (an empty list item): its first line.
		end = start
		for end < len(c.body) && c.body[end] != '\n' {
			end++
		}
	}
	for end > start && isSpace(c.body[end-1]) {
		end--
	}
	return c.abs(start), c.abs(end)
}

// spanOf widens [start, end) to cover block n. Blocks nest in source
// order, so only the chain of first children can start earlier and only the
// chain of last children can end later: the cost is the nesting depth, not
// the size of the block. Inline content lies within its block's lines.
func (c *compilation) spanOf(n ast.Node, start, end *int) {
	for m := n; m != nil && m.Type() == ast.TypeBlock; m = m.FirstChild() {
		if p := m.Pos(); p >= 0 && (*start < 0 || p < *start) {
			*start = p
		}
		if lines := m.Lines(); lines.Len() > 0 {
			if first := lines.At(0); *start < 0 || first.Start < *start {
				*start = first.Start
			}
		}
	}
	for m := n; m != nil && m.Type() == ast.TypeBlock; m = m.LastChild() {
		if lines := m.Lines(); lines.Len() > 0 {
			if last := lines.At(lines.Len() - 1); last.Stop > *end {
				*end = last.Stop
			}
		} else if p := m.Pos(); p > *end && m.FirstChild() == nil {
			// An empty block, such as a bare "-" item: its line.
			e := bytes.IndexByte(c.body[p:], '\n')
			if e < 0 {
				e = len(c.body) - p
			}
			*end = p + e
		}
		switch v := m.(type) {
		case *ast.FencedCodeBlock:
			if e := c.closingFence(v); e > *end {
				*end = e
			}
		case *ast.HTMLBlock:
			if v.HasClosure() && v.ClosureLine.Stop > *end {
				*end = v.ClosureLine.Stop
			}
		}
	}
}

// closingFence returns the end of a fenced code block's closing fence line,
// which goldmark does not keep, or -1.
func (c *compilation) closingFence(fc *ast.FencedCodeBlock) int {
	from := fc.Pos()
	if lines := fc.Lines(); lines.Len() > 0 {
		from = lines.At(lines.Len() - 1).Stop
	} else if i := bytes.IndexByte(c.body[max(from, 0):], '\n'); i >= 0 {
		from += i + 1
	} else {
		return -1
	}
	if from < 0 || from >= len(c.body) {
		return -1
	}
	end := bytes.IndexByte(c.body[from:], '\n')
	if end < 0 {
		end = len(c.body)
	} else {
		end += from
	}
	l := bytes.TrimSpace(c.body[from:end])
	if bytes.HasPrefix(l, []byte("```")) || bytes.HasPrefix(l, []byte("~~~")) {
		return end
	}
	return -1
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// inlineText is the plain text of n's inline content: markup removed, code
// span text kept, HTML dropped. Text in src[skipStart:skipEnd] (an {#id}
// attribute) is left out. keepBreaks keeps line breaks as newlines;
// otherwise all white space is collapsed to single spaces.
func (c *compilation) inlineText(n ast.Node, skipStart, skipEnd int, keepBreaks bool) string {
	if c.textBuf == nil {
		// Room for a goal or a line of detail at once: grown from nothing,
		// the buffer took two or three allocations in every file.
		c.textBuf = make([]byte, 0, 128)
	}
	w := textWriter{keepBreaks: keepBreaks, b: c.textBuf[:0]}
	c.writeInline(&w, n, skipStart-c.bodyOff, skipEnd-c.bodyOff, false)
	c.textBuf = w.b // the next call writes over it
	if len(w.b) == 0 {
		return ""
	}
	// Most headings and many goals read as they are written ("Steps",
	// "List the records."): such a text is a slice of the body's string,
	// not a copy of its own. Headings are read several times each as the
	// procedure is looked for, so this spares most of the copies.
	if lines := n.Lines(); lines.Len() > 0 {
		from, to := lines.At(0).Start, lines.At(lines.Len()-1).Stop
		if i := bytes.Index(c.body[from:to], w.b); i >= 0 {
			return c.bodyString(from+i, from+i+len(w.b))
		}
	}
	return string(w.b)
}

// textWriter collapses white space as it writes: runs of spaces become one
// space, line breaks become one newline (keepBreaks) or a space, and
// nothing is left at either end.
type textWriter struct {
	b          []byte
	keepBreaks bool
	space      bool // a space is pending
	newline    bool // a newline is pending
}

// String is the text written.
func (w *textWriter) String() string { return string(w.b) }

func (w *textWriter) write(v []byte) {
	for len(v) > 0 {
		// Copy the run up to the next white space that changes in one go:
		// a lone space between two words is written as it stands, so a
		// sentence is one write, not one per word.
		i := 0
		for i < len(v) && (!collapsible[v[i]] || v[i] == ' ' && i > 0 && i+1 < len(v) && !collapsible[v[i+1]]) {
			i++
		}
		if i > 0 {
			if len(w.b) > 0 {
				if w.newline {
					w.b = append(w.b, '\n')
				} else if w.space {
					w.b = append(w.b, ' ')
				}
			}
			w.space, w.newline = false, false
			w.b = append(w.b, v[:i]...)
			v = v[i:]
			continue
		}
		if v[0] == '\n' && w.keepBreaks {
			w.newline = true
		} else {
			w.space = true
		}
		v = v[1:]
	}
}

// collapsible is true for the white space write collapses: a table, as
// write looks at every byte of every goal and detail, and a lookup costs
// less than six comparisons.
var collapsible = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\f': true, '\v': true}

func (w *textWriter) lineBreak() {
	if w.keepBreaks {
		w.newline = true
	} else {
		w.space = true
	}
}

func (c *compilation) writeInline(w *textWriter, n ast.Node, skipStart, skipEnd int, raw bool) {
	c.writeInlineNodes(w, n.FirstChild(), skipStart, skipEnd, raw)
}

// writeInlineNodes writes the inline node first and its next siblings.
func (c *compilation) writeInlineNodes(w *textWriter, first ast.Node, skipStart, skipEnd int, raw bool) {
	for ch := first; ch != nil; ch = ch.NextSibling() {
		switch v := ch.(type) {
		case *ast.Text:
			seg := v.Segment
			c.writeSegment(w, seg.Start, seg.Stop, skipStart, skipEnd, raw || v.IsRaw())
			if v.SoftLineBreak() || v.HardLineBreak() {
				w.lineBreak()
			}
		case *ast.String:
			w.write(v.Value)
		case *ast.CodeSpan:
			c.writeInline(w, v, skipStart, skipEnd, true)
		case *ast.RawHTML:
			// Inline HTML is markup (and <!-- comments --> are notes to
			// tools, such as skillc-disable): none of it is text.
		case *ast.AutoLink:
			w.write(v.Label(c.body))
		default:
			c.writeInline(w, ch, skipStart, skipEnd, raw)
		}
	}
}

func (c *compilation) writeSegment(w *textWriter, start, stop, skipStart, skipEnd int, raw bool) {
	write := func(s, e int) {
		if s >= e {
			return
		}
		v := c.body[s:e]
		// Two byte searches, not ContainsAny(v, "\\&"), which builds a
		// set of the bytes on every call: this runs for every text node.
		if !raw && (bytes.IndexByte(v, '\\') >= 0 || bytes.IndexByte(v, '&') >= 0) {
			v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
		}
		w.write(v)
	}
	if skipEnd <= start || skipStart >= stop || skipStart < 0 {
		write(start, stop)
		return
	}
	write(start, min(stop, skipStart))
	write(max(start, skipEnd), stop)
}

// renderBlocks renders blocks as readable, markdown-like plain text:
// paragraphs as text, lists with their markers, code in fences, quotes with
// ">". HTML comments are dropped.
func (c *compilation) renderBlocks(blocks []ast.Node) string {
	var parts []string
	for _, n := range blocks {
		if s := c.renderBlock(n); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

func (c *compilation) renderBlock(n ast.Node) string {
	switch v := n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		return c.inlineText(v, -1, -1, true)
	case *ast.List:
		return c.renderList(v, nil)
	case *ast.Blockquote:
		var kids []ast.Node
		for ch := v.FirstChild(); ch != nil; ch = ch.NextSibling() {
			kids = append(kids, ch)
		}
		inner := c.renderBlocks(kids)
		if inner == "" {
			return ""
		}
		return prefixLines(inner, "> ", ">")
	case *ast.FencedCodeBlock:
		return "```" + string(v.Language(c.body)) + "\n" + c.rawLines(v) + "```"
	case *ast.CodeBlock:
		return "```\n" + c.rawLines(v) + "```"
	case *ast.HTMLBlock:
		s := c.rawLines(v)
		if v.HasClosure() {
			s += string(v.ClosureLine.Value(c.body))
		}
		s = stripHTMLComments(s)
		return strings.TrimSpace(s)
	case *ast.ThematicBreak:
		return "---"
	}
	return ""
}

// renderList renders a list, leaving out the items in skip.
func (c *compilation) renderList(l *ast.List, skip []ast.Node) string {
	var items []string
	num := l.Start
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		marker := "- "
		if l.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
		}
		num++
		if slices.Contains(skip, it) {
			continue
		}
		var kids []ast.Node
		for ch := it.FirstChild(); ch != nil; ch = ch.NextSibling() {
			kids = append(kids, ch)
		}
		sep := "\n\n"
		if l.IsTight {
			sep = "\n"
		}
		var parts []string
		for _, k := range kids {
			if s := c.renderBlock(k); s != "" {
				parts = append(parts, s)
			}
		}
		body := strings.Join(parts, sep)
		if body == "" {
			items = append(items, strings.TrimSpace(marker))
			continue
		}
		indented := prefixLines(body, strings.Repeat(" ", len(marker)), "")
		items = append(items, marker+strings.TrimPrefix(indented, strings.Repeat(" ", len(marker))))
	}
	sep := "\n"
	if !l.IsTight {
		sep = "\n\n"
	}
	return strings.Join(items, sep)
}

// prefixLines puts prefix before every line of s, and blank before empty
// lines.
func prefixLines(s, prefix, blank string) string {
	if !strings.Contains(s, "\n") {
		if s == "" {
			return blank
		}
		return prefix + s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = blank
		} else {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

func (c *compilation) rawLines(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(bytes.TrimRight(seg.Value(c.body), "\r\n"))
		b.WriteByte('\n')
	}
	return b.String()
}

// stripHTMLComments removes <!-- ... --> from s.
func stripHTMLComments(s string) string {
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i+4:], "-->")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+4+j+3:]
	}
}
