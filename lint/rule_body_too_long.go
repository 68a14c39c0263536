package lint

import (
	"bytes"
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// maxBodyLines is the Agent Skills guidance: keep SKILL.md's body under
// 500 lines and move detail into files it links to.
const maxBodyLines = 500

// RuleBodyTooLong checks the Agent Skills guidance on length (FORMAT 6.1).
var RuleBodyTooLong = &Rule{
	ID:       "body-too-long",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "the body is over 500 lines",
	Doc: `An agent loads a skill's whole body into its context when the skill is used.
The Agent Skills guidance keeps the body (everything after the frontmatter)
within 500 lines and moves reference material into files the skill links to
(references/, scripts/, assets/), which an agent reads only when a step needs
them. The finding points at line 501 of the body. Documents (see
document-frontmatter) are not skills and are not checked.

Bad: a SKILL.md whose body pastes a 900-line API reference.

Good:
    4. Call the API.

       The parameters are in [the API reference](references/api.md).`,
	Run: runBodyTooLong,
}

func runBodyTooLong(p *Pass) {
	s := p.Skill
	if s.Frontmatter != nil && s.Frontmatter.Document {
		return
	}
	src := s.Source
	start := bodyStart(p)
	// The frontmatter's range ends before its closing line's newline.
	if start < len(src) && src[start] == '\r' {
		start++
	}
	if start > 0 && start < len(src) && src[start] == '\n' {
		start++
	}
	body := src[start:]
	lines := bytes.Count(body, []byte("\n"))
	if len(body) > 0 && body[len(body)-1] != '\n' {
		lines++
	}
	if lines <= maxBodyLines {
		return
	}
	// The first line past the limit.
	off := start
	for range maxBodyLines {
		off += bytes.IndexByte(src[off:], '\n') + 1
	}
	end := off
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		end = off + i
	} else {
		end = len(src)
	}
	for end > off && src[end-1] == '\r' {
		end--
	}
	p.Report(compiler.Diagnostic{
		Range:   p.RangeOf(off, end),
		Summary: fmt.Sprintf("the body is %d lines; the Agent Skills guidance keeps it within %d", lines, maxBodyLines),
		Detail:  "move reference material into files the skill links to (references/, scripts/), which an agent reads only when needed",
	})
}
