package catalog_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/lint"
)

// TestCorpus lints the real skills in /work/shared/corpus (written by other
// people) and keeps what it reports as a golden file to review: every
// finding there must be right. Skipped when the corpus is absent.
func TestCorpus(t *testing.T) {
	const dir = "../../shared/corpus"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus at", dir)
	}
	res := catalog.Lint([]string{dir}, lint.Options{})
	if len(res.Files) < 20 {
		t.Fatalf("linted %d files", len(res.Files))
	}
	var b bytes.Buffer
	lint.WriteText(&b, res.Diagnostics(), res.Sources(), lint.TextOptions{})
	lint.WriteSummary(&b, res, lint.TextOptions{})
	golden.Check(t, "../testdata/lint/corpus.txt", b.Bytes())
}
