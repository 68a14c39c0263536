package lint

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// ConfigFileNames are the names FindConfig looks for, in order.
var ConfigFileNames = []string{".skillc.yaml", ".skillc.yml"}

// ConfigSchema is the JSON Schema (draft 2020-12) of .skillc.yaml, printed
// by `skillc schema config`. A test keeps it in step with LoadConfig.
//
//go:embed config.schema.json
var ConfigSchema []byte

// Defaults of the limits a config may change.
const (
	DefaultMaxTools      = 5
	DefaultMaxGoalLength = 120
)

// Config is a loaded .skillc.yaml. The zero value is no config.
type Config struct {
	// Path is the file it came from, "" for the default config.
	Path string
	// Rules maps a rule ID to its severity; RuleOff disables it.
	Rules map[string]compiler.Severity
	// Tools is the configured tool registry: inline names plus every
	// name read from registry files. HasTools is true when a registry was
	// configured at all, even an empty one.
	Tools    []string
	HasTools bool
	// ToolSources says where each registry name came from, for messages.
	ToolSources []string
	// ToolDescriptions are the descriptions the registry files give their
	// tools, by name, for an editor's hover (lsp).
	ToolDescriptions map[string]string
	// ToolServers names the mcpServers files whose servers' tools were
	// added to Tools (lint --tools-from), for messages.
	ToolServers []string

	// MaxTools and MaxGoalLength are the thresholds of the style warnings
	// too-many-tools and goal-too-long.
	MaxTools      int
	MaxGoalLength int
	// Limits are the hard limits (limit-exceeded): what make_plan
	// accepts, graph.DefaultLimits unless the config lowers them.
	Limits graph.Limits
	// Ignore holds slash-separated globs, relative to the config file's
	// folder; `**` matches any number of folders.
	Ignore []string
	// Strict is `infer: false`: skills are read as FORMAT v1 only, with
	// none of version 2's inferences (compiler.Options.Strict).
	Strict bool

	// checkingFix is set on the copy a fix is checked under
	// (Pass.fixWorks), so that its lint offers no fixes of its own.
	checkingFix bool
}

// RuleOff is the Config.Rules value of a disabled rule.
const RuleOff compiler.Severity = -1

// DefaultConfig is the configuration without a file.
func DefaultConfig() *Config {
	return &Config{MaxTools: DefaultMaxTools, MaxGoalLength: DefaultMaxGoalLength, Limits: graph.DefaultLimits()}
}

// Dir is the folder relative paths in the config are resolved from.
func (c *Config) Dir() string {
	if c == nil || c.Path == "" {
		return "."
	}
	return filepath.Dir(c.Path)
}

// FindConfig looks for a config file in dir and then in each parent
// folder. It returns "" when there is none.
func FindConfig(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		for _, name := range ConfigFileNames {
			p := filepath.Join(abs, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", nil
		}
		abs = parent
	}
}

// LoadConfig reads and checks a config file. Problems come back as
// diagnostics with the file:line:col of the offending key or value (rule
// invalid-config); err is set only when the file cannot be read.
func LoadConfig(path string) (*Config, compiler.Diagnostics, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	c, diags := ParseConfig(path, src)
	return c, diags, nil
}

// configLoader walks the YAML node tree so every problem keeps its
// position. It never calls Decode on the whole document: aliases are
// refused, so a hostile config cannot expand without bound.
type configLoader struct {
	path  string
	lines *compiler.Lines
	diags compiler.Diagnostics
}

// ParseConfig checks config source read from path.
func ParseConfig(path string, src []byte) (*Config, compiler.Diagnostics) {
	c := DefaultConfig()
	c.Path = path
	l := &configLoader{path: path, lines: compiler.NewLines(src)}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		line := 1
		msg := err.Error()
		// yaml.v3 writes "yaml: line N: ..."; keep the position.
		if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
			if i := strings.Index(rest, ":"); i > 0 {
				if n, err := strconv.Atoi(rest[:i]); err == nil {
					line, msg = n, strings.TrimSpace(rest[i+1:])
				}
			}
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		l.errorAtLine(line, "invalid YAML: %s", msg)
		return c, l.diags
	}
	if len(doc.Content) == 0 {
		return c, nil // an empty file is the default config
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		l.errorf(root, "the config must be a mapping with keys rules, tools, limits, ignore and infer")
		return c, l.diags
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if l.alias(v) {
			continue
		}
		switch k.Value {
		case "rules":
			l.rules(c, v)
		case "tools":
			l.tools(c, v)
		case "limits":
			l.limits(c, v)
		case "infer":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				l.errorf(v, "\"infer\" must be true or false")
				continue
			}
			c.Strict = strings.EqualFold(v.Value, "false")
		case "ignore":
			c.Ignore = l.strings(v, "ignore")
			for i, g := range c.Ignore {
				if _, err := filepath.Match(g, ""); err != nil {
					l.errorf(v.Content[i], "ignore pattern %q is not a valid glob", g)
				}
			}
		default:
			l.errorf(k, "unknown key %q%s", k.Value, didYouMean(k.Value, []string{"rules", "tools", "limits", "ignore", "infer"}))
		}
	}
	return c, l.diags
}

