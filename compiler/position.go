package compiler

import (
	"bytes"
	"encoding/binary"
	"math"
	"unicode/utf8"
)

// lineIndex turns byte offsets into positions; goldmark gives only byte
// segments, so this is ours. It is built once per file so
// that every conversion is at most a binary search over line starts plus
// a rune count within one line, never a scan from the top of the file.
type lineIndex struct {
	src []byte // the source after BOM removal
	// base is added to every Byte so offsets count from the first byte of
	// the file as it is on disk (a stripped BOM still counts).
	base   int
	starts []int // byte offset in src where each line begins
	// blockLine[b] is the line (0-based) that holds byte b<<lineBlockShift:
	// a lookup starts there and steps over the few lines that begin later
	// in the block, instead of a binary search over starts.
	blockLine []int32
	// ascii is the length of the longest prefix of src without a byte
	// >= 0x80: below it a column is a byte count, with no runes to count.
	// Most skills are ASCII for much or all of their length.
	ascii int
	// at and to remember the previous lookup, of a range's start (and of
	// a lone position) and of a range's end: positions are mostly asked
	// for in file order, as starts and as ends, so each usually answers
	// without a search. A line can hold thousands of links, each asking
	// for its position: counting runes from the previous one instead of
	// from the start of the line keeps that linear.
	at, to cursor
}

// cursor is a position pos looked up: on line (0-based) at byte off, with
// column col; off < 0 when no column is known on line.
type cursor struct {
	line, off, col int
}

func newLineIndex(src []byte, base int) *lineIndex {
	// Sized exactly: growing it by appends would cost several times the
	// index on a file of short lines (10 MiB of blank lines: 400 MB).
	starts := make([]int, 1, bytes.Count(src, []byte("\n"))+1)
	blockLine := make([]int32, len(src)>>lineBlockShift+1)
	b := 0 // the first block not yet given its line
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		// The blocks that begin before this line are on the line before.
		for ; b<<lineBlockShift < i; b++ {
			blockLine[b] = int32(len(starts) - 1)
		}
		starts = append(starts, i)
	}
	for ; b < len(blockLine); b++ {
		blockLine[b] = int32(len(starts) - 1)
	}
	return &lineIndex{src: src, base: base, starts: starts, blockLine: blockLine,
		ascii: asciiPrefix(src), at: cursor{off: -1}, to: cursor{off: -1}}
}

// lineBlockShift sizes lineIndex's blocks: 32 bytes, about a line of a
// skill, so a lookup seldom steps over a line; the table is an eighth of
// the file's size.
const lineBlockShift = 5

// lineOf is the line (0-based) that holds offset off, 0 <= off <= len(src).
func (x *lineIndex) lineOf(off int) int {
	line := int(x.blockLine[off>>lineBlockShift])
	for line+1 < len(x.starts) && x.starts[line+1] <= off {
		line++
	}
	return line
}

// asciiPrefix is the length of the longest prefix of b without a byte >=
// 0x80, eight bytes at a time.
func asciiPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for i < len(b) && b[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// pos converts an offset into src to a position. Offsets outside src are
// clamped, so a bad offset can never produce a range outside the file.
func (x *lineIndex) pos(off int) Pos { return x.posAt(&x.at, off) }

// posAt is pos starting from cursor c, which it moves to off.
func (x *lineIndex) posAt(c *cursor, off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(x.src) {
		off = len(x.src)
	}
	line := c.line
	if !(x.starts[line] <= off && (line+1 == len(x.starts) || off < x.starts[line+1])) {
		line = x.lineOf(off)
		c.line, c.off = line, -1
	}
	start, col := x.starts[line], 1
	if off <= x.ascii {
		return newPos(line+1, off-start+1, off+x.base)
	}
	if c.off >= start && c.off <= off {
		start, col = c.off, c.col
	}
	col += utf8.RuneCount(x.src[start:off])
	// Rune counts add up only across rune boundaries: an offset inside a
	// sequence (never one goldmark gives) is not kept as a starting point.
	if off == len(x.src) || utf8.RuneStart(x.src[off]) {
		c.off, c.col = off, col
	}
	return newPos(line+1, col, off+x.base)
}

// rng is the range [start, end) of src.
func (x *lineIndex) rng(start, end int) Range {
	if end < start {
		end = start
	}
	from := x.posAt(&x.at, start)
	// Most ranges (an ID, a key, a tool, a target) end on the line they
	// start on: in the ASCII prefix their end is the start moved along
	// the line, with no lookup.
	if line := x.at.line; end <= x.ascii && (line+1 == len(x.starts) || end < x.starts[line+1]) {
		end = max(end, from.Byte-x.base) // start was clamped into src
		return Range{Start: from,
			End: Pos{Line: from.Line, Column: narrow(int(from.Column) + end - (from.Byte - x.base)), Byte: end + x.base}}
	}
	return Range{Start: from, End: x.posAt(&x.to, end)}
}

// lineCount is the number of lines in src.
func (x *lineIndex) lineCount() int { return len(x.starts) }

// lineBounds returns the byte span of 1-based line n without its line
// ending.
func (x *lineIndex) lineBounds(n int) (start, end int) {
	if n < 1 {
		n = 1
	}
	if n > len(x.starts) {
		return len(x.src), len(x.src)
	}
	start = x.starts[n-1]
	end = len(x.src)
	if n < len(x.starts) {
		end = x.starts[n] - 1
	}
	if end > start && x.src[end-1] == '\r' {
		end--
	}
	return start, end
}

// offsetAt returns the byte offset of 1-based line and column (in code
// points), clamped to the line.
func (x *lineIndex) offsetAt(line, col int) int {
	start, end := x.lineBounds(line)
	off := start
	for c := 1; c < col && off < end; c++ {
		_, size := utf8.DecodeRune(x.src[off:end])
		off += size
	}
	return off
}

// Lines converts byte offsets of a file into positions exactly as the
// compiler does (columns in code points; a leading byte order mark is not a
// column but still counts in byte offsets), for packages that report on the
// same file, such as lint. Offsets are into the file as read.
type Lines struct {
	x *lineIndex
}

// NewLines indexes the lines of file once.
func NewLines(file []byte) *Lines {
	base := 0
	if bytes.HasPrefix(file, utf8BOM) {
		base = len(utf8BOM)
	}
	return &Lines{x: newLineIndex(file[base:], base)}
}

// Pos is the position of byte offset off.
func (l *Lines) Pos(off int) Pos { return l.x.pos(off - l.x.base) }

// Range is the range of bytes [start, end).
func (l *Lines) Range(start, end int) Range { return l.x.rng(start-l.x.base, end-l.x.base) }

// Count is the number of lines.
func (l *Lines) Count() int { return l.x.lineCount() }

// Bounds returns the byte span of 1-based line n without its line ending.
func (l *Lines) Bounds(n int) (start, end int) {
	start, end = l.x.lineBounds(n)
	return start + l.x.base, end + l.x.base
}

// OffsetAt is the byte offset of 1-based line and column (in code points),
// clamped to the line.
func (l *Lines) OffsetAt(line, col int) int { return l.x.offsetAt(line, col) + l.x.base }

// newPos is the position at line and column (1-based) and byte offset b.
func newPos(line, column, b int) Pos {
	return Pos{Line: narrow(line), Column: narrow(column), Byte: b}
}

// narrow is n as an int32, the largest one for an n past it: only a file
// of more than 2 GiB has such a line or column, and a position that says
// "far along" beats one that wraps round to a negative number.
func narrow(n int) int32 {
	return int32(min(n, math.MaxInt32))
}
