// Package golden compares test output with files under testdata and
// rewrites them when tests run with -update:
//
//	go test ./... -update
//
// Every package with tests imports it, so the flag is defined in every test
// binary that `go test ./... -update` starts.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag: rewrite golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files under testdata")

// Check compares got with the file at path, or writes it under -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test -update and review the diff):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
