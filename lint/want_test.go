package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// The rule tests put their expectations in the input, as go/analysis's
// analysistest does: an HTML comment names the rules whose findings must
// start on a line, and the checker fails on a finding nobody expected and
// on an expectation nothing matched.
//
//	<!-- want "rule-id" -->               on this line
//	<!-- want "rule-id" "other-rule" -->  two findings on this line
//	<!-- want+1 "rule-id" -->             on the next line (a line that cannot
//	                                      hold a comment, e.g. a tools bullet)
//	<!-- want-2 "rule-id" -->             two lines up (frontmatter: put the
//	                                      comment just after the closing ---)
//
// testdata/lint/rules/X.md is linted with X.skillc.yaml beside it when there
// is one, else with the default config. testdata/lint/rules/X/SKILL.md is
// linted the same way (config SKILL.skillc.yaml beside it), for the rules
// that depend on the Agent Skills layout, such as name-mismatch.
var wantRe = regexp.MustCompile(`<!--\s*want([+-]\d+)?((?:\s+"[^"]+")+)\s*-->`)

type wantKey struct {
	line int
	rule string
}

func parseWants(src []byte) map[wantKey]int {
	wants := map[wantKey]int{}
	for i, line := range strings.Split(string(src), "\n") {
		for _, m := range wantRe.FindAllStringSubmatch(line, -1) {
			n := i + 1
			if m[1] != "" {
				d, _ := strconv.Atoi(m[1])
				n += d
			}
			for _, q := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(m[2], -1) {
				wants[wantKey{n, q[1]}]++
			}
		}
	}
	return wants
}

