package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// fixCorpora are the folders TestFixCorpus fixes every skill of: the
// repository's testdata and the real-world write-ups shared beside it.
var fixCorpora = []string{
	"../testdata",
	"/work/shared/realworld",
	"/work/shared/realworld-eval",
	"/work/shared/corpus",
}

// TestFixCorpus is issue 15's done-when test: on every markdown file of
// the corpora, --fix (and --unsafe-fixes) leaves no finding that a fix it
// applies could remove, never adds a finding, and keeps every step (the
// compilations before and after agree on step IDs and goals); a second
// run finds nothing left to do. A missing folder is skipped by name.
func TestFixCorpus(t *testing.T) {
	for _, dir := range fixCorpora {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("%s: %v", dir, err)
			}
			var files []string
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
					return filepath.SkipDir
				}
				if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".md") {
					files = append(files, p)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			fixed, changed := 0, 0
			for _, p := range files {
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				for _, unsafe := range []bool{false, true} {
					n := checkFixKeeps(t, p, src, unsafe)
					if !unsafe {
						fixed += n
						if n > 0 {
							changed++
						}
					}
				}
			}
			t.Logf("%s: %d files, %d safe fixes in %d of them", dir, len(files), fixed, changed)
		})
	}
}

// checkFixKeeps fixes one file as --fix (with unsafe, --unsafe-fixes)
// does and checks what TestFixCorpus promises; it returns how many fixes
// were applied.
func checkFixKeeps(t *testing.T, path string, src []byte, unsafe bool) int {
	t.Helper()
	mode := "--fix"
	if unsafe {
		mode = "--unsafe-fixes"
	}
	opts := Options{}
	before := LintSource(path, src, opts)
	res := FixSource(path, src, opts, unsafe)
	for _, d := range res.Diags {
		if Fixable(d, unsafe) {
			t.Errorf("%s %s: left a finding it could fix: %v", path, mode, d)
		}
	}
	if addsFinding(before, res.Diags) {
		t.Errorf("%s %s: added a finding:\nbefore %v\nafter  %v", path, mode, before, res.Diags)
	}
	copts := opts.CompilerOptions()
	a, _ := compiler.Compile(path, src, copts)
	b, _ := compiler.Compile(path, res.Source, copts)
	if (a == nil) != (b == nil) || a != nil && !sameSteps(a, b) {
		t.Errorf("%s %s: the steps changed:\n%s", path, mode, res.Source)
	}
	if again := FixSource(path, res.Source, opts, unsafe); again.Fixed != 0 {
		t.Errorf("%s %s: a second run fixed %d more", path, mode, again.Fixed)
	}
	return res.Fixed
}
