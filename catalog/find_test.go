package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/lint"
)

func TestFind(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{
		"skills/a/SKILL.md", "skills/b/SKILL.md", "skills/b/notes.md",
		".git/x/SKILL.md", "node_modules/p/SKILL.md", "skills/drafts/c/SKILL.md",
		"skills/d/SKILL.md.bak", "skills/e/old/SKILL.md",
	} {
		write(rel, "# x\n")
	}
	cfg := lint.DefaultConfig()
	cfg.Path = filepath.Join(root, ".skillc.yaml")
	cfg.Ignore = []string{"drafts", "skills/*/old/**"}
	rel := func(files []file) string {
		var out []string
		for _, f := range files {
			r, _ := filepath.Rel(root, f.path)
			out = append(out, filepath.ToSlash(r))
		}
		return strings.Join(out, " ")
	}

	files, problems, empty := find([]string{root}, cfg)
	if got, want := rel(files), "skills/a/SKILL.md skills/b/SKILL.md"; got != want || len(problems) != 0 || len(empty) != 0 {
		t.Errorf("walk = %q %v %v, want %q", got, problems, empty, want)
	}
	// Named files are linted as given, once, unless ignored.
	files, problems, _ = find([]string{
		filepath.Join(root, "skills/b/notes.md"), filepath.Join(root, "skills/a/SKILL.md"),
		filepath.Join(root, "skills/a"), filepath.Join(root, "skills/drafts/c/SKILL.md"),
		filepath.Join(root, "missing.md"),
	}, cfg)
	if got, want := rel(files), "skills/a/SKILL.md skills/b/notes.md"; got != want {
		t.Errorf("files = %q, want %q", got, want)
	}
	if len(problems) != 1 || problems[0].Rule != "unreadable" || !strings.Contains(problems[0].Summary, "no such file") {
		t.Errorf("problems = %v", problems)
	}
}

// TestFindEmpty: which folders named on the command line hold no skill
// file to read, and how many the ignore globs excluded there.
func TestFindEmpty(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"skills/a/SKILL.md", "skills/drafts/c/SKILL.md", "skills/drafts/d/skill.md",
		"notes/README.md", "tooling/.git/x/SKILL.md", "tooling/node_modules/p/SKILL.md",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "bare"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := lint.DefaultConfig()
	cfg.Path = filepath.Join(root, ".skillc.yaml")
	cfg.Ignore = []string{"drafts"}
	tests := []struct {
		name  string
		paths []string
		want  string // the empty folders, as path:ignored
	}{
		{"a folder with skills", []string{"skills"}, ""},
		{"a folder of notes", []string{"notes"}, "notes:0"},
		{"an empty folder", []string{"bare"}, "bare:0"},
		{"only skills under .git and node_modules", []string{"tooling"}, "tooling:0"},
		{"only ignored skills", []string{"skills/drafts"}, "skills/drafts:2"},
		{"one of two", []string{"skills", "notes"}, "notes:0"},
		{"named twice", []string{"skills/a", "skills/a"}, ""},
		{"inside a folder already walked", []string{"skills", "skills/a"}, ""},
		{"a file is never empty", []string{"notes/README.md"}, ""},
		{"the repository root", []string{"."}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var paths []string
			for _, p := range tt.paths {
				paths = append(paths, filepath.Join(root, p))
			}
			_, problems, empty := find(paths, cfg)
			var got []string
			for _, e := range empty {
				r, _ := filepath.Rel(root, e.path)
				got = append(got, fmt.Sprintf("%s:%d", filepath.ToSlash(r), e.ignored))
			}
			if strings.Join(got, " ") != tt.want || len(problems) != 0 {
				t.Errorf("empty = %q, want %q; problems %v", strings.Join(got, " "), tt.want, problems)
			}
		})
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"drafts", "drafts/a/SKILL.md", true},
		{"**/drafts", "skills/drafts/a/SKILL.md", true},
		{"skills/*/SKILL.md", "skills/a/SKILL.md", true},
		{"skills/*/SKILL.md", "skills/a/b/SKILL.md", false},
		{"skills/**/SKILL.md", "skills/a/b/SKILL.md", true},
		{"skills/**", "skills", true},
		{"other", "skills/a", false},
	}
	for _, tt := range tests {
		if got := matchGlob(tt.pattern, tt.name); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v", tt.pattern, tt.name, got)
		}
	}
}

func TestLintUnreadableGoesOn(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.md")
	os.WriteFile(good, []byte("---\nname: good\ndescription: Fine. Use when testing.\n---\n# Good\n\n1. Do it.\n"), 0o644)
	res := Lint([]string{filepath.Join(dir, "gone.md"), good}, lint.Options{})
	if len(res.Files) != 2 || !res.Unreadable() {
		t.Fatalf("files = %d, unreadable = %v", len(res.Files), res.Unreadable())
	}
	if res.Files[0].Path != filepath.Join(dir, "gone.md") || res.Files[0].Diags[0].Rule != "unreadable" {
		t.Errorf("first file %+v", res.Files[0])
	}
	if len(res.Files[1].Diags) != 0 {
		t.Errorf("good.md: %v", res.Files[1].Diags)
	}
}
