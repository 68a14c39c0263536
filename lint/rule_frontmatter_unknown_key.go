package lint

import (
	"fmt"
	"strings"

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
	Fix: "the nearest known key written in the key's place: safe when it is the only key within two edits and a case change or one edit away (allowed_tools to allowed-tools), else unsafe. None when the frontmatter has that key already.",
	Run: runFrontmatterUnknownKey,
}

// fmHasKey reports whether the frontmatter block has a top-level line
// "KEY:". A rename onto it would write the key twice, which YAML refuses.
func fmHasKey(src []byte, fm *compiler.Frontmatter, key string) bool {
	start, end := fm.Range.Start.Byte, min(fm.Range.End.Byte, len(src))
	if start < 0 || end <= start {
		return false
	}
	for _, line := range strings.Split(string(src[start:end]), "\n") {
		if strings.HasPrefix(line, key+":") {
			return true
		}
	}
	return false
}

func runFrontmatterUnknownKey(p *Pass) {
	fm := p.Skill.Frontmatter
	if fm == nil || len(fm.Unknown) == 0 {
		// Most frontmatters have no unknown key: the list of known ones,
		// a copy, is only made for a key to match against it.
		return
	}
	known := compiler.FrontmatterKeys(fm.Strict)
	for _, ref := range fm.Unknown {
		d := compiler.Diagnostic{
			Range:   ref.Range,
			Summary: fmt.Sprintf("unknown frontmatter key %q", ref.Name),
		}
		if m := compiler.NearestMatch(ref.Name, known); m.Name != "" {
			d.Suggestion = m.Name
			// The key as written, renamed: allowed_tools to allowed-tools
			// is one edit and sure; a key already set would be a second.
			if ref.Range.End.Byte-ref.Range.Start.Byte == len(ref.Name) && !fmHasKey(p.Skill.Source, fm, m.Name) {
				d.Fixes = []compiler.Fix{{
					Title: fmt.Sprintf("rename %q to %q", ref.Name, m.Name),
					Safe:  m.Sure(),
					Edits: []compiler.Edit{{Range: ref.Range, NewText: m.Name}},
				}}
			}
		} else {
			d.Detail = "move it under metadata, or remove it"
		}
		p.Report(d)
	}
}