func didYouMean(name string, candidates []string) string {
	if s := compiler.Nearest(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

func (l *configLoader) rangeOf(n *yaml.Node) compiler.Range {
	// yaml.v3 columns count code points, as compiler.Lines does.
	_, end := l.lines.Bounds(n.Line)
	off := l.lines.OffsetAt(n.Line, n.Column)
	stop := off + len(n.Value)
	if n.Kind != yaml.ScalarNode || stop > end || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		stop = min(end, off+max(1, len(n.Value)+2))
	}
	if stop <= off {
		stop = off + 1 // Range clamps it to the file
	}
	return l.lines.Range(off, stop)
}

func (l *configLoader) errorf(n *yaml.Node, format string, args ...any) {
	l.diags = append(l.diags, compiler.Diagnostic{
		Severity: compiler.SeverityError, Rule: RuleInvalidConfig.ID, File: l.path,
		Summary: fmt.Sprintf(format, args...), Range: l.rangeOf(n),
	})
}

func (l *configLoader) errorAtLine(line int, format string, args ...any) {
	start, end := l.lines.Bounds(line)
	l.diags = append(l.diags, compiler.Diagnostic{
		Severity: compiler.SeverityError, Rule: RuleInvalidConfig.ID, File: l.path,
		Summary: fmt.Sprintf(format, args...),
		Range:   l.lines.Range(start, end),
	})
}

// alias refuses YAML aliases anywhere in the config: there is no need for
// them in a file this small, and refusing them rules out alias bombs.
func (l *configLoader) alias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		l.errorf(n, "YAML aliases are not allowed in the config; write the value out")
		return true
	}
	return false
}

func (l *configLoader) mapping(n *yaml.Node, key string) bool {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "%q must be a mapping", key)
		return false
	}
	return true
}

func (l *configLoader) strings(n *yaml.Node, key string) []string {
	if n.Kind != yaml.SequenceNode {
		l.errorf(n, "%q must be a list of strings", key)
		return nil
	}
	var out []string
	for _, item := range n.Content {
		if l.alias(item) {
			continue
		}
		if item.Kind != yaml.ScalarNode || item.Tag != "!!str" && item.Tag != "!!int" && item.Tag != "!!float" || item.Value == "" {
			l.errorf(item, "each entry of %q must be a non-empty string", key)
			continue
		}
		out = append(out, item.Value)
	}
	return out
}

func (l *configLoader) rules(c *Config, n *yaml.Node) {
	if !l.mapping(n, "rules") {
		return
	}
	c.Rules = map[string]compiler.Severity{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if l.alias(v) {
			continue
		}
		if Lookup(k.Value) == nil {
			l.errorf(k, "unknown rule %q%s (skillc rules lists them)", k.Value, didYouMean(k.Value, RuleIDs()))
			continue
		}
		if Lookup(k.Value).Run == nil {
			l.errorf(k, "rule %q is reported by skillc itself and cannot be configured", k.Value)
			continue
		}
		// yaml.v3 reads a bare off as the boolean false (YAML 1.1); both
		// spellings mean the same here.
		val := v.Value
		if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" && (val == "off" || val == "false") {
			val = "off"
		}
		switch val {
		case "off":
			c.Rules[k.Value] = RuleOff
		case "error", "warning", "info":
			c.Rules[k.Value], _ = compiler.ParseSeverity(val)
		default:
			l.errorf(v, "rule %q: unknown setting %q; want error, warning, info or off", k.Value, v.Value)
		}
	}
}

func (l *configLoader) limits(c *Config, n *yaml.Node) {
	if !l.mapping(n, "limits") {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if l.alias(v) {
			continue
		}
		// max-tools and max-goal-length are the style warnings'
		// thresholds; the plan- keys are graph.Limits, the hard limits,
		// which a config may lower but not raise past what make_plan
		// accepts.
		hard := graph.DefaultLimits()
		var dst *int
		ceiling := 0
		switch k.Value {
		case "max-tools":
			dst = &c.MaxTools
		case "max-goal-length":
			dst = &c.MaxGoalLength
		case "plan-max-steps":
			dst, ceiling = &c.Limits.MaxSteps, hard.MaxSteps
		case "plan-max-goal-length":
			dst, ceiling = &c.Limits.MaxGoalLen, hard.MaxGoalLen
		case "plan-max-tools":
			dst, ceiling = &c.Limits.MaxTools, hard.MaxTools
		case "plan-max-title-length":
			dst, ceiling = &c.Limits.MaxTitleLen, hard.MaxTitleLen
		case "loop-rounds":
			// The bound a loop without one takes (unbounded-loop); the
			// runtime applies the same default, so a higher one is a
			// choice of the author's, not a limit of make_plan's.
			dst = &c.Limits.LoopRounds
		default:
			l.errorf(k, "unknown limit %q%s", k.Value, didYouMean(k.Value, limitKeys))
			continue
		}
		x, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil || x < 1 {
			l.errorf(v, "limit %q must be a whole number of at least 1, not %q", k.Value, v.Value)
			continue
		}
		if ceiling > 0 && x > ceiling {
			l.errorf(v, "limit %q is %d, more than make_plan accepts: at most %d", k.Value, x, ceiling)
			continue
		}
		*dst = x
	}
}