// checkWants lints one testdata file and compares findings with its want
// comments. It returns the rules the file expects.
func checkWants(t *testing.T, path string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{}
	if cfgPath := strings.TrimSuffix(path, ".md") + ".skillc.yaml"; fileExists(cfgPath) {
		cfg, diags, err := LoadConfig(cfgPath)
		if err != nil || len(diags) > 0 {
			t.Fatalf("config %s: %v %v", cfgPath, err, diags)
		}
		opts.Config = cfg
	}
	diags := LintSource(path, src, opts)
	wants := parseWants(src)
	expected := map[string]bool{}
	for k := range wants {
		expected[k.rule] = true
	}
	var problems []string
	for _, d := range diags {
		k := wantKey{int(d.Range.Start.Line), d.Rule}
		if wants[k] > 0 {
			wants[k]--
			continue
		}
		problems = append(problems, fmt.Sprintf("%s: unexpected %s: %s [%s]", d.Location(), d.Severity, d.Summary, d.Rule))
	}
	for k, n := range wants {
		for range n {
			problems = append(problems, fmt.Sprintf("%s:%d: no %q finding here", path, k.line, k.rule))
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
	return expected
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func TestRuleTestdata(t *testing.T) {
	files, err := filepath.Glob("../testdata/lint/rules/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	skillFiles, err := filepath.Glob("../testdata/lint/rules/*/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, skillFiles...)
	covered := map[string]bool{}
	for _, f := range files {
		name, _ := filepath.Rel("../testdata/lint/rules", f)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			for r := range checkWants(t, f) {
				covered[r] = true
			}
		})
	}
	// Every rule has a test input, compiler and graph rules included, except
	// the ones a markdown file cannot express. Findings about the size limit
	// and NUL bytes are covered too, by the compiler's tests and goldens;
	// here file-too-large comes from nesting and invalid-encoding from a
	// Latin-1 byte.
	notExpressible := map[string]string{
		// A file the driver cannot open has no text to hold a comment;
		// walk_test.go covers it.
		"unreadable": "driver",
		// A finding about .skillc.yaml, not about a skill; config_test.go
		// covers it.
		"invalid-config": "driver",
	}
	for _, r := range Rules {
		if _, skip := notExpressible[r.ID]; !skip && !covered[r.ID] {
			t.Errorf("rule %q has no testdata/lint/rules input that expects it", r.ID)
		}
	}
}

func TestParseWants(t *testing.T) {
	src := "a <!-- want \"x\" \"y\" -->\n<!-- want+1 \"z\" -->\n\n<!-- want-3 \"x\" -->\n"
	got := parseWants([]byte(src))
	want := map[wantKey]int{{1, "x"}: 2, {1, "y"}: 1, {3, "z"}: 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parseWants = %v, want %v", got, want)
	}
}

// TestSeverityConfig checks that config changes a rule's severity, for
// lint rules and forwarded compiler rules alike.
func TestSeverityConfig(t *testing.T) {
	src := []byte("---\nname: sev\ndescription: Severity. Use when testing.\n---\n# Sev\n\n1. Is it?\n   - on failure: 9\n")
	cfg := DefaultConfig()
	cfg.Rules = map[string]compiler.Severity{"question-without-branch": compiler.SeverityError, "unknown-target": compiler.SeverityInfo}
	got := map[string]compiler.Severity{}
	for _, d := range LintSource("sev.md", src, Options{Config: cfg}) {
		got[d.Rule] = d.Severity
	}
	if got["question-without-branch"] != compiler.SeverityError || got["unknown-target"] != compiler.SeverityInfo {
		t.Errorf("severities = %v", got)
	}
	for _, d := range LintSource("sev.md", src, Options{}) {
		if d.Rule == "question-without-branch" && d.Severity != compiler.SeverityWarning ||
			d.Rule == "unknown-target" && d.Severity != compiler.SeverityError {
			t.Errorf("default severity of %s: %s", d.Rule, d.Severity)
		}
	}
}

// v2Inputs are the rule inputs written for version 2's readings; every
// other input is FORMAT v1.
var v2Inputs = map[string]bool{
	"list-split.md": true, "inferred.md": true, "strict.md": true, "prose-branch-sublist.md": true, "prose-branch.md": true,
	// FORMAT 6.1: the hosts' frontmatter
	"document-frontmatter.md": true, "document-frontmatter-cover.md": true, "frontmatter-host-keys.md": true,
	"unknown-tool-patterns.md": true, "unused-tool-no-step-tools.md": true, "unused-tool-patterns.md": true,
	// FORMAT 6.5: loops, which v1 reads as cycles (cycle-strict.md is
	// their v1 reading); the graph tests' cycle.md and nested-cycles.md too
	"cycle.md": true, "unbounded-loop.md": true, "forward.md": true, "nested-cycles.md": true, "suppress.md": true,
	// FORMAT 6.4: a checklist of questions, whose inferred edges v1 does not read
	"question-without-branch-inferred.md": true,
}

// TestV1InputsReadTheSameStrict: every v1 input of the rule tests and the
// graph tests gives the same findings with --strict as without, so their
// goldens and want comments are v1's result under both.
func TestV1InputsReadTheSameStrict(t *testing.T) {
	rules, _ := filepath.Glob("../testdata/lint/rules/*.md")
	skills, _ := filepath.Glob("../testdata/lint/rules/*/SKILL.md")
	graphs, _ := filepath.Glob("../testdata/graph/*.md")
	files := append(append(rules, skills...), graphs...)
	if len(files) < 20 {
		t.Fatalf("found %d inputs", len(files))
	}
	for _, f := range files {
		if v2Inputs[filepath.Base(f)] {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{}
		if cfgPath := strings.TrimSuffix(f, ".md") + ".skillc.yaml"; fileExists(cfgPath) {
			cfg, _, err := LoadConfig(cfgPath)
			if err != nil {
				t.Fatal(err)
			}
			opts.Config = cfg
		}
		def := LintSource(f, src, opts)
		opts.Strict = true
		strict := LintSource(f, src, opts)
		if fmt.Sprint(def) != fmt.Sprint(strict) {
			t.Errorf("%s reads differently with --strict:\n default: %v\n strict:  %v", f, def, strict)
		}
	}
}
