package catalog_test

import (
	"os"
	"testing"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/lint"
)

// TestRealWorldFrontmatter lints the real write-ups of /work/shared
// (skills and runbooks written for hosts and docs sites, by other people):
// none of them may get a finding from the frontmatter rules, which read
// every form they use (FORMAT 6.1). Skipped when the folders are absent.
func TestRealWorldFrontmatter(t *testing.T) {
	dirs := []string{"../../shared/realworld", "../../shared/realworld-eval"}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			t.Skip("no real-world write-ups at", d)
		}
	}
	frontmatterRules := map[string]bool{
		lint.RuleInvalidFrontmatter.ID: true, lint.RuleMissingName.ID: true, lint.RuleInvalidName.ID: true,
		lint.RuleNameMismatch.ID: true, lint.RuleMissingDescription.ID: true, lint.RuleInvalidDescription.ID: true,
		lint.RuleInvalidToolName.ID: true, lint.RuleFrontmatterUnknownKey.ID: true, lint.RuleUnusedTool.ID: true,
		lint.RuleUnknownTool.ID: true,
	}
	res := catalog.Lint(dirs, lint.Options{})
	if len(res.Files) < 80 {
		t.Fatalf("linted %d files", len(res.Files))
	}
	for _, d := range res.Diagnostics() {
		if frontmatterRules[d.Rule] {
			t.Errorf("%s: %s: %s [%s]", d.Range, d.Severity, d.Summary, d.Rule)
		}
	}
}
