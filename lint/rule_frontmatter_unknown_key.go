package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// frontmatterKeys are the top-level keys of the Agent Skills specification.
var frontmatterKeys = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// RuleFrontmatterUnknownKey flags frontmatter keys outside the Agent Skills
// set; the compiler records them and leaves judging them to lint.
var RuleFrontmatterUnknownKey = &Rule{
	ID:       "frontmatter-unknown-key",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "the frontmatter has a key outside the Agent Skills specification",
	Doc: `Agent Skills frontmatter has name, description, license, compatibility,
metadata and allowed-tools; validators of the specification reject other
top-level keys. Put your own fields under metadata.

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
	for _, ref := range fm.Unknown {
		d := compiler.Diagnostic{
			Range:   ref.Range,
			Summary: fmt.Sprintf("unknown frontmatter key %q", ref.Name),
		}
		if s := compiler.Nearest(ref.Name, frontmatterKeys); s != "" {
			d.Suggestion = s
		} else {
			d.Detail = "move it under metadata, or remove it"
		}
		p.Report(d)
	}
}
