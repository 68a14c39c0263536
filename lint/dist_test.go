package lint

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestDistribution checks the GitHub Action and the pre-commit hooks parse
// and say what docs/lint.md promises.
func TestDistribution(t *testing.T) {
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				Run   string `yaml:"run"`
				Uses  string `yaml:"uses"`
				Shell string `yaml:"shell"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	readYAML(t, "../action.yml", &action)
	for _, in := range []string{"paths", "version", "format", "fail-on", "config", "sarif"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	if action.Runs.Using != "composite" || action.Inputs["format"].Default != "github" {
		t.Errorf("action.yml: using %q, format default %q", action.Runs.Using, action.Inputs["format"].Default)
	}
	var script strings.Builder
	for _, s := range action.Runs.Steps {
		if s.Run != "" && s.Shell == "" {
			t.Error("action.yml: a composite run step needs a shell")
		}
		script.WriteString(s.Run)
	}
	// The install itself (release binary, or go install for a branch) is
	// .github/action/install.sh; cmd/skillc's TestReleaseConfig checks it
	// against the release config.
	for _, want := range []string{`install.sh" install`, `skillc lint "${args[@]}" --format "$SKILLC_FORMAT" --fail-on "$SKILLC_FAIL_ON"`, `--format sarif -o "$SKILLC_SARIF"`} {
		if !strings.Contains(script.String(), want) {
			t.Errorf("action.yml does not run %q", want)
		}
	}

	var hooks []struct {
		ID       string `yaml:"id"`
		Entry    string `yaml:"entry"`
		Language string `yaml:"language"`
		Files    string `yaml:"files"`
	}
	readYAML(t, "../.pre-commit-hooks.yaml", &hooks)
	if len(hooks) == 0 || hooks[0].ID != "skillc-lint" || hooks[0].Entry != "skillc lint" || hooks[0].Language != "golang" {
		t.Fatalf("hooks: %+v", hooks)
	}
	// skillc-lint runs on the files a folder walk reads: SKILL.md, and
	// skill.md (read where a folder has no SKILL.md).
	files, err := regexp.Compile(hooks[0].Files)
	if err != nil {
		t.Fatalf("skillc-lint files: %v", err)
	}
	for path, want := range map[string]bool{"SKILL.md": true, "skills/a/SKILL.md": true, "skills/a/skill.md": true, "README.md": false, "skills/a/NOTSKILL.md": false} {
		if files.MatchString(path) != want {
			t.Errorf("skillc-lint files %q matches %s: %v, want %v", hooks[0].Files, path, !want, want)
		}
	}
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
