package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// TestCompileBinary runs `skillc compile` and `skillc schema` through the
// real binary: exit codes, stdout, stderr and files as a shell sees them.
func TestCompileBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the skillc binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "skillc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	acat, err := filepath.Abs(compileTestdata + "/acat-reimbursement/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	acatJSON, err := os.ReadFile(compileTestdata + "/acat-reimbursement/SKILL.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.md")
	if err := os.WriteFile(bad, []byte("# Bad\n\n1. Go.\n   - many: 2\n2. Two.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A sparse 2 GiB file: refused by size without being read.
	huge := filepath.Join(dir, "huge.md")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()

	sh := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}

	if out, errOut, code := sh("compile", acat); code != 0 || out != string(acatJSON) || errOut != "" {
		t.Errorf("compile acat: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if out, _, code := sh("compile", "-o", "acat.json", acat); code != 0 || out != "" {
		t.Errorf("compile -o: exit %d, stdout %q", code, out)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "acat.json")); err != nil || !bytes.Equal(got, acatJSON) {
		t.Errorf("acat.json: %v\n%s", err, got)
	}
	out, errOut, code := sh("compile", "bad.md")
	if code != 1 || out != "" || !strings.Contains(errOut, "bad.md:4:6: error: \"many\" is not an edge key") || !strings.Contains(errOut, "fix: no (many): 2") {
		t.Errorf("compile bad.md: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if out, errOut, code := sh("compile", "huge.md"); code != 1 || out != "" || !strings.Contains(errOut, "--max-size") {
		t.Errorf("compile huge.md: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if _, errOut, code := sh("compile", "missing.md"); code != 2 || !strings.Contains(errOut, `no such file "missing.md"`) {
		t.Errorf("compile missing.md: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := sh("compile"); code != 2 {
		t.Errorf("compile without a file: exit %d", code)
	}
	if out, _, code := sh("schema", "template"); code != 0 || out != string(compiler.TemplateSchema) {
		t.Errorf("schema template: exit %d", code)
	}
}
