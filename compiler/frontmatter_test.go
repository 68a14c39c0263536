package compiler_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
)

const frontmatterDir = "../testdata/frontmatter"

// TestFrontmatterV2 compiles the hosts' frontmatter forms of FORMAT 6.1
// (testdata/frontmatter/X.md) twice: by default, against X.diag and X.fm
// (the frontmatter as the IR records it), and under Options.Strict,
// against X.strict.diag, so the diff between the two readings is in
// review.
func TestFrontmatterV2(t *testing.T) {
	var files []string
	err := filepath.WalkDir(frontmatterDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) < 10 {
		t.Fatalf("%d inputs in %s: %v", len(files), frontmatterDir, err)
	}
	for _, in := range files {
		name := strings.TrimPrefix(filepath.ToSlash(in), frontmatterDir+"/")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			base := strings.TrimSuffix(in, ".md")
			s, diags := compiler.Compile(in, src, compiler.Options{})
			golden.Check(t, base+".diag", formatDiags(withMovedChecks(s, diags)))
			golden.Check(t, base+".fm", dumpFrontmatter(s))
			if s.Frontmatter != nil && s.Frontmatter.Strict {
				t.Error("Frontmatter.Strict set without Options.Strict")
			}
			strict, sdiags := compiler.Compile(in, src, compiler.Options{Strict: true})
			golden.Check(t, base+".strict.diag", formatDiags(withMovedChecks(strict, sdiags)))
			if fm := strict.Frontmatter; fm != nil && (!fm.Strict || fm.Document || len(fm.HostKeys) > 0 || len(fm.AllowedEntries) > 0) {
				t.Errorf("under Strict: %+v", fm)
			}
		})
	}
}

// dumpFrontmatter prints what the IR records of a frontmatter, one fact a
// line, with the ranges of names so a golden pins where each points.
func dumpFrontmatter(s *compiler.Skill) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "skill %q, title %q\n", s.Name, s.Title)
	fm := s.Frontmatter
	if fm == nil {
		b.WriteString("no frontmatter\n")
		return b.Bytes()
	}
	rng := func(r compiler.Range) string {
		return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
	}
	if fm.Document {
		fmt.Fprintf(&b, "document, title %q\n", fm.Title.Value)
	}
	for _, e := range fm.AllowedEntries {
		fmt.Fprintf(&b, "allowed entry %s: tool %q pattern %q\n", rng(e.Range), e.Tool, e.Pattern)
	}
	for _, t := range fm.AllowedTools {
		fmt.Fprintf(&b, "allowed tool %s: %q\n", rng(t.Range), t.Name)
	}
	for _, k := range fm.HostKeys {
		fmt.Fprintf(&b, "host key %s: %q\n", rng(k.Range), k.Name)
	}
	for _, k := range fm.Unknown {
		fmt.Fprintf(&b, "unknown key %s: %q\n", rng(k.Range), k.Name)
	}
	return b.Bytes()
}
