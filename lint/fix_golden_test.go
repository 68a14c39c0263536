package lint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/skillc/skillc/internal/golden"
)

// TestFixGoldens lints each testdata/lint/fixes/X.md (with X.skillc.yaml
// beside it when there is one) and writes X.golden: every fix offered,
// with its place and whether it is safe, then the diff --fix makes and the
// diff --unsafe-fixes makes. go test ./lint -update rewrites them.
func TestFixGoldens(t *testing.T) {
	inputs, err := filepath.Glob("../testdata/lint/fixes/*.md")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, path := range inputs {
		name := strings.TrimSuffix(filepath.Base(path), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{}
			if cfgPath := strings.TrimSuffix(path, ".md") + ".skillc.yaml"; fileExists(cfgPath) {
				cfg, diags, err := LoadConfig(cfgPath)
				if err != nil || len(diags) > 0 {
					t.Fatalf("config %s: %v %v", cfgPath, err, diags)
				}
				opts.Config = cfg
			}
			// The file name as a skill: the folder would name it otherwise.
			file := name + ".md"
			var b bytes.Buffer
			b.WriteString("# fixes offered\n")
			for _, d := range LintSource(file, src, opts) {
				for _, f := range d.Fixes {
					safety := "unsafe"
					if f.Safe {
						safety = "safe"
					}
					fmt.Fprintf(&b, "%d:%d %s [%s] %s\n", d.Range.Start.Line, d.Range.Start.Column, d.Rule, safety, f.Title)
					for _, e := range f.Edits {
						fmt.Fprintf(&b, "    %d:%d-%d:%d %q\n", e.Range.Start.Line, e.Range.Start.Column, e.Range.End.Line, e.Range.End.Column, e.NewText)
					}
				}
			}
			for _, unsafe := range []bool{false, true} {
				res := FixSource(file, src, opts, unsafe)
				mode := "--fix"
				if unsafe {
					mode = "--unsafe-fixes"
				}
				fmt.Fprintf(&b, "# %s: %d fixed, %d findings left\n", mode, res.Fixed, len(res.Diags))
				b.Write(diff.Diff("before", src, "after", res.Source))
			}
			golden.Check(t, strings.TrimSuffix(path, ".md")+".golden", b.Bytes())
		})
	}
}
