package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

func TestWriteTextCaret(t *testing.T) {
	tests := []struct {
		name string
		src  string
		rng  compiler.Range
		want string // the quoted line and the caret line
	}{
		{
			name: "span",
			src:  "# T\n\n1. Go.\n   - many: 4\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 4, Column: 6}, End: compiler.Pos{Line: 4, Column: 10}},
			want: "4 |    - many: 4\n  |      ^~~~\n",
		},
		{
			name: "byte order mark is not a column",
			src:  "\ufeff---\nname: x\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 1, Column: 1}, End: compiler.Pos{Line: 1, Column: 4}},
			want: "1 | ---\n  | ^~~\n",
		},
		{
			name: "tabs are copied so the caret lines up",
			src:  "\t- tools: a\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 1, Column: 11}, End: compiler.Pos{Line: 1, Column: 12}},
			want: "1 | \t- tools: a\n  | \t         ^\n",
		},
		{
			name: "control characters are not sent to the terminal",
			src:  "1. a\x1b[31mb\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 1, Column: 1}, End: compiler.Pos{Line: 1, Column: 2}},
			want: "1 | 1. a\\x1b[31mb\n  | ^\n",
		},
		{
			name: "the caret stays under the range after an escape",
			src:  "1. \x1b]0;pwned\x07 BAD\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 1, Column: 15}, End: compiler.Pos{Line: 1, Column: 18}},
			want: "1 | 1. \\x1b]0;pwned\\x07 BAD\n  | " + strings.Repeat(" ", 20) + "^~~\n",
		},
		{
			name: "a range over an escape is as wide as the escape",
			src:  "- a\x1bb\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 1, Column: 3}, End: compiler.Pos{Line: 1, Column: 6}},
			want: "1 | - a\\x1bb\n  |   ^~~~~~\n",
		},
		{
			name: "C1 controls, carriage returns and bytes that are not UTF-8",
			src:  "a\u009b2J\rb\xffc\r\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 1, Column: 7}, End: compiler.Pos{Line: 1, Column: 8}},
			want: "1 | a\\u009b2J\\x0db\\xffc\n  |               ^~~~\n",
		},
		{
			name: "a line past the end of the file is not quoted",
			src:  "one line\n",
			rng:  compiler.Range{Start: compiler.Pos{Line: 5, Column: 1}, End: compiler.Pos{Line: 5, Column: 2}},
			want: "f.md:5:1: error: s [r]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {

			d := compiler.Diagnostic{Severity: compiler.SeverityError, Rule: "r", Summary: "s", File: "f.md", Range: tt.rng}
			var b bytes.Buffer
			src := func(string) []byte { return []byte(tt.src) }
			if err := WriteText(&b, compiler.Diagnostics{d}, src, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tt.want) {
				t.Errorf("got\n%s\nwant it to contain\n%s", b.String(), tt.want)
			}
		})
	}
}

// TestWriteTextEscapesMessages: a file name, a message, a detail and a fix
// that carry control characters reach the terminal escaped too.
func TestWriteTextEscapesMessages(t *testing.T) {
	d := compiler.Diagnostic{Severity: compiler.SeverityWarning, Rule: "r", Summary: "goal \"\x1b[2J\"",
		Detail: "line one\nline \x07two", Suggestion: "use \u009b",
		File: "evil\x1b.md"}
	var b bytes.Buffer
	if err := WriteText(&b, compiler.Diagnostics{d}, nil, TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{`evil\x1b.md`, `goal "\x1b[2J"`, "= line one\n", `= line \x07two`, `use \u009b`} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// Only the printer's own colours are escape sequences.
	plain := strings.NewReplacer(ansiReset, "", ansiBold, "", ansiRed, "", ansiYellow, "", ansiCyan, "", ansiGreen, "", ansiGray, "").Replace(got)
	if strings.ContainsAny(plain, "\x1b\x07\u009b") {
		t.Errorf("a raw control character got through:\n%q", plain)
	}
}
