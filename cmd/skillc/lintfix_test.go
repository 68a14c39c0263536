package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFixed: --fix replaces a file whole or leaves it as it was. It
// keeps the file's permissions, writes a symlink's target (the link stays
// a link), and refuses a file that changed since it was linted.
func TestWriteFixed(t *testing.T) {
	const old, fixed = "old text\n", "fixed text\n"
	tests := []struct {
		name string
		// setup makes the file to fix in dir and returns its path.
		setup func(t *testing.T, dir string) string
		err   string // "" for success
		// file is the path whose content is checked, want that content.
		file, want string
	}{
		{name: "keeps the mode", setup: func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "SKILL.md")
			write(t, p, old, 0o600)
			return p
		}, file: "SKILL.md", want: fixed},
		{name: "writes a symlink's target", setup: func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "real.md"), old, 0o644)
			p := filepath.Join(dir, "SKILL.md")
			if err := os.Symlink("real.md", p); err != nil {
				t.Skip(err)
			}
			return p
		}, file: "real.md", want: fixed},
		{name: "changed since linted", setup: func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "SKILL.md")
			write(t, p, "someone else's edit\n", 0o644)
			return p
		}, err: "changed while it was linted", file: "SKILL.md", want: "someone else's edit\n"},
		{name: "gone", setup: func(t *testing.T, dir string) string {
			return filepath.Join(dir, "SKILL.md")
		}, err: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := tt.setup(t, dir)
			var before os.FileInfo
			if tt.file != "" {
				before, _ = os.Stat(filepath.Join(dir, tt.file))
			}
			err := writeFixed(p, []byte(old), []byte(fixed))
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
			if tt.file != "" {
				got, err := os.ReadFile(filepath.Join(dir, tt.file))
				if err != nil || string(got) != tt.want {
					t.Errorf("%s = %q, %v; want %q", tt.file, got, err, tt.want)
				}
				after, _ := os.Stat(filepath.Join(dir, tt.file))
				if before != nil && after.Mode() != before.Mode() {
					t.Errorf("mode %v, was %v", after.Mode(), before.Mode())
				}
			}
			if fi, err := os.Lstat(p); err == nil && tt.name == "writes a symlink's target" && fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s is no longer a symlink", p)
			}
			// No temporary file is left beside it.
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Errorf("left %s behind", e.Name())
				}
			}
		})
	}
}

func write(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}
