package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// RuleUnusedTool flags allowed-tools entries no step uses. It looks only at
// skills whose steps recommend tools: an instruction-style skill, or a
// workflow whose steps name no tool at all (as no real skill written for a
// host does), grants tools to prose, and which prose uses which tool is
// not ours to guess. Once one step names its tools, the author keeps
// per-step tool lists, and a granted tool no step names is worth a note.
var RuleUnusedTool = &Rule{
	ID:       "unused-tool",
	Severity: compiler.SeverityInfo,
	Source:   "lint",
	Summary:  "a tool in allowed-tools is recommended by no step",
	Doc: `allowed-tools grants tools to the skill. A tool no step recommends is either
left over from an edit or missing from the step that needs it. Only skills
whose steps recommend tools (with tools: annotations) are checked: when no
step names a tool, allowed-tools is a permission list for the host (Claude
Code's "tools the skill may use without asking"), not a registry of the
steps' tools, and the rule stays silent. A permission pattern counts as its
tool: a step's "tools: Bash" uses "Bash(git:*)".

Bad:
    allowed-tools: search_thread send_email
    ...
    1. Search the thread.
       - tools: search_thread

Good:
    allowed-tools: search_thread`,
	Run: runUnusedTool,
}

func runUnusedTool(p *Pass) {
	s := p.Skill
	if s.Frontmatter == nil || !s.Frontmatter.HasAllowedTools || len(s.Steps) == 0 {
		return
	}
	used := map[string]bool{}
	for _, st := range s.Steps {
		for _, t := range st.Tools {
			used[t.Name] = true
		}
	}
	if len(used) == 0 {
		return // no step names a tool: allowed-tools grants them to the prose
	}
	for _, ref := range s.Frontmatter.AllowedTools {
		if !used[ref.Name] {
			p.Report(compiler.Diagnostic{
				Range:   ref.Range,
				Summary: fmt.Sprintf("tool %q is in allowed-tools but no step recommends it", ref.Name),
			})
		}
	}
}
