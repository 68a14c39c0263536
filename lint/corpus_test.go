package lint

import (
	"bytes"
	"os"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
)

// TestCorpus lints the real skills in /work/shared/corpus (written by other
// people) and keeps what it reports as a golden file to review: every
// finding there must be right. Skipped when the corpus is absent.
func TestCorpus(t *testing.T) {
	const dir = "../../shared/corpus"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus at", dir)
	}
	res := Lint([]string{dir}, Options{})
	if len(res.Files) < 20 {
		t.Fatalf("linted %d files", len(res.Files))
	}
	var b bytes.Buffer
	WriteText(&b, res.Diagnostics(), res.Sources(), TextOptions{})
	WriteSummary(&b, res, TextOptions{})
	golden.Check(t, "../testdata/lint/corpus.txt", b.Bytes())
}

// TestBadInput: input the compiler refuses still gives findings, never a
// panic.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		max  int64
		rule string
	}{
		{"nul", []byte("# A\n\n1. Do\x00 it.\n"), 0, "invalid-encoding"},
		{"latin1", []byte("# A\n\n1. Caf\xe9.\n"), 0, "invalid-encoding"},
		{"too large", bytes.Repeat([]byte("a"), 100), 10, "file-too-large"},
		{"unclosed frontmatter", []byte("---\nname: a\n# A\n"), 0, "invalid-frontmatter"},
		{"empty", nil, 0, "no-steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := LintSource("a.md", tt.src, Options{MaxSize: tt.max})
			found := false
			for _, d := range diags {
				found = found || d.Rule == tt.rule
				if d.Severity < compiler.SeverityInfo || d.Severity > compiler.SeverityError {
					t.Errorf("bad severity: %v", d)
				}
			}
			if !found {
				t.Errorf("no %s finding: %v", tt.rule, diags)
			}
		})
	}
}
