package lint

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/skillc/skillc/internal/golden"
)

// TestDocsRules keeps the rule reference in docs/lint.md in step with the
// registry: the section between the rules markers is generated, and
// `go test ./lint -update` rewrites it.
func TestDocsRules(t *testing.T) {
	const path = "../docs/lint.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := []byte("<!-- rules:begin -->\n"), []byte("<!-- rules:end -->")
	i, j := bytes.Index(doc, begin), bytes.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no rules markers", path)
	}
	var b bytes.Buffer
	b.Write(doc[:i+len(begin)])
	fmt.Fprintf(&b, "\n| rule | default | summary |\n| --- | --- | --- |\n")
	for _, r := range Rules {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", r.ID, r.ID, r.Severity, r.Summary)
	}
	for _, r := range Rules {
		fmt.Fprintf(&b, "\n### %s\n\n%s, reported by %s: %s.\n\n```text\n%s\n```\n", r.ID, r.Severity, r.Source, r.Summary, r.Doc)
		if r.Fix != "" {
			fmt.Fprintf(&b, "\n**Fix:** %s\n", r.Fix)
		}
	}
	b.WriteString("\n")
	b.Write(doc[j:])
	golden.Check(t, path, b.Bytes())
}
