package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// FuzzLint runs the whole lint path (compile, graph checks, every rule,
// suppressions) on arbitrary bytes and prints the result in every output
// format. It checks what a user relies on: no panic; every range inside
// the file, its lines and columns those of its byte offsets; every output
// valid UTF-8; JSON and SARIF valid JSON; and no character in the text
// output that a terminal would act on, other than the printer's colours.
func FuzzLint(f *testing.F) {
	for _, glob := range []string{"../testdata/lint/*/*.md", "../testdata/lint/*/skills/*/SKILL.md", "../testdata/compile/*.md"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte("\xef\xbb\xbf---\r\nname: x\r\ndescription: d\r\n---\r\n1. a\x1b]0;t\x07 {#b}\r\n   - yes: b\r\n<!-- skillc-disable nope -->\r\n"))
	f.Add([]byte("---\nname: fuzz\n---\n# T\n\n1. Is it \xa0\u009b there?\n   - tools: a, b\n   - no: 9\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		const name = "fuzz/SKILL.md"
		diags := LintSource(name, src, Options{})
		lines := compiler.NewLines(src)
		for _, d := range diags {
			checkFuzzRange(t, src, lines, d)
			// A fix offered is one that applies: its edits are placed
			// as the findings are, and do not overlap.
			for _, f := range d.Fixes {
				for _, e := range f.Edits {
					checkFuzzRange(t, src, lines, compiler.Diagnostic{Rule: d.Rule, Summary: "fix " + f.Title, Range: e.Range})
				}
				if _, err := ApplyEdits(src, f.Edits); err != nil {
					t.Fatalf("%s [%s]: fix %q: %v", d.Summary, d.Rule, f.Title, err)
				}
			}
		}
		res := &Result{Files: []*File{{Path: name, Source: src, Diags: diags}}}
		var plain bytes.Buffer
		if err := WriteText(&plain, res.Diagnostics(), res.Sources(), TextOptions{}); err != nil {
			t.Fatal(err)
		}
		WriteSummary(&plain, res, TextOptions{})
		checkTerminalSafe(t, plain.Bytes())
		outputs := map[string]*bytes.Buffer{"text": &plain}
		write := func(format string, fn func(*bytes.Buffer) error) {
			var b bytes.Buffer
			if err := fn(&b); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			outputs[format] = &b
		}
		write("text (colour)", func(b *bytes.Buffer) error {
			return WriteText(b, res.Diagnostics(), res.Sources(), TextOptions{Color: true})
		})
		write("json", func(b *bytes.Buffer) error { return WriteJSON(b, res) })
		write("sarif", func(b *bytes.Buffer) error { return WriteSARIF(b, res, SARIFOptions{Version: "1.0.0"}) })
		write("github", func(b *bytes.Buffer) error { return WriteGitHub(b, res) })
		for format, b := range outputs {
			if !utf8.Valid(b.Bytes()) {
				t.Errorf("%s output is not valid UTF-8: %q", format, b.Bytes())
			}
		}
		for _, format := range []string{"json", "sarif"} {
			if !json.Valid(outputs[format].Bytes()) {
				t.Errorf("%s output is not JSON: %s", format, outputs[format].Bytes())
			}
		}
	})
}

// checkFuzzRange: a diagnostic with a position points inside src, and its
// lines and columns are those of its byte offsets.
func checkFuzzRange(t *testing.T, src []byte, lines *compiler.Lines, d compiler.Diagnostic) {
	t.Helper()
	r := d.Range
	if r.Start.Line == 0 {
		return // about the whole file
	}
	if r.Start.Byte < 0 || r.End.Byte < r.Start.Byte || r.End.Byte > len(src) {
		t.Fatalf("%s [%s]: bytes %d..%d outside the %d-byte file", d.Summary, d.Rule, r.Start.Byte, r.End.Byte, len(src))
	}
	if int(r.Start.Line) > lines.Count() || int(r.End.Line) > lines.Count() {
		t.Fatalf("%s [%s]: lines %d..%d, the file has %d", d.Summary, d.Rule, r.Start.Line, r.End.Line, lines.Count())
	}
	for _, p := range []compiler.Pos{r.Start, r.End} {
		if at := lines.Pos(p.Byte); at.Line != p.Line || at.Column != p.Column {
			t.Fatalf("%s [%s]: position %d:%d, but byte %d is at %d:%d", d.Summary, d.Rule, p.Line, p.Column, p.Byte, at.Line, at.Column)
		}
	}
}

// checkTerminalSafe: uncoloured text output holds no control character
// but tab and newline, no DEL and no C1 control.
func checkTerminalSafe(t *testing.T, out []byte) {
	t.Helper()
	for i, r := range string(out) {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Fatalf("text output has %U at byte %d: %q", r, i, out)
		}
	}
}

// FuzzFixSource applies every fix, as --unsafe-fixes does, to arbitrary
// bytes: no panic, no finding added, every step kept, and a second run
// finds nothing left to fix. Its seeds are the fix testdata; CI fuzzes
// FuzzLint, which checks every fix offered applies.
func FuzzFixSource(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/lint/fixes/*.md")
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const name = "fuzz/SKILL.md"
		checkFixKeeps(t, name, src, true)
	})
}
