package lint

import (
	"github.com/skillc/skillc/compiler"
)

// RuleMissingFrontmatter flags a skill without frontmatter. It is a
// warning, not an error: FORMAT.md lets a bare write-up compile (title from
// the H1, name from the folder), so skillc can use it, but Agent Skills
// loaders cannot discover a skill without name and description, which is
// worth fixing before it ships.
var RuleMissingFrontmatter = &Rule{
	ID:       "missing-frontmatter",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "the skill has no YAML frontmatter",
	Doc: `skillc compiles a bare write-up, taking the title from the first heading and
the name from the folder, but agents that load Agent Skills find a skill by its
frontmatter name and description. Add a frontmatter block at the very top.
It is a warning: the skill works with skillc, it will not be found elsewhere.

Bad:
    # Refund check

    1. Look up the refund.

Good:
    ---
    name: refund-check
    description: Check whether a refund was paid. Use when the user asks about a refund.
    ---
    # Refund check

    1. Look up the refund.`,
	Run: runMissingFrontmatter,
}

func runMissingFrontmatter(p *Pass) {
	s := p.Skill
	if s.Frontmatter != nil || len(s.Source) == 0 {
		return
	}
	// A frontmatter the compiler could not read is its error, not a
	// missing one.
	for _, d := range p.Upstream {
		if d.Rule == "invalid-frontmatter" || d.Rule == "invalid-encoding" || d.Rule == "file-too-large" {
			return
		}
	}
	name := s.Name
	if name == "" {
		name = "my-skill"
	}
	p.Report(compiler.Diagnostic{
		Range:   p.RangeOf(0, firstLineEnd(s.Source)),
		Summary: "the skill has no frontmatter, so Agent Skills loaders cannot find it",
		Detail:  "add at the very top:\n---\nname: " + name + "\ndescription: What it does. Use when ...\n---",
	})
}

func firstLineEnd(src []byte) int {
	for i, c := range src {
		if c == '\n' || c == '\r' {
			return max(i, 1)
		}
	}
	return len(src)
}
