package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// RuleUnusedTool flags allowed-tools entries no step uses. It looks only at
// skills with steps: an instruction-style skill grants tools to prose, and
// which prose uses which tool is not ours to guess.
var RuleUnusedTool = &Rule{
	ID:       "unused-tool",
	Severity: compiler.SeverityInfo,
	Source:   "lint",
	Summary:  "a tool in allowed-tools is recommended by no step",
	Doc: `allowed-tools grants tools to the skill. A tool no step recommends is either
left over from an edit or missing from the step that needs it. Only skills
with steps are checked.

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
	for _, ref := range s.Frontmatter.AllowedTools {
		if !used[ref.Name] {
			p.Report(compiler.Diagnostic{
				Range:   ref.Range,
				Summary: fmt.Sprintf("tool %q is in allowed-tools but no step recommends it", ref.Name),
			})
		}
	}
}
