package lsp

import (
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/skillc/skillc/compiler"
)

// TestPosition: byte offsets to LSP positions (0-based lines, UTF-16
// characters) and back, on text where bytes, code points and UTF-16 units
// all differ: é is 2 bytes and 1 unit, 😀 is 4 bytes and 2 units.
func TestPosition(t *testing.T) {
	const src = "ab\né😀x\r\n\n😀"
	tx := newText(src)
	tests := []struct {
		name string
		off  int
		want protocol.Position
	}{
		{"start", 0, pos(0, 0)},
		{"ASCII", 1, pos(0, 1)},
		{"end of line 0", 2, pos(0, 2)},
		{"start of line 1", 3, pos(1, 0)},
		{"after é", 5, pos(1, 1)},
		{"inside 😀 counts as its start", 7, pos(1, 1)},
		{"after 😀", 9, pos(1, 3)},
		{"after x", 10, pos(1, 4)},
		{"on the \\r of \\r\\n", 10, pos(1, 4)},
		{"on the \\n of \\r\\n", 11, pos(1, 4)},
		{"empty line", 12, pos(2, 0)},
		{"last line", 13, pos(3, 0)},
		{"end of text", len(src), pos(3, 2)},
		{"past the end: clamped", len(src) + 5, pos(3, 2)},
		{"negative: clamped", -1, pos(0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tx.position(tt.off); got != tt.want {
				t.Errorf("position(%d) = %v, want %v", tt.off, got, tt.want)
			}
		})
	}

	offsets := []struct {
		name string
		p    protocol.Position
		want int
	}{
		{"start", pos(0, 0), 0},
		{"after é", pos(1, 1), 5},
		{"between the halves of 😀: its start", pos(1, 2), 5},
		{"after 😀", pos(1, 3), 9},
		{"past the end of the line: its end, before \\r\\n", pos(1, 99), 10},
		{"past the last line: end of text", pos(9, 0), len(src)},
		{"last line", pos(3, 2), len(src)},
	}
	for _, tt := range offsets {
		t.Run(tt.name, func(t *testing.T) {
			if got := tx.offset(tt.p); got != tt.want {
				t.Errorf("offset(%v) = %d, want %d", tt.p, got, tt.want)
			}
		})
	}
}

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

// TestRangeOf: a skillc range converts by its byte offsets, which the
// compiler gives, and by line and column (code points) when it has no
// byte offset past the first line.
func TestRangeOf(t *testing.T) {
	const src = "# T\n\n1. Ask « là » 😀: clarfy\n"
	tx := newText(src)
	lines := compiler.NewLines([]byte(src))
	start := len("# T\n\n1. Ask « là » 😀: ")
	fromBytes := lines.Range(start, start+len("clarfy"))
	want := protocol.Range{Start: pos(2, 18), End: pos(2, 24)}
	if got := tx.rangeOf(fromBytes); got != want {
		t.Errorf("rangeOf(%v) = %v, want %v", fromBytes, got, want)
	}
	fromColumns := compiler.Range{Start: compiler.Pos{Line: 3, Column: 18}, End: compiler.Pos{Line: 3, Column: 24}}
	if got := tx.rangeOf(fromColumns); got != want {
		t.Errorf("rangeOf(%v) = %v, want %v", fromColumns, got, want)
	}
}

// TestApply: incremental changes as an editor sends them.
func TestApply(t *testing.T) {
	tests := []struct {
		name, src string
		r         protocol.Range
		with      string
		want      string
	}{
		{"insert after 😀", "a😀b", protocol.Range{Start: pos(0, 3), End: pos(0, 3)}, "!", "a😀!b"},
		{"replace across lines", "ab\ncd\nef", protocol.Range{Start: pos(0, 1), End: pos(2, 1)}, "X", "aXf"},
		{"delete a line", "ab\ncd\n", protocol.Range{Start: pos(1, 0), End: pos(2, 0)}, "", "ab\n"},
		{"reversed range", "abc", protocol.Range{Start: pos(0, 2), End: pos(0, 1)}, "", "ac"},
		{"append at the end", "ab", protocol.Range{Start: pos(5, 0), End: pos(5, 0)}, "\nc", "ab\nc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newText(tt.src).apply(tt.r, tt.with).src; got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDiagnosticTags: findings about text nothing uses are faded.
func TestDiagnosticTags(t *testing.T) {
	tx := newText("x")
	for rule, want := range map[string]int{"unreachable-step": 1, "unused-tool": 1, "unknown-target": 0} {
		if got := len(lspDiagnostic(tx, compiler.Diagnostic{Rule: rule}).Tags); got != want {
			t.Errorf("%s: %d tags, want %d", rule, got, want)
		}
	}
}
