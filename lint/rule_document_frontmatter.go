package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// RuleDocumentFrontmatter reports a frontmatter that belongs to a document
// (FORMAT 6.1): the compiler reads it as a bare write-up, which skillc can
// use, but no skill host can load. A warning, like missing-frontmatter,
// and for the same reason.
var RuleDocumentFrontmatter = &Rule{
	ID:       "document-frontmatter",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "the frontmatter is a document's (title, no name): skill hosts cannot load it",
	Doc: `A frontmatter with title and no name, or with another page key of a docs
site (layout, weight, cover, sidebar, nav_order, ...) and no name, belongs to a
document such as a runbook on a docs site, not to a skill. skillc compiles it as
a bare write-up: its name comes from the folder or the file, its title from the
first heading or else the title field, and its site keys are not checked. Skill
hosts find a skill by its name and description, so they cannot load it. Not
under --strict, which reads every frontmatter as a skill's.

Bad (as a skill):
    ---
    title: Rotate leaked AWS credentials
    weight: 110
    ---

Good:
    ---
    name: rotate-aws-credentials
    description: Rotate leaked AWS credentials. Use when a key was exposed.
    ---`,
	Run: runDocumentFrontmatter,
}

func runDocumentFrontmatter(p *Pass) {
	fm := p.Skill.Frontmatter
	if fm == nil || !fm.Document {
		return
	}
	what := "has title and no name"
	if fm.DocumentKey.Name != "title" {
		what = fmt.Sprintf("has %q, a docs site's page key, and no name", fm.DocumentKey.Name)
	}
	name := p.Skill.Name
	if name == "" {
		name = "my-skill"
	}
	p.Report(compiler.Diagnostic{
		Range:   fm.DocumentKey.Range,
		Summary: "this frontmatter " + what + ": it is a document's, so skill hosts cannot load it as a skill",
		Detail:  "skillc compiles it as a bare write-up; to make it a skill, add to the frontmatter:\nname: " + name + "\ndescription: What it does. Use when ...",
	})
}
