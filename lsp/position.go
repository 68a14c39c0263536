package lsp

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/skillc/skillc/compiler"
)

// text is a document's bytes with its line starts, converting between the
// byte offsets skillc's ranges carry and LSP positions: 0-based lines and
// characters counted in UTF-16 code units, the only encoding LSP 3.16
// defines. Hand-written: glsp's Position.IndexIn scans from the top of the
// file for every position and returns 0 for one past the end of the text.
type text struct {
	src    string
	starts []int // byte offset where each line begins
}

func newText(src string) *text {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &text{src: src, starts: starts}
}

// lineEnd is the byte offset where 0-based line n's text ends, before its
// line ending ("\n" or "\r\n"). LSP counts "\r" alone as a line ending
// too, but skillc's compiler, like CommonMark's line counting in goldmark,
// splits on "\n": a lone "\r" stays inside its line in both.
func (t *text) lineEnd(n int) int {
	end := len(t.src)
	if n+1 < len(t.starts) {
		end = t.starts[n+1] - 1
		if end > t.starts[n] && t.src[end-1] == '\r' {
			end--
		}
	}
	return end
}

// position converts byte offset off to an LSP position. An offset inside
// a UTF-8 sequence counts as the start of that character; offsets outside
// the text are clamped to it.
func (t *text) position(off int) protocol.Position {
	off = max(0, min(off, len(t.src)))
	line := sort.SearchInts(t.starts, off+1) - 1
	off = min(off, t.lineEnd(line))
	var units int
	for i := t.starts[line]; i < off; {
		r, size := utf8.DecodeRuneInString(t.src[i:])
		if i+size > off {
			break // off is inside this character
		}
		units += utf16Len(r)
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// offset converts an LSP position to a byte offset. As the specification
// says, a character past the end of its line means the end of the line; a
// line past the last means the end of the text. A character that falls
// between the two halves of a surrogate pair is taken as the start of
// that character, never the middle of its bytes.
func (t *text) offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(t.starts) {
		return len(t.src)
	}
	i, end, want := t.starts[line], t.lineEnd(line), int(p.Character)
	for units := 0; i < end; {
		r, size := utf8.DecodeRuneInString(t.src[i:])
		units += utf16Len(r)
		if units > want {
			break
		}
		i += size
	}
	return i
}

// utf16Len is how many UTF-16 code units r takes; an invalid byte, which
// an editor shows as one replacement character, takes one.
func utf16Len(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}

// rangeOf converts a skillc range to an LSP range. skillc's ranges carry
// byte offsets into the text they were read from, which are what is
// converted: their columns count code points, not UTF-16 units, and skip
// a byte order mark. A range built with lines and columns only (no byte
// offset past the first line) is converted from those.
func (t *text) rangeOf(r compiler.Range) protocol.Range {
	return protocol.Range{Start: t.position(t.byteOf(r.Start)), End: t.position(t.byteOf(r.End))}
}

// byteOf is the byte offset of a skillc position.
func (t *text) byteOf(p compiler.Pos) int {
	if p.Byte > 0 || p.Line <= 1 && p.Column <= 1 {
		return p.Byte
	}
	line := max(int(p.Line)-1, 0)
	if line >= len(t.starts) {
		return len(t.src)
	}
	i, end := t.starts[line], t.lineEnd(line)
	for c := 1; c < int(p.Column) && i < end; c++ {
		_, size := utf8.DecodeRuneInString(t.src[i:])
		i += size
	}
	return i
}

// apply replaces the bytes an LSP range covers with s: an incremental
// change from the editor.
func (t *text) apply(r protocol.Range, s string) *text {
	start, end := t.offset(r.Start), t.offset(r.End)
	if end < start {
		start, end = end, start
	}
	return newText(t.src[:start] + s + t.src[end:])
}
