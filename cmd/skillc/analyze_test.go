package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compile and graph judge a skill as lint does: a tool missing from
// allowed-tools is an error for all three, and the same config applies.
func TestCommandsAgreeWithLint(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "refund", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "---\nname: refund\ndescription: Refund a charge. Use when the user asks for a refund.\nallowed-tools: list_charges refund_charge\n---\n# Refund\n\n1. Find the charge.\n   - tools: list_charge\n2. Refund it.\n   - tools: refund_charge\n"
	if err := os.WriteFile(skill, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	off := filepath.Join(dir, "off.yaml")
	if err := os.WriteFile(off, []byte("rules:\n  unknown-tool: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("rules:\n  unknown-tool: loud\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	dangling := filepath.Join(dir, "dangling.md")
	if err := os.WriteFile(dangling, []byte("# Dangling\n\n1. Look.\n   - on failure: 7\n2. Answer.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waive := filepath.Join(dir, "waive.yaml")
	if err := os.WriteFile(waive, []byte("rules:\n  unknown-target: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		{[]string{"lint", skill}, exitFindings, `tool "list_charge" is not in allowed-tools [unknown-tool]`},
		{[]string{"compile", skill}, exitFindings, `tool "list_charge" is not in allowed-tools [unknown-tool]`},
		{[]string{"graph", skill}, exitFindings, `tool "list_charge" is not in allowed-tools [unknown-tool]`},
		{[]string{"compile", "--config", off, skill}, exitOK, ""},
		{[]string{"graph", "--config", off, skill}, exitOK, ""},
		{[]string{"compile", "--config", broken, skill}, exitUsage, `config "` + broken + `" has 1 problem`},
		// A config may quiet a compiler error in lint, but the skill is
		// still no valid template and no faithful drawing.
		{[]string{"compile", "--config", waive, dangling}, exitFindings, `dangling.md:4:18: failure edge of step "1" goes to "7", which is not a step [unknown-target] (the config turned this rule down`},
		{[]string{"graph", "--config", waive, dangling}, exitFindings, "no graph drawn"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:len(tt.args)-1], " "), func(t *testing.T) {
			io, out, errOut := testIO()
			code := run(tt.args, io)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstderr:\n%s", code, tt.wantCode, errOut)
			}
			// lint reports on stdout; compile and graph keep stdout for the
			// template or drawing and report on stderr.
			report := errOut.String()
			if tt.args[0] == "lint" {
				report = out.String()
			}
			if tt.wantErr != "" && !strings.Contains(report, tt.wantErr) {
				t.Errorf("report does not contain %q:\n%s", tt.wantErr, report)
			}
			if tt.wantCode == exitOK && out.Len() == 0 {
				t.Errorf("no output on stdout")
			}
			if tt.wantCode != exitOK && tt.args[0] == "compile" && out.Len() != 0 {
				t.Errorf("a refused compile wrote a template:\n%s", out)
			}
		})
	}
}
