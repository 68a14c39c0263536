package skills_test

import (
	"path/filepath"
	"slices"
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
