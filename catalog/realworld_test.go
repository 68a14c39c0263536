package catalog_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// realworldDirs hold write-ups by other people: agent skills, runbooks and
// support procedures (FORMAT 6). All are valid, so every error lint
// reports on them is false, unless it is in realworldDefects.
var realworldDirs = []string{"../../shared/realworld", "../../shared/realworld-eval", "../../shared/corpus"}

// realworldDefects are the errors that point at real defects, each with
// why: file (relative to its folder, slash-separated) and rule.
var realworldDefects = []struct{ file, rule, why string }{
	{"agent-skills/claude-api/SKILL.md", "invalid-description",
		"its description is 1068 characters; the Agent Skills specification allows 1024"},
}

// TestRealworldNoFalseErrors lints every real write-up and fails on an
// error that is not a known defect. Skipped when the folders are absent.
func TestRealworldNoFalseErrors(t *testing.T) {
	linted := 0
	for _, dir := range realworldDirs {
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", dir, err)
			continue
		}
		res := catalog.Lint([]string{dir}, lint.Options{})
		for _, f := range res.Files {
			linted++
			rel, _ := filepath.Rel(dir, f.Path)
			rel = filepath.ToSlash(rel)
			for _, d := range f.Diags {
				if d.Severity != compiler.SeverityError || knownDefect(rel, d.Rule) {
					continue
				}
				t.Errorf("%s: false error on a valid write-up: %s [%s]", d.Range, d.Summary, d.Rule)
			}
		}
	}
	if linted == 0 {
		t.Skip("no real-world write-ups found")
	}
}

func knownDefect(file, rule string) bool {
	for _, k := range realworldDefects {
		if k.file == file && k.rule == rule {
			return true
		}
	}
	return false
}
