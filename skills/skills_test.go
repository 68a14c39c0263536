package skills_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/skills"
)

var _ = golden.Update

// The shipped skills are what new users see first (the README lints them):
// they must lint clean, with no finding of any severity.
func TestShippedSkillsLintClean(t *testing.T) {
	for _, name := range skills.Names() {
		t.Run(name, func(t *testing.T) {
			src, file, err := skills.Read(name)
			if err != nil {
				t.Fatal(err)
			}
			diags := lint.LintSource(filepath.Join("skills", file), src, lint.Options{})
			for _, d := range diags {
				t.Errorf("%s", d.Error())
			}
		})
	}
}

func TestNames(t *testing.T) {
	if got := skills.Names(); !slices.Contains(got, "plan") || !slices.Contains(got, "acat-reimbursement") {
		t.Errorf("Names() = %v, want plan and acat-reimbursement", got)
	}
	if got := skills.Workflows(); slices.Contains(got, skills.PlanSkill) {
		t.Errorf("Workflows() = %v includes the plan skill", got)
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "acat-reimbursement")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, "SKILL.md"), []byte("# ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, skill string
		dirs        []string
		wantFile    string
		wantErr     string
	}{
		{name: "shipped", skill: "acat-reimbursement", wantFile: "skills/acat-reimbursement/SKILL.md"},
		{name: "user folder wins", skill: "acat-reimbursement", dirs: []string{dir}, wantFile: filepath.Join(own, "SKILL.md")},
		{name: "falls back to shipped", skill: "plan", dirs: []string{dir}, wantFile: "skills/plan/SKILL.md"},
		{name: "unknown", skill: "refunds", wantErr: `no skill named "refunds" (shipped: acat-reimbursement`},
		{name: "path escape", skill: "../etc", wantErr: `invalid skill name "../etc"`},
		{name: "nested", skill: "a/b", wantErr: `invalid skill name "a/b"`},
		{name: "empty", skill: "", wantErr: `invalid skill name ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, file, err := skills.Find(tt.skill, tt.dirs)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if file != tt.wantFile || len(data) == 0 {
				t.Errorf("Find = (%d bytes, %q), want %q", len(data), file, tt.wantFile)
			}
		})
	}
	if _, _, err := skills.Find("nope", nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("unknown skill error %v does not wrap fs.ErrNotExist", err)
	}
}
