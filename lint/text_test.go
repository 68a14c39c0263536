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
			want: "1 | 1. a\ufffd[31mb\n  | ^\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.rng.Filename = "f.md"
			d := compiler.Diagnostic{Severity: compiler.SeverityError, Rule: "r", Summary: "s", Range: tt.rng}
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
