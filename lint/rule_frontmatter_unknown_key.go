package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// RuleFrontmatterUnknownKey flags frontmatter keys that neither the Agent
// Skills specification nor a skill host defines (under --strict: outside
// the specification); the compiler records them and leaves judging them
// to lint.
var RuleFrontmatterUnknownKey = &Rule{
	ID:       "frontmatter-unknown-key",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "the frontmatter has a key that neither Agent Skills nor a skill host defines",
	Doc: `Agent Skills frontmatter has name, description, license, compatibility,
metadata and allowed-tools; validators of the specification reject other
top-level keys. The keys skill hosts define are known too: Claude Code's
when_to_use, argument-hint, arguments, disable-model-invocation,
user-invocable, model, effort, context, agent, hooks, paths, shell and
version (not under --strict, which knows the specification's only). Put your
own fields under metadata.

Bad:
    ---
    name: refund-check
    owner: payments
    allowed_tools: search
    ---

Good:
    ---
    name: refund-check
    metadata:
      owner: payments
    allowed-tools: search
    ---`,
	Run: runFrontmatterUnknownKey,
}

func runFrontmatterUnknownKey(p *Pass) {
	fm := p.Skill.Frontmatter
	if fm == nil {
		return
	}
	known := compiler.FrontmatterKeys(fm.Strict)
	for _, ref := range fm.Unknown {
		d := compiler.Diagnostic{
			Range:   ref.Range,
			Summary: fmt.Sprintf("unknown frontmatter key %q", ref.Name),
		}
		if s := compiler.Nearest(ref.Name, known); s != "" {
			d.Suggestion = s
		} else {
			d.Detail = "move it under metadata, or remove it"
		}
		p.Report(d)
	}
}
