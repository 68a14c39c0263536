package tools_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRuntimeLinksNoMarkdown holds DESIGN.md §1: the runtime (plan, store
// and its backends, tools) builds without the markdown and YAML readers and
// the graph library, so an agent server embedding it links none of them.
func TestRuntimeLinksNoMarkdown(t *testing.T) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(goCmd, "list", "-deps", "./plan", "./store/...", "./tools")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps: %v\n%s", err, stderr)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed only %v", deps)
	}
	forbidden := []string{
		"github.com/yuin/goldmark",
		"gopkg.in/yaml.v3",
		"github.com/dominikbraun/graph",
		"github.com/skillc/skillc/compiler",
		"github.com/skillc/skillc/lint",
	}
	for _, dep := range deps {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("the runtime links %s", dep)
			}
		}
	}
}