// limitKeys are the keys of the config's limits section.
var limitKeys = []string{"max-tools", "max-goal-length", "plan-max-steps", "plan-max-goal-length", "plan-max-tools", "plan-max-title-length", "loop-rounds"}

func (l *configLoader) tools(c *Config, n *yaml.Node) {
	c.HasTools = true
	add := func(names []string, source string) {
		for _, name := range names {
			c.Tools = append(c.Tools, name)
			c.ToolSources = append(c.ToolSources, source)
		}
	}
	switch n.Kind {
	case yaml.SequenceNode: // shorthand: a list of names
		add(l.strings(n, "tools"), l.path)
		return
	case yaml.MappingNode:
	default:
		l.errorf(n, `"tools" must be a list of tool names, or a mapping with "names" and "files"`)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if l.alias(v) {
			continue
		}
		switch k.Value {
		case "names":
			add(l.strings(v, "tools.names"), l.path)
		case "files":
			files := l.strings(v, "tools.files")
			for j, f := range files {
				p := f
				if !filepath.IsAbs(p) {
					p = filepath.Join(filepath.Dir(l.path), filepath.FromSlash(f))
				}
				tools, err := ReadTools(p)
				if err != nil {
					l.errorf(v.Content[j], "tool registry %q: %v", f, err)
					continue
				}
				for _, t := range tools {
					add([]string{t.Name}, f)
					if t.Description != "" {
						if c.ToolDescriptions == nil {
							c.ToolDescriptions = map[string]string{}
						}
						c.ToolDescriptions[t.Name] = t.Description
					}
				}
			}
		default:
			l.errorf(k, "unknown key %q in \"tools\"%s", k.Value, didYouMean(k.Value, []string{"names", "files"}))
		}
	}
}

// ReadToolRegistry reads the tool names from a JSON file in one of the
// shapes tools are published in:
//   - an MCP tools/list result: {"tools": [{"name": ...}, ...]}, also
//     wrapped in its JSON-RPC response {"result": {"tools": [...]}};
//   - a bare array of MCP tools or Anthropic tool definitions: [{"name": ...}];
//   - OpenAI function-calling definitions: [{"type": "function", "function": {"name": ...}}].
func ReadToolRegistry(path string) ([]string, error) {
	tools, err := ReadTools(path)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names, nil
}

// Tool is one tool of a registry file: its name and, when the file gives
// one, its description.
type Tool struct {
	Name, Description string
}

// ReadTools reads a registry file as ReadToolRegistry does, keeping each
// tool's description.
func ReadTools(path string) ([]Tool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no such file")
		}
		return nil, err
	}
	return parseToolRegistry(src)
}

type toolDef struct {
	Name        *string    `json:"name"`
	Description textOrNone `json:"description"`
	Function    *struct {
		Name        *string    `json:"name"`
		Description textOrNone `json:"description"`
	} `json:"function"`
}

// textOrNone is a description: a string, or nothing when a registry
// writes something else there, which is no reason to refuse its names.
type textOrNone string

func (t *textOrNone) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*t = textOrNone(s)
	}
	return nil
}

func parseToolRegistry(src []byte) ([]Tool, error) {
	var list []toolDef
	trimmed := strings.TrimSpace(string(src))
	if strings.HasPrefix(trimmed, "{") {
		var obj struct {
			Tools  *[]toolDef `json:"tools"`
			Result *struct {
				Tools *[]toolDef `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(src, &obj); err != nil {
			return nil, fmt.Errorf("invalid JSON: %v", err)
		}
		switch {
		case obj.Tools != nil:
			list = *obj.Tools
		case obj.Result != nil && obj.Result.Tools != nil:
			list = *obj.Result.Tools
		default:
			return nil, errors.New(`want an MCP tools/list result {"tools": [...]} or an array of tool definitions`)
		}
	} else if err := json.Unmarshal(src, &list); err != nil {
		return nil, fmt.Errorf(`invalid JSON (want {"tools": [...]} or an array of tool definitions): %v`, err)
	}
	names := make([]Tool, 0, len(list))
	for i, t := range list {
		switch {
		case t.Function != nil && t.Function.Name != nil && *t.Function.Name != "":
			names = append(names, Tool{*t.Function.Name, string(t.Function.Description)})
		case t.Name != nil && *t.Name != "":
			names = append(names, Tool{*t.Name, string(t.Description)})
		default:
			return nil, fmt.Errorf(`tool %d has no name: want {"name": ...} or {"type": "function", "function": {"name": ...}}`, i+1)
		}
	}
	return names, nil
}
