//go:build unix

package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnsafeCacheIsNotUsed runs the real skillc and skillc-draw, built into
// one folder, with $TMPDIR (go-graphviz's own choice of cache folder) and
// the user cache folder pointing at folders others can write, each holding
// a corrupted copy of go-graphviz's compiled code. Loading such a file
// panics at start (wazero checks its CRC32); that the drawing succeeds and
// the files are untouched shows they were not read. As root it also tries a
// cache folder owned by another user (nobody).
func TestUnsafeCacheIsNotUsed(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build skillc")
	}
	bin := t.TempDir()
	build := exec.Command(goBin, "build", "-o", bin+string(filepath.Separator), "../skillc", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	skillc := filepath.Join(bin, "skillc")
	acat, err := filepath.Abs("../../skills/acat-reimbursement/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}

	// A real cache, made in a private folder, to copy and corrupt.
	good := t.TempDir()
	run(t, skillc, []string{"XDG_CACHE_HOME=" + good}, "graph", "--format", "svg", acat)
	code := findCode(t, filepath.Join(good, "skillc", "graphviz", "go-graphviz"))
	// The corrupted copy must be one that would make a process panic:
	// check that with the private folder itself.
	corrupt := corrupted(t, code)
	if err := os.WriteFile(code, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := command(skillc, []string{"XDG_CACHE_HOME=" + good}, "graph", "--format", "svg", acat).CombinedOutput(); err == nil {
		t.Fatalf("a corrupted cache in the private folder did not fail, so this test would prove nothing:\n%s", out)
	}

	rel, err := filepath.Rel(filepath.Join(good, "skillc", "graphviz"), code)
	if err != nil {
		t.Fatal(err)
	}
	plant := func(t *testing.T, dir string, mode os.FileMode, uid int) string {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, corrupt, 0o644); err != nil {
			t.Fatal(err)
		}
		for d := p; ; d = filepath.Dir(d) {
			if err := os.Lchown(d, uid, -1); err != nil && uid != os.Geteuid() {
				t.Fatal(err)
			}
			if d == dir {
				break
			}
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}

	type folder struct {
		mode os.FileMode
		uid  int
	}
	cases := map[string]folder{"writable by all": {0o777, os.Geteuid()}}
	if os.Geteuid() == 0 {
		cases["owned by nobody"] = folder{0o755, 65534}
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			cache := filepath.Join(t.TempDir(), "cache")
			// go-graphviz's default: $TMPDIR/go-graphviz.
			planted := []string{plant(t, filepath.Join(tmp, "go-graphviz"), f.mode, f.uid)}
			if err := os.Chmod(tmp, f.mode); err != nil {
				t.Fatal(err)
			}
			// Ours: <user cache>/skillc/graphviz.
			if err := os.MkdirAll(cache, 0o700); err != nil {
				t.Fatal(err)
			}
			planted = append(planted, plant(t, filepath.Join(cache, "skillc", "graphviz"), f.mode, f.uid))
			env := []string{"TMPDIR=" + tmp, "XDG_CACHE_HOME=" + cache}

			for _, format := range []string{"svg", "png"} {
				out := run(t, skillc, env, "graph", "--format", format, acat)
				if format == "svg" && !bytes.Contains(out, []byte("<svg")) || format == "png" && !bytes.HasPrefix(out, []byte("\x89PNG")) {
					t.Errorf("%s: not a picture: %.80q", format, out)
				}
			}
			for _, p := range planted {
				b, err := os.ReadFile(p)
				if err != nil || !bytes.Equal(b, corrupt) {
					t.Errorf("%s changed: %v", p, err)
				}
			}
			// Nothing written beside the planted files either.
			for _, d := range []string{tmp, cache} {
				var files []string
				filepath.WalkDir(d, func(p string, e os.DirEntry, _ error) error {
					if e != nil && !e.IsDir() {
						files = append(files, p)
					}
					return nil
				})
				if len(files) != 1 {
					t.Errorf("%s holds %v, want only the planted file", d, files)
				}
			}
		})
	}
}

// TestNoWritableTMPDIR: commands that do not draw never touch $TMPDIR, and
// a drawing is still made without any cache.
func TestNoWritableTMPDIR(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build skillc")
	}
	bin := t.TempDir()
	if out, err := exec.Command(goBin, "build", "-o", bin+string(filepath.Separator), "../skillc", ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	skillc := filepath.Join(bin, "skillc")
	// Folders under a file: nobody, not even root, can create them.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"TMPDIR=" + file + "/tmp", "XDG_CACHE_HOME=" + file + "/cache"}
	run(t, skillc, env, "version")
	run(t, skillc, env, "lint", "../../skills/acat-reimbursement")
	out := run(t, skillc, env, "graph", "--format", "svg", "../../skills/acat-reimbursement")
	if !bytes.Contains(out, []byte("<svg")) {
		t.Errorf("not an svg: %.80q", out)
	}
}

func command(prog string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(prog, args...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// run runs prog and fails the test unless it exits 0 without a panic.
func run(t *testing.T, prog string, env []string, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := command(prog, env, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || strings.Contains(errOut.String(), "panic") {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(prog), strings.Join(args, " "), err, errOut.String())
	}
	return out.Bytes()
}

// findCode returns the one compiled-code file wazero wrote under dir.
func findCode(t *testing.T, dir string) string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 1 {
		t.Fatalf("want one compiled-code file under %s, found %v", dir, files)
	}
	return files[0]
}

// corrupted returns the file's bytes with 64 in the middle inverted.
func corrupted(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) / 2; i < len(b)/2+64 && i < len(b); i++ {
		b[i] ^= 0xff
	}
	return b
}

// TestScaleThroughTheBinaries: skillc graph --format png hands --scale to
// skillc-draw: 2 by default, twice the pixels across of --scale 1; a
// scale out of range is a usage error (exit 2) naming the range.
func TestScaleThroughTheBinaries(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build skillc")
	}
	bin := t.TempDir()
	if out, err := exec.Command(goBin, "build", "-o", bin+string(filepath.Separator), "../skillc", ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	skillc := filepath.Join(bin, "skillc")
	acat := "../../skills/acat-reimbursement"
	size := func(args ...string) image.Point {
		t.Helper()
		img, err := png.Decode(bytes.NewReader(run(t, skillc, nil, append([]string{"graph", "--format", "png", acat}, args...)...)))
		if err != nil {
			t.Fatal(err)
		}
		return img.Bounds().Size()
	}
	one, def, three := size("--scale", "1"), size(), size("--scale", "3")
	if d := def.X - 2*one.X; d < -1 || d > 1 || three.X-3*one.X < -1 || three.X-3*one.X > 2 {
		t.Errorf("widths: %d at --scale 1, %d by default, %d at 3; want 1:2:3", one.X, def.X, three.X)
	}
	for _, bad := range []string{"0", "8.5", "x"} {
		var errOut bytes.Buffer
		cmd := command(skillc, nil, "graph", "--format", "png", "--scale", bad, acat)
		cmd.Stderr = &errOut
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errOut.String(), "--scale") {
			t.Errorf("--scale %s: %v, stderr %q; want exit 2 naming --scale", bad, err, errOut.String())
		}
	}
}
