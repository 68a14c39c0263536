package lint

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

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
	Fix: "unsafe: a frontmatter block at the top, whose name is the folder's for a SKILL.md, the folder's or else the title's for a README.md or stdin, the file's or else the title's for another file (each made a valid name), and whose description is a placeholder to write. None when no valid name fits.",
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
	name := frontmatterName(s)
	nl := "\n"
	if bytes.Contains(s.Source, []byte("\r\n")) {
		nl = "\r\n"
	}
	block := "---" + nl + "name: " + name + nl + "description: What it does. Use when ..." + nl + "---"
	d := compiler.Diagnostic{
		Range:   p.RangeOf(0, firstLineEnd(s.Source)),
		Summary: "the skill has no frontmatter, so Agent Skills loaders cannot find it",
		Detail:  "add at the very top:\n" + strings.ReplaceAll(block, "\r\n", "\n"),
	}
	// After a byte order mark, which the compiler skips: the block must
	// open the text.
	at := 0
	if bytes.HasPrefix(s.Source, []byte("\ufeff")) {
		at = len("\ufeff")
	}
	// Unsafe: the description is a placeholder for the author to write.
	fix := compiler.Fix{
		Title: fmt.Sprintf("add a frontmatter block with name %q and a description to write", name),
		Edits: []compiler.Edit{{Range: p.RangeOf(at, at), NewText: block + nl}},
	}
	if name == "" || !p.fixWorks(d, fix) {
		// No name fits (a SKILL.md whose folder is no valid name gets
		// invalid-name or name-mismatch with any): no block to copy.
		d.Detail = "add a frontmatter block at the very top with the skill's name (for a SKILL.md, its folder's) and a description that says when to use it"
	} else {
		d.Fixes = []compiler.Fix{fix}
	}
	p.Report(d)
}

// frontmatterName is the name a frontmatter block for s should give: a
// SKILL.md's folder (any other name is name-mismatch); for a README.md or
// a skill read from stdin, whose file name says nothing, its folder's
// name, else its title's; for another file its name, else its title's.
// Each is taken as written when it is a valid name, else as a slug of it
// (a README.md must not be told to write name: README, which invalid-name
// refuses). "" when none gives a valid name.
func frontmatterName(s *compiler.Skill) string {
	if folder := compiler.SkillFolder(s.Filename); folder != "" {
		if name := norm.NFKC.String(folder); validName(name) && (!s.Strict || name == suggestName(name, "")) {
			return name
		}
		return ""
	}
	base := filepath.Base(s.Filename)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	cands := []string{stem, s.Title}
	if strings.EqualFold(stem, "readme") || strings.HasPrefix(base, "<") {
		cands = []string{"", s.Title}
		if dir := filepath.Dir(s.Filename); dir != "." && dir != "/" && !strings.HasPrefix(base, "<") {
			cands[0] = filepath.Base(dir)
		}
	}
	for _, c := range cands {
		name := norm.NFKC.String(strings.TrimSpace(c))
		if name == "" {
			continue
		}
		if s.Strict || !validName(name) {
			name = suggestName(name, "")
		}
		if name != "" {
			return name
		}
	}
	return ""
}

func firstLineEnd(src []byte) int {
	for i, c := range src {
		if c == '\n' || c == '\r' {
			return max(i, 1)
		}
	}
	return len(src)
}
