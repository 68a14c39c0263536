package lint

import (
	"bytes"
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// annotationFix is the fix that writes bullet (an annotation such as
// "- on failure (the tests fail): 3") into step st: after its last
// annotation bullet, with that bullet's indentation and marker, or else
// as a list of its own right after the paragraph that holds its goal,
// indented to the step's text. Unsafe: it states as the author's what
// skillc read, or only would read, from prose. False when the step's
// text gives no place to put it.
func (p *Pass) annotationFix(st *compiler.Step, bullet, title string) (compiler.Fix, bool) {
	src := p.Skill.Source
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	var at int
	var indent string
	if n := len(st.Annotations); n > 0 {
		last := st.Annotations[n-1].Range
		if last.IsZero() || last.End.Byte > len(src) {
			return compiler.Fix{}, false
		}
		ls := lineStart(src, last.Start.Byte)
		lead := ls
		for lead < len(src) && (src[lead] == ' ' || src[lead] == '\t') {
			lead++
		}
		if lead >= len(src) || bytes.IndexByte([]byte("-*+"), src[lead]) < 0 {
			return compiler.Fix{}, false
		}
		indent = string(src[ls:lead])
		bullet = string(src[lead]) + bullet[1:]
		at = lineEndAt(src, max(last.End.Byte-1, last.Start.Byte))
	} else {
		g := st.GoalRange
		if g.IsZero() || st.Range.IsZero() || g.End.Byte > len(src) {
			return compiler.Fix{}, false
		}
		// The step's text column: past "12. " of a list item; a heading
		// or a paragraph step starts its section at column 0.
		ls := lineStart(src, st.Range.Start.Byte)
		i := ls
		for i < len(src) && src[i] == ' ' {
			i++
		}
		digits := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		if i > digits && i < len(src) && (src[i] == '.' || src[i] == ')') {
			i++
			for i < len(src) && src[i] == ' ' {
				i++
			}
			indent = string(bytes.Repeat([]byte(" "), i-ls))
		}
		// The goal's paragraph ends at a blank line, or before a line
		// that opens another block (a list, a fence, a heading).
		at = lineEndAt(src, max(g.End.Byte-1, g.Start.Byte))
		end := min(st.Range.End.Byte, len(src))
		for at < end {
			next := at
			if src[next] == '\r' {
				next++
			}
			if next < len(src) && src[next] == '\n' {
				next++
			}
			le := lineEndAt(src, next)
			line := bytes.TrimLeft(src[next:le], " \t")
			if next >= end || len(line) == 0 || opensBlock(line) {
				break
			}
			at = le
		}
	}
	if at > len(src) {
		return compiler.Fix{}, false
	}
	text := nl + indent + bullet
	if len(st.Annotations) == 0 && bytes.HasPrefix(bytes.TrimLeft(src[lineStart(src, at):at], " "), []byte("#")) {
		// Under a heading, a blank line first, as a list is written.
		text = nl + text
	}
	return compiler.Fix{
		Title: title,
		Edits: []compiler.Edit{{Range: p.RangeOf(at, at), NewText: text}},
	}, true
}

// opensBlock reports whether a line (without its indentation) starts a
// block that would end a paragraph: a list item, a fence, a heading, a
// quote or a table row.
func opensBlock(line []byte) bool {
	switch {
	case len(line) == 0:
		return false
	case bytes.HasPrefix(line, []byte("```")), bytes.HasPrefix(line, []byte("~~~")):
		return true
	case bytes.IndexByte([]byte("#>|"), line[0]) >= 0:
		return true
	case bytes.IndexByte([]byte("-*+"), line[0]) >= 0:
		return len(line) == 1 || line[1] == ' ' || line[1] == '\t'
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')')
}

// lineStart is the offset where the line holding off starts.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// lineEndAt is the offset of the end of the line holding off, before its
// line ending.
func lineEndAt(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off > 0 && src[off-1] == '\r' {
		off--
	}
	return off
}

// annotate gives d, a finding about step st whose Suggestion is the
// annotation bullet to write, the fix that writes it, when it works.
func (p *Pass) annotate(d *compiler.Diagnostic, st *compiler.Step) {
	if d.Suggestion == "" || d.Suggestion[0] != '-' {
		return
	}
	fix, ok := p.annotationFix(st, d.Suggestion, fmt.Sprintf("write %q under step %s", d.Suggestion, st.ID))
	if ok {
		d.Fixes = []compiler.Fix{fix}
	}
}
