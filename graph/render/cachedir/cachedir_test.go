//go:build unix

package cachedir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make files owned by another user")
	}
	const nobody = 65534
	tests := []struct {
		name    string
		prepare func(t *testing.T, base string) // base is $XDG_CACHE_HOME
		ok      bool
	}{
		{name: "fresh", prepare: func(t *testing.T, base string) {}, ok: true},
		{name: "existing private", prepare: func(t *testing.T, base string) {
			mkdir(t, filepath.Join(base, "skillc", "graphviz", "go-graphviz"), 0o700)
			write(t, filepath.Join(base, "skillc", "graphviz", "go-graphviz", "code"), 0o600)
		}, ok: true},
		{name: "base writable by all", prepare: func(t *testing.T, base string) {
			chmod(t, base, 0o777)
		}},
		{name: "skillc folder of another user", prepare: func(t *testing.T, base string) {
			mkdir(t, filepath.Join(base, "skillc"), 0o755)
			chown(t, filepath.Join(base, "skillc"), nobody)
		}},
		{name: "cache folder writable by all", prepare: func(t *testing.T, base string) {
			mkdir(t, filepath.Join(base, "skillc", "graphviz"), 0o700)
			chmod(t, filepath.Join(base, "skillc", "graphviz"), 0o777)
		}},
		{name: "planted file of another user", prepare: func(t *testing.T, base string) {
			p := filepath.Join(base, "skillc", "graphviz", "go-graphviz", "wazero-x", "code")
			mkdir(t, filepath.Dir(p), 0o700)
			write(t, p, 0o644)
			chown(t, p, nobody)
		}},
		{name: "group-writable file", prepare: func(t *testing.T, base string) {
			p := filepath.Join(base, "skillc", "graphviz", "code")
			mkdir(t, filepath.Dir(p), 0o700)
			write(t, p, 0o664)
		}},
		{name: "symbolic link", prepare: func(t *testing.T, base string) {
			mkdir(t, filepath.Join(base, "skillc"), 0o700)
			other := t.TempDir()
			if err := os.Symlink(other, filepath.Join(base, "skillc", "graphviz")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := filepath.Join(t.TempDir(), "cache")
			mkdir(t, base, 0o700)
			tt.prepare(t, base)
			t.Setenv("XDG_CACHE_HOME", base)
			dir, err := Dir()
			if tt.ok {
				if err != nil {
					t.Fatalf("Dir: %v", err)
				}
				if want := filepath.Join(base, "skillc", "graphviz"); dir != want {
					t.Fatalf("Dir = %s, want %s", dir, want)
				}
				fi, err := os.Stat(dir)
				if err != nil || fi.Mode().Perm() != 0o700 {
					t.Fatalf("cache folder: %v, %v; want mode 0700", fi, err)
				}
				return
			}
			if !errors.Is(err, errNotPrivate) {
				t.Fatalf("Dir = %q, %v; want a refusal", dir, err)
			}
		})
	}
}

func TestInitSetsTMPDIR(t *testing.T) {
	// The init ran with the environment of the test process.
	if os.Getenv("TMPDIR") != Used || Used == "" {
		t.Fatalf("TMPDIR = %q, init chose %q", os.Getenv("TMPDIR"), Used)
	}
	if (Err == nil) == (Used == NoCache) {
		t.Fatalf("Used %q with Err %v", Used, Err)
	}
}

func mkdir(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(p, mode); err != nil {
		t.Fatal(err)
	}
	chmod(t, p, mode)
}

func write(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte("not code"), mode); err != nil {
		t.Fatal(err)
	}
	chmod(t, p, mode)
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, p string, uid int) {
	t.Helper()
	if err := os.Lchown(p, uid, -1); err != nil {
		t.Fatal(err)
	}
}
