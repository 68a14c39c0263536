package lint

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// The rule IDs the compiler, the graph and the spec rules report, from the
// tracker: each must be in the registry so it has docs and can be
// configured.
var upstreamIDs = []string{
	"invalid-encoding", "file-too-large", "invalid-frontmatter", "missing-name", "invalid-name", "name-mismatch",
	"missing-description", "invalid-description", "no-steps", "invalid-id", "reserved-id", "duplicate-id",
	"empty-goal", "unknown-target", "duplicate-edge", "unknown-branch-key", "invalid-tool-name",
	"cycle", "unreachable-step", "no-path-to-end", "entry-cannot-end",
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if !kebab.MatchString(r.ID) {
			t.Errorf("rule ID %q is not kebab-case", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("rule %q registered twice", r.ID)
		}
		seen[r.ID] = true
		if r.Severity == 0 || r.Summary == "" || strings.ToLower(r.Summary[:1]) != r.Summary[:1] {
			t.Errorf("rule %q: needs a severity and a lowercase summary", r.ID)
		}
		if !strings.Contains(r.Doc, "Bad") || !strings.Contains(r.Doc, "Good") {
			t.Errorf("rule %q: doc needs a bad and a good example", r.ID)
		}
		if (r.Run == nil) != (r.Source == "driver") {
			t.Errorf("rule %q: only driver rules have no Run", r.ID)
		}
		// One file per rule.
		file := "rule_" + strings.ReplaceAll(r.ID, "-", "_") + ".go"
		if _, err := os.Stat(file); err != nil {
			t.Errorf("rule %q: no %s", r.ID, file)
		}
	}
	// graph.Check's problem codes are rule IDs; each must be a graph rule.
	for _, id := range []string{graph.CodeInvalidID, graph.CodeReservedID, graph.CodeDuplicateID, graph.CodeEmptyGoal,
		graph.CodeUnknownTarget, graph.CodeInvalidToolName, graph.CodeLimit, graph.CodeCycle, graph.CodeUnreachable,
		graph.CodeNoPathToEnd, graph.CodeEntryCannotEnd} {
		if Lookup(id) == nil || Lookup(id).Source != "graph" {
			t.Errorf("graph rule %q is not in the registry", id)
		}
	}
	for _, id := range upstreamIDs {
		if r := Lookup(id); r == nil || r.Source != "compiler" && r.Source != "graph" && r.Source != "spec" {
			t.Errorf("compiler/graph/spec rule %q is not in the registry as such", id)
		}
	}
	if Suggest("prose-branches") != "prose-branch" || Suggest("zzzzzzzz") != "" {
		t.Error("Suggest")
	}
}

// TestGraphRulesRequireTheAnalysis: a graph rule reads graph.Check's
// problems through Requires, never by forwarding.
func TestGraphRulesRequireTheAnalysis(t *testing.T) {
	for _, r := range Rules {
		if r.Source == "graph" && !slices.Contains(r.Requires, GraphAnalysis) {
			t.Errorf("graph rule %q does not require GraphAnalysis", r.ID)
		}
	}
}

func TestResultOf(t *testing.T) {
	runs := 0
	counted := &Analysis{Name: "counted", Run: func(p *Pass) any { runs++; return runs }}
	var found compiler.Diagnostics
	pass := &Pass{Skill: &compiler.Skill{Filename: "x.md"}, Config: DefaultConfig(), out: &found}
	for _, id := range []string{"a", "b"} {
		pass.rule = &Rule{ID: id, Requires: []*Analysis{counted}}
		if got := pass.ResultOf(counted); got != 1 {
			t.Errorf("rule %s: result %v, want the one computed first", id, got)
		}
	}
	if runs != 1 {
		t.Errorf("the analysis ran %d times for one skill, want once", runs)
	}
	defer func() {
		if recover() == nil {
			t.Error("ResultOf of an analysis the rule does not require did not panic")
		}
	}()
	pass.rule = &Rule{ID: "c"}
	pass.ResultOf(counted)
}
