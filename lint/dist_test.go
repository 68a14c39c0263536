package lint

import (
	"os"
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
				Shell string `yaml:"shell"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	readYAML(t, "../action.yml", &action)
	for _, in := range []string{"paths", "version", "format", "fail-on"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	if action.Runs.Using != "composite" || action.Inputs["format"].Default != "github" {
		t.Errorf("action.yml: using %q, format default %q", action.Runs.Using, action.Inputs["format"].Default)
	}
	var script strings.Builder
	for _, s := range action.Runs.Steps {
		if s.Shell == "" {
			t.Error("action.yml: a composite run step needs a shell")
		}
		script.WriteString(s.Run)
	}
	for _, want := range []string{"go install \"github.com/skillc/skillc/cmd/skillc@", "lint --format"} {
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
	if len(hooks) == 0 || hooks[0].ID != "skillc-lint" || hooks[0].Entry != "skillc lint" || hooks[0].Language != "golang" || !strings.Contains(hooks[0].Files, `SKILL\.md$`) {
		t.Errorf("hooks: %+v", hooks)
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
