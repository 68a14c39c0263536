package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/tools"
)

// limitSkill writes a skill of n steps, the first with the given goal and
// tools, titled title, as <dir>/<name>/SKILL.md.
func limitSkill(t *testing.T, dir, name, title, goal string, tools, n int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: A skill at the edge of the limits. Use when testing.\n---\n# %s\n\n", name, title)
	for i := 1; i <= n; i++ {
		g := fmt.Sprintf("Do part %d.", i)
		if i == 1 {
			g = goal
		}
		fmt.Fprintf(&b, "%d. %s\n", i, g)
		if i == 1 && tools > 0 {
			names := make([]string, tools)
			for k := range names {
				names[k] = fmt.Sprintf("tool_%d", k)
			}
			fmt.Fprintf(&b, "   - tools: %s\n", strings.Join(names, ", "))
		}
	}
	path := filepath.Join(dir, name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLimitsAgree holds the promise of one check with one set of limits:
// what make_plan refuses, lint reports as an error (with the same
// message), and what lint passes, make_plan accepts. Each input runs
// through `skillc lint`, `skillc compile`, `skillc plan make --skill` and
// the server's make_plan(skill).
func TestLimitsAgree(t *testing.T) {
	t.Setenv("SKILLC_USER", "")
	t.Setenv("SKILLC_SESSION", "")
	long := func(n int) string { return strings.Repeat("é", n-1) + "." }
	tests := []struct {
		name, title, goal string
		tools, steps      int
		want              string // the message everyone gives; "" when all accept
	}{
		{name: "at-the-limits", title: long(200), goal: long(500), tools: 16, steps: 100},
		{name: "too-many-steps", title: "T", goal: "Start.", steps: 101,
			want: "the plan has 101 steps; at most 100 are allowed: split the work or keep the steps coarser"},
		{name: "too-many-tools", title: "T", goal: "Start.", tools: 17, steps: 2,
			want: `step "1" recommends 17 tools; at most 16 are allowed: keep the few the step needs`},
		{name: "goal-too-long", title: "T", goal: long(501), steps: 2,
			want: `the goal of step "1" is 501 characters; at most 500 are allowed: keep it to one sentence and put the rest in detail`},
		{name: "title-too-long", title: long(201), goal: "Start.", steps: 2,
			want: "the title is 201 characters; at most 200 are allowed"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		limitSkill(t, dir, tt.name, tt.title, tt.goal, tt.tools, tt.steps)
	}
	cat, err := server.LoadCatalog([]string{dir}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, tt.name, "SKILL.md")
			store := "sqlite:" + filepath.Join(t.TempDir(), "plans.db")
			for _, args := range [][]string{
				{"lint", file},
				{"compile", file},
				{"plan", "make", "--skill", file, "--store", store, "--user", "u", "--session", "s"},
			} {
				var out, errOut bytes.Buffer
				code := run(args, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
				all := out.String() + errOut.String()
				switch {
				case tt.want == "" && code != 0:
					t.Errorf("skillc %s: exit %d, want 0:\n%s", args[0], code, all)
				case tt.want != "" && (code != exitFindings || !strings.Contains(all, tt.want)):
					t.Errorf("skillc %s: exit %d, want %d with %q:\n%s", args[0], code, exitFindings, tt.want, all)
				case tt.want != "" && args[0] == "lint" && !strings.Contains(all, "error: "+tt.want+" [limit-exceeded]"):
					t.Errorf("skillc lint does not report %q as a limit-exceeded error:\n%s", tt.want, all)
				}
			}

			res, text := makePlanFromSkill(t, cat, tt.name)
			switch {
			case tt.want == "" && res.IsError:
				t.Errorf("make_plan(skill) refused: %s", text)
			case tt.want != "" && (!res.IsError || !strings.Contains(text, tt.want)):
				t.Errorf("make_plan(skill): error %v, want one with %q:\n%s", res.IsError, tt.want, text)
			}
		})
	}
}

// makePlanFromSkill calls the server's make_plan with a skill name over the
// SDK's in-memory transports.
func makePlanFromSkill(t *testing.T, cat *server.Catalog, name string) (*mcp.CallToolResult, string) {
	t.Helper()
	s, err := server.New(server.Options{
		Planner: &tools.Planner{Store: memory.New(store.Options{})},
		Catalog: cat, User: "u", Session: "s", Version: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "limits-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "make_plan", Arguments: map[string]any{"skill": name}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}
