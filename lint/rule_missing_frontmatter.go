package lint

import (
	"golang.org/x/text/unicode/norm"

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
	// The name the skill goes by (its folder's, else its file's) when that
	// is a valid name, else one made from it: README.md must not be told
	// to write name: README, which invalid-name refuses.
	name := norm.NFKC.String(s.Name)
	if s.Strict || !validName(name) {
		name = suggestName(name, "")
	}
	if name == "" {
		name = "my-skill"
	}
	block := "---\nname: " + name + "\ndescription: What it does. Use when ...\n---"
	detail := "add at the very top:\n" + block
	if p.fixAddsError([]byte(block + "\n" + string(s.Source))) {
		// The name that fits would not be valid here (a SKILL.md whose
		// folder is no valid name gets name-mismatch): no block to copy.
		detail = "add a frontmatter block at the very top with the skill's name (for a SKILL.md, its folder's) and a description that says when to use it"
	}
	p.Report(compiler.Diagnostic{
		Range:   p.RangeOf(0, firstLineEnd(s.Source)),
		Summary: "the skill has no frontmatter, so Agent Skills loaders cannot find it",
		Detail:  detail,
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
