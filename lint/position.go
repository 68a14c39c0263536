package lint

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// lineIndex turns byte offsets into 1-based line and code-point column,
// built once per source so every conversion is a binary search plus a scan
// of one line.
type lineIndex struct {
	src    []byte
	starts []int // byte offset of each line's first byte
}

func newLineIndex(src []byte) *lineIndex {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{src: src, starts: starts}
}

func (li *lineIndex) pos(off int) compiler.Pos {
	if off < 0 {
		off = 0
	}
	if off > len(li.src) {
		off = len(li.src)
	}
	line := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	col := utf8.RuneCount(li.src[li.starts[line]:off]) + 1
	return compiler.Pos{Line: line + 1, Column: col, Byte: off}
}

// lineRange returns the byte offsets of line n (1-based) without its line
// ending.
func (li *lineIndex) lineRange(n int) (start, end int) {
	if n < 1 || n > len(li.starts) {
		return len(li.src), len(li.src)
	}
	start = li.starts[n-1]
	end = len(li.src)
	if n < len(li.starts) {
		end = li.starts[n] - 1
	}
	if end > start && li.src[end-1] == '\r' {
		end--
	}
	return start, end
}

func (li *lineIndex) lines() int { return len(li.starts) }

// lastLine is the last line a range covers: an exclusive end at column 1
// of a later line stops on the line before.
func lastLine(r compiler.Range) int {
	if r.End.Line > r.Start.Line && r.End.Column <= 1 {
		return r.End.Line - 1
	}
	if r.End.Line < r.Start.Line {
		return r.Start.Line
	}
	return r.End.Line
}

var decodeRune = utf8.DecodeRune
