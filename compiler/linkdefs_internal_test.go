package compiler

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestParseWithoutLinkDefs holds parseMarkdown's shortcut to what it
// claims: on a body without "]:" the parser without the link definition
// pass builds the same tree as the full one. The bodies are every
// markdown file of the repository's test data, the skills shipped in the
// binary, and markup near a definition that is none.
func TestParseWithoutLinkDefs(t *testing.T) {
	bodies := map[string][]byte{
		"brackets":  []byte("[x] done\n\n- [ ] todo\n- [x] : not a definition\n\n> [quote] text\n"),
		"reference": []byte("See [the guide][g] and [g].\n\n1. [g] first\n   [x] next line\n"),
		"escaped":   []byte("\\[x\\]: y\n\n[x\\]\n: z\n"),
		"colon":     []byte("[x]\n: y\n\n  [label]\t: url\n"),
	}
	filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		if strings.Contains(path, "/testdata/") || strings.HasPrefix(path, "../skills/") {
			if b, err := os.ReadFile(path); err == nil {
				bodies[path] = b
			}
		}
		return nil
	})
	if len(bodies) < 50 {
		t.Fatalf("only %d bodies to compare", len(bodies))
	}
	for name, body := range bodies {
		if strings.Contains(string(body), "]:") {
			continue
		}
		full := mdParser().Parse(text.NewReader(body))
		short := mdParserNoLinkDefs().Parse(text.NewReader(body))
		if a, b := dumpTree(full, body), dumpTree(short, body); a != b {
			t.Errorf("%s: the trees differ:\nfull:\n%s\nwithout the pass:\n%s", name, a, b)
		}
	}
}

// dumpTree writes a node's tree as its types, line segments and text
// segments.
func dumpTree(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		fmt.Fprintf(&b, "%s%T", strings.Repeat("  ", depth), n)
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, " [%d,%d)", s.Start, s.Stop)
			}
		}
		if t, ok := n.(*ast.Text); ok {
			fmt.Fprintf(&b, " %q", t.Segment.Value(src))
		}
		b.WriteByte('\n')
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}
