package lint

import (
	"fmt"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// RuleUnknownTool checks tool names against the registries that exist: the
// skill's allowed-tools (FORMAT.md: when present, every tool a step names
// must be in it) and the tool registries of .skillc.yaml (the tools the
// agent really has). Without any registry there is nothing to check
// against, and the rule stays silent.
var RuleUnknownTool = &Rule{
	ID:       "unknown-tool",
	Severity: compiler.SeverityError,
	Source:   "lint",
	Summary:  "a tool is missing from the tool registry",
	Doc: `A step recommends a tool the agent does not have. The registries are the
skill's allowed-tools and the tools of .skillc.yaml (inline names, MCP
tools/list output, or function-calling definitions). Each registry that exists
is checked; allowed-tools entries are also checked against the config's
registry. With no registry at all the rule does nothing. The message suggests
the nearest known name.

Bad:
    allowed-tools: search_thread ask_user
    ...
    1. Search the thread.
       - tools: search_threads

Good:
    1. Search the thread.
       - tools: search_thread`,
	Fix: "the nearest name of the registry written in the tool's place: safe when it is the only name within two edits and a case change or one edit away, else unsafe.",
	Run: runUnknownTool,
}

func runUnknownTool(p *Pass) {
	s := p.Skill
	var allowed []string
	hasAllowed := s.Frontmatter != nil && s.Frontmatter.HasAllowedTools
	if hasAllowed {
		for _, t := range s.Frontmatter.AllowedTools {
			allowed = append(allowed, t.Name)
		}
	}
	hasConfig := p.Config != nil && p.Config.HasTools
	if !hasAllowed && !hasConfig {
		return
	}
	var registry map[string]bool
	if hasConfig {
		registry = make(map[string]bool, len(p.Config.Tools))
		for _, t := range p.Config.Tools {
			registry[t] = true
		}
	}
	allowedSet := make(map[string]bool, len(allowed))
	for _, t := range allowed {
		allowedSet[t] = true
	}
	// A step's tool is checked against allowed-tools when the skill has
	// them, and allowed-tools against the config's registry, so one
	// missing tool is reported once, where it was first written.
	// step is the step whose tools are being checked, nil for
	// allowed-tools.
	var step *compiler.Step
	check := func(ref compiler.Ref, inAllowed bool) {
		if hasAllowed && !inAllowed {
			if !allowedSet[ref.Name] {
				p.Report(toolFix(compiler.Diagnostic{
					Range:   ref.Range,
					Summary: fmt.Sprintf("tool %q is not in allowed-tools", ref.Name),
					Detail:  "allowed-tools: " + strings.Join(allowed, " "),
				}, ref, allowed, step))
			}
			return
		}
		if hasConfig && !registry[ref.Name] {
			summary := fmt.Sprintf("tool %q is in no tool registry of %s", ref.Name, configName(p.Config))
			if inAllowed {
				summary = fmt.Sprintf("allowed-tools names %q, which is in no tool registry of %s", ref.Name, configName(p.Config))
			}
			p.Report(toolFix(compiler.Diagnostic{Range: ref.Range, Summary: summary}, ref, p.Config.Tools, step))
		}
	}
	if hasAllowed {
		for _, ref := range s.Frontmatter.AllowedTools {
			check(ref, true)
		}
	}
	for _, st := range s.Steps {
		step = st
		for _, ref := range st.Tools {
			check(ref, false)
		}
	}
}

func configName(c *Config) string {
	name := fmt.Sprintf("%q", c.Path)
	if c.Path == "" {
		name = "the config"
	}
	for _, f := range c.ToolServers {
		name += fmt.Sprintf(" or of the servers of %q", f)
	}
	return name
}

// toolFix gives d the name of known that is nearest to ref's as its
// suggestion, and the fix that writes it in ref's place: safe when it is
// the only near name and one edit or a case change away, else a guess. A
// step that lists the name already gets no fix: it would list it twice.
func toolFix(d compiler.Diagnostic, ref compiler.Ref, known []string, step *compiler.Step) compiler.Diagnostic {
	m := compiler.NearestMatch(ref.Name, known)
	d.Suggestion = m.Name
	if step != nil {
		for _, t := range step.Tools {
			if t.Name == m.Name {
				return d
			}
		}
	}
	if m.Name != "" && !ref.Range.IsZero() && ref.Range.End.Byte-ref.Range.Start.Byte == len(ref.Name) {
		d.Fixes = []compiler.Fix{{
			Title: fmt.Sprintf("replace %q with %q", ref.Name, m.Name),
			Safe:  m.Sure(),
			Edits: []compiler.Edit{{Range: ref.Range, NewText: m.Name}},
		}}
	}
	return d
}
