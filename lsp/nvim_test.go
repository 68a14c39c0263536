package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/internal/golden"
)

// TestNeovim runs the real binary's `skillc lsp` under Neovim's built-in
// LSP client, headless: testdata/init.lua opens a skill with mistakes,
// waits for the diagnostics, applies the code action of an unknown target
// written after non-ASCII text, follows a definition, and asks for hover,
// the outline, completion and a rename; what Neovim saw is checked here
// and kept as a golden file. CI installs Neovim (.ci/run); without it the
// test is skipped.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("nvim is not installed, and CI must run this test: .ci/run installs Debian's neovim")
		}
		t.Skip("nvim is not installed (Debian: apt-get install neovim); .ci/run installs it")
	}
	if testing.Short() {
		t.Skip("builds skillc and starts Neovim")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "skillc")
	build := exec.Command("go", "build", "-o", bin, "github.com/skillc/skillc/cmd/skillc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := filepath.Join(dir, "work")
	if err := os.CopyFS(work, os.DirFS("testdata/nvim")); err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(work, "refund-check", "SKILL.md")
	outFile := filepath.Join(dir, "out.json")
	initLua, _ := filepath.Abs("testdata/init.lua")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-i", "NONE", "-u", initLua)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "SKILLC_BIN="+bin, "SKILL_FILE="+skill, "OUT_FILE="+outFile, "HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, stderr.String())
	}
	raw, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, stderr.String())
	}
	var got struct {
		Error       string
		Encoding    string
		Diagnostics []struct {
			Lnum, Col, EndCol int `json:"-"`
			Code              string
			Message           string
		}
		FixedLine        string                  `json:"fixed_line"`
		DiagnosticsAfter []struct{ Code string } `json:"diagnostics_after"`
		Definition       struct {
			Lnum int
			Text string
		}
		Hover      string
		Symbols    []string
		Completion []string
		Renamed    []string
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	if got.Error != "" {
		t.Fatalf("init.lua: %s\n%s", got.Error, stderr.String())
	}
	var codes []string
	for _, d := range got.Diagnostics {
		codes = append(codes, d.Code)
	}
	if !strings.Contains(strings.Join(codes, " "), "unknown-target") {
		t.Errorf("diagnostics %q: no unknown-target", codes)
	}
	if want := "   - yes (« oui » 😀): clarify"; got.FixedLine != want {
		t.Errorf("after the code action the line is %q, want %q", got.FixedLine, want)
	}
	for _, d := range got.DiagnosticsAfter {
		if d.Code == "unknown-target" {
			t.Errorf("unknown-target is still reported after the fix")
		}
	}
	if !strings.HasPrefix(got.Definition.Text, "clarify}") {
		t.Errorf("definition: the cursor is at %q (line %d), want the {#clarify} of step 3", got.Definition.Text, got.Definition.Lnum)
	}
	if !strings.Contains(got.Hover, "Search the support thread") {
		t.Errorf("hover = %q, want the registry's description", got.Hover)
	}
	// The whole of what Neovim saw, diagnostics with their byte columns
	// (Neovim converts LSP's UTF-16 positions to them), for review.
	// Re-encoded: Lua writes a table's keys in no set order, Go sorts them.
	var all any
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	pretty, _ := json.MarshalIndent(all, "", "  ")
	pretty = append(bytes.ReplaceAll(pretty, []byte(dir), []byte("$TMP")), '\n')
	golden.Check(t, "testdata/nvim.golden.json", pretty)
}
