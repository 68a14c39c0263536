package graph_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
)

// goldenInputs are the compiled skills whose drawings are pinned under
// testdata/graph: the shipped ACAT skill and every testdata/graph/*.md.
func goldenInputs(t *testing.T) map[string]string {
	t.Helper()
	inputs := map[string]string{"acat-reimbursement": "../skills/acat-reimbursement/SKILL.md"}
	files, err := filepath.Glob("../testdata/graph/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		inputs[strings.TrimSuffix(filepath.Base(f), ".md")] = f
	}
	return inputs
}

func compileFile(t *testing.T, path string) *compiler.Skill {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, diags := compiler.Compile(path, src, compiler.Options{})
	for _, d := range diags {
		if d.Severity == compiler.SeverityError {
			t.Fatalf("%s does not compile: %v", path, d)
		}
	}
	return s
}

// TestGolden pins the DOT and Mermaid drawings and the graph diagnostics of
// each input; review the diff after go test -update.
func TestGolden(t *testing.T) {
	dot, dotErr := exec.LookPath("dot")
	for name, path := range goldenInputs(t) {
		t.Run(name, func(t *testing.T) {
			s := compileFile(t, path)
			g, err := graph.New(s.Template())
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Join("../testdata/graph", name)
			golden.Check(t, base+".dot", g.DOT())
			golden.Check(t, base+".mmd", g.Mermaid())

			var diags bytes.Buffer
			for _, d := range g.Problems() {
				// Where lint reports it: the step's ID as written, else
				// its goal, else the whole step.
				st := s.Steps[d.Index]
				r := st.IDRange
				if r.IsZero() {
					r = st.GoalRange
				}
				if r.IsZero() {
					r = st.Range
				}
				severity := "error"
				if d.Code == graph.CodeNoPathToEnd || d.Code == graph.CodeUnboundedLoop {
					severity = "warning"
				}
				fmt.Fprintf(&diags, "%d:%d: %s: %s [%s]\n", r.Start.Line, r.Start.Column, severity, d.Message, d.Code)
				if d.Detail != "" {
					fmt.Fprintf(&diags, "  detail: %s\n", d.Detail)
				}
				if d.Suggestion != "" {
					fmt.Fprintf(&diags, "  fix: %s\n", d.Suggestion)
				}
			}
			golden.Check(t, base+".diags", diags.Bytes())

			if dotErr != nil {
				if os.Getenv("CI") != "" {
					t.Fatal("dot (Graphviz) is not installed, and CI is set")
				}
				return
			}
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin = bytes.NewReader(g.DOT())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Fatalf("dot -Tsvg rejects %s.dot: %v\n%s", name, err, stderr.String())
			}
			graph.CheckSVG(t, out)
		})
	}
}
