package compiler_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
)

var checkGolden = golden.Check

// FuzzCompile: whatever the bytes, Compile returns a skill, every
// diagnostic points inside the source, and the template encodes.
func FuzzCompile(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/compile/*.md")
	more, _ := filepath.Glob("../testdata/compile/*/SKILL.md")
	// The hosts' frontmatter forms of version 2: permission patterns,
	// names of other scripts, documents.
	hosts, _ := filepath.Glob("../testdata/frontmatter/*.md")
	seeds = append(append(seeds, more...), hosts...)
	for _, p := range seeds {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("\xef\xbb\xbf---\r\nname: x\r\n---\r\n1. a {#b}\r\n   - yes: b\r\n"))
	f.Add([]byte("## Step 1: a\n- many: 2\n## Step 2: b\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, diags := compiler.Compile("fuzz/SKILL.md", src, compiler.Options{})
		if s == nil {
			t.Fatal("nil skill")
		}
		checkRanges(t, src, diags)
		if _, err := json.Marshal(s.Template()); err != nil {
			t.Fatal(err)
		}
	})
}
