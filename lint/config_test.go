package lint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
)

var _ = golden.Update

const configDir = "../testdata/lint/config"

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// want lists "line:col: message substring" of each diagnostic.
		want []string
		// fileOnly marks problems the schema cannot see (a registry file
		// that is missing or broken, a malformed glob): the schema
		// accepts the document.
		fileOnly bool
		check    func(t *testing.T, c *Config)
	}{
		{name: "empty", src: "", check: func(t *testing.T, c *Config) {
			if c.MaxTools != 5 || c.MaxGoalLength != 120 || c.HasTools || c.Limits != graph.DefaultLimits() {
				t.Errorf("defaults: %+v", c)
			}
		}},
		{name: "full", src: `rules:
  prose-branch: off
  goal-too-long: error
  unused-tool: warning
  no-steps: info
tools:
  names: [search_thread, "ask_user"]
  files: [mcp-tools.json, openai-tools.json, anthropic-tools.json, jsonrpc-tools.json]
limits:
  max-tools: 3
  max-goal-length: 80
ignore:
  - drafts/**
  - "*.draft.md"
`, check: func(t *testing.T, c *Config) {
			if c.Rules["prose-branch"] != RuleOff || c.Rules["goal-too-long"] != compiler.SeverityError ||
				c.Rules["unused-tool"] != compiler.SeverityWarning || c.Rules["no-steps"] != compiler.SeverityInfo {
				t.Errorf("rules: %v", c.Rules)
			}
			want := "search_thread ask_user search_thread list_acat_transfers ask_user send_email get_weather"
			if got := strings.Join(c.Tools, " "); got != want || !c.HasTools {
				t.Errorf("tools = %q, want %q", got, want)
			}
			if c.MaxTools != 3 || c.MaxGoalLength != 80 || len(c.Ignore) != 2 {
				t.Errorf("limits/ignore: %+v", c)
			}
		}},
		{name: "hard limits lowered", src: "limits:\n  plan-max-steps: 40\n  plan-max-goal-length: 300\n  plan-max-tools: 8\n  plan-max-title-length: 90\n  loop-rounds: 5\n", check: func(t *testing.T, c *Config) {
			if want := (graph.Limits{MaxSteps: 40, MaxGoalLen: 300, MaxTools: 8, MaxTitleLen: 90, LoopRounds: 5}); c.Limits != want {
				t.Errorf("limits = %+v, want %+v", c.Limits, want)
			}
		}},
		{name: "hard limit raised", src: "limits:\n  plan-max-steps: 101\n", want: []string{
			`2:19: limit "plan-max-steps" is 101, more than make_plan accepts: at most 100`,
		}},
		{name: "infer false", src: "infer: false\n", check: func(t *testing.T, c *Config) {
			if !c.Strict {
				t.Errorf("infer: false gave Strict = false")
			}
		}},
		{name: "infer true", src: "infer: true\n", check: func(t *testing.T, c *Config) {
			if c.Strict {
				t.Errorf("infer: true gave Strict = true")
			}
		}},
		{name: "infer not a bool", src: "infer: sometimes\n", want: []string{`1:8: "infer" must be true or false`}},
		{name: "tools shorthand", src: "tools: [a, b]\n", check: func(t *testing.T, c *Config) {
			if strings.Join(c.Tools, " ") != "a b" {
				t.Errorf("tools = %v", c.Tools)
			}
		}},
		{name: "empty registry", src: "tools: []\n", check: func(t *testing.T, c *Config) {
			if !c.HasTools || len(c.Tools) != 0 {
				t.Errorf("tools = %v %v", c.HasTools, c.Tools)
			}
		}},
		{name: "unknown top key", src: "rules: {}\nrulez:\n  a: b\n", want: []string{`2:1: unknown key "rulez"; did you mean "rules"?`}},
		{name: "unknown rule", src: "rules:\n  prose-branches: off\n", want: []string{`2:3: unknown rule "prose-branches"; did you mean "prose-branch"?`}},
		{name: "bad severity", src: "rules:\n  prose-branch: of\n", want: []string{`2:17: rule "prose-branch": unknown setting "of"`}},
		{name: "driver rule", src: "rules:\n  unreadable: off\n", want: []string{`2:3: rule "unreadable" is reported by skillc itself`}},
		{name: "bad limit", src: "limits:\n  max-tools: 0\n  max-goal-length: long\n  max-steps: 3\n", want: []string{
			`2:14: limit "max-tools" must be a whole number of at least 1, not "0"`,
			`3:20: limit "max-goal-length" must be a whole number`,
			`4:3: unknown limit "max-steps"`,
		}},
		{name: "not a mapping", src: "- a\n- b\n", want: []string{"1:1: the config must be a mapping"}},
		{name: "bad yaml", src: "rules:\n  a: [\n", want: []string{"2:1: invalid YAML"}},
		{name: "alias", src: "limits: &l\n  max-tools: 3\nignore: *l\n", want: []string{"3:9: YAML aliases are not allowed"}},
		{name: "tools wrong type", src: "tools: 3\n", want: []string{`1:8: "tools" must be a list of tool names`}},
		{name: "tools unknown key", src: "tools:\n  file: [x.json]\n", want: []string{`2:3: unknown key "file" in "tools"; did you mean "files"?`}},
		{name: "ignore not list", src: "ignore: drafts\n", want: []string{`1:9: "ignore" must be a list of strings`}},
		{name: "ignore bad glob", src: "ignore: ['[']\n", fileOnly: true, want: []string{`1:10: ignore pattern "[" is not a valid glob`}},
		{name: "missing registry", src: "tools:\n  files: [nope.json]\n", fileOnly: true, want: []string{`2:11: tool registry "nope.json": no such file`}},
		{name: "nameless registry", src: "tools:\n  files: [nameless-tools.json]\n", fileOnly: true, want: []string{`2:11: tool registry "nameless-tools.json": tool 1 has no name`}},
		{name: "broken registry", src: "tools:\n  files: [broken-tools.json]\n", fileOnly: true, want: []string{`2:11: tool registry "broken-tools.json": invalid JSON`}},
	}
	schema := compileConfigSchema(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(configDir, ".skillc.yaml")
			c, diags := ParseConfig(path, []byte(tt.src))
			var got []string
			for _, d := range diags {
				got = append(got, d.Location()+": "+d.Summary)
				if d.Rule != "invalid-config" || d.Severity != compiler.SeverityError || d.File != path {
					t.Errorf("diagnostic %v: want an invalid-config error in %s", d, path)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, got[i], w)
				}
			}
			if tt.check != nil {
				tt.check(t, c)
			}
			// The schema and the loader agree on every document whose
			// problems are in the YAML itself.
			if tt.name == "bad yaml" || tt.name == "alias" {
				return
			}
			schemaOK := validateYAML(schema, []byte(tt.src)) == nil
			loaderOK := len(diags) == 0 || tt.fileOnly
			if schemaOK != loaderOK {
				t.Errorf("schema accepts: %v, loader accepts: %v (%v)", schemaOK, loaderOK, validateYAML(schema, []byte(tt.src)))
			}
		})
	}
}

func compileConfigSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(ConfigSchema)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("config.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validateYAML validates a YAML document against the schema, through the
// JSON value yaml.v3 decodes it to.
func validateYAML(s *jsonschema.Schema, src []byte) error {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return err
	}
	if v == nil {
		v = map[string]any{}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

func TestConfigSchemaListsEveryConfigurableRule(t *testing.T) {
	var schema struct {
		Properties struct {
			Rules struct {
				PropertyNames struct {
					Enum []string `json:"enum"`
				} `json:"propertyNames"`
			} `json:"rules"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(ConfigSchema, &schema); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range Rules {
		if r.Run != nil {
			want = append(want, r.ID)
		}
	}
	if got := strings.Join(schema.Properties.Rules.PropertyNames.Enum, " "); got != strings.Join(want, " ") {
		t.Errorf("schema rule IDs:\n%s\nregistry:\n%s", got, strings.Join(want, " "))
	}
}

// TestDocsConfigExamples checks every config example of docs/lint.md (a
// ```yaml block that follows a line mentioning .skillc.yaml) against the
// schema and the loader.
func TestDocsConfigExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	schema := compileConfigSchema(t)
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatchIndex(doc, -1)
	n := 0
	for _, m := range blocks {
		body := doc[m[2]:m[3]]
		if !strings.Contains(string(body), "# .skillc.yaml") {
			continue
		}
		n++
		if err := validateYAML(schema, body); err != nil {
			t.Errorf("docs example %d does not validate: %v\n%s", n, err, body)
		}
		// Registry files in the examples are resolved next to the test
		// registries.
		_, diags := ParseConfig(filepath.Join(configDir, ".skillc.yaml"), body)
		for _, d := range diags {
			t.Errorf("docs example %d: %v", n, d)
		}
	}
	if n == 0 {
		t.Fatal("docs/lint.md has no config example (a ```yaml block starting with # .skillc.yaml)")
	}
}

func TestFindConfig(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".skillc.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := FindConfig(deep)
	if err != nil || got != filepath.Join(root, ".skillc.yaml") {
		t.Errorf("FindConfig = %q, %v", got, err)
	}
}

func TestReadToolRegistry(t *testing.T) {
	for file, want := range map[string]string{
		"mcp-tools.json":       "search_thread list_acat_transfers",
		"openai-tools.json":    "ask_user",
		"anthropic-tools.json": "send_email",
		"jsonrpc-tools.json":   "get_weather",
	} {
		names, err := ReadToolRegistry(filepath.Join(configDir, file))
		if err != nil || strings.Join(names, " ") != want {
			t.Errorf("%s: %v, %v; want %s", file, names, err, want)
		}
	}
}
