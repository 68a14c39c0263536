package lint

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// RuleBrokenLink checks the Agent Skills guidance on references (FORMAT
// 6.1): a skill's relative links name files of its folder.
var RuleBrokenLink = &Rule{
	ID:       "broken-link",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "a relative link names a file that does not exist",
	Doc: `A skill points an agent at its other files (references/api.md,
scripts/check.sh) with relative links, resolved from the skill file's folder.
A link to a file that is not there sends the agent looking for nothing. Links
and images are read as markdown reads them, so a link inside a code span or a
code block is not one; URLs (https:, mailto:, any scheme), anchors (#part),
absolute paths (/docs) and templated destinations ({{ }}, {% %}, ${ }) are not
checked, and neither is a "#part" after the file. Documents (see
document-frontmatter) link to their site's pages and are not checked, nor is a
skill that is not read from a file.

Bad:
    See [the API reference](references/api.md).     (no references/api.md)

Good:
    See [the API reference](references/api.md).     (the file exists)`,
	Run: runBrokenLink,
}

// urlScheme matches a destination that starts with a URL scheme (RFC 3986:
// a letter, then letters, digits, +, - or .) and so names no local file.
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

func runBrokenLink(p *Pass) {
	s := p.Skill
	if len(s.Links) == 0 || s.Frontmatter != nil && s.Frontmatter.Document {
		return
	}
	if st, err := os.Stat(s.Filename); err != nil || st.IsDir() {
		return // no folder to resolve links against
	}
	dir := filepath.Dir(s.Filename)
	for _, l := range s.Links {
		rel, ok := localPath(l.Destination)
		if !ok {
			continue
		}
		target := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Stat(target); err == nil || !os.IsNotExist(err) {
			continue
		}
		what := "link"
		if l.Image {
			what = "image"
		}
		p.Report(compiler.Diagnostic{
			Range:   l.Range,
			Summary: fmt.Sprintf("%s to %q: there is no %s", what, l.Destination, filepath.ToSlash(target)),
			Detail:  "relative links are resolved from the skill file's folder; fix the path or add the file",
		})
	}
}

// localPath returns the file a relative destination names, without its
// #fragment or ?query and with %-escapes decoded, and false for anything
// that names no local file relative to the skill.
func localPath(dest string) (string, bool) {
	switch {
	case dest == "", strings.HasPrefix(dest, "#"), strings.HasPrefix(dest, "/"), strings.HasPrefix(dest, `\`),
		urlScheme.MatchString(dest),
		strings.Contains(dest, "{{"), strings.Contains(dest, "{%"), strings.Contains(dest, "${"):
		return "", false
	}
	if i := strings.IndexAny(dest, "#?"); i >= 0 {
		dest = dest[:i]
	}
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	return dest, dest != ""
}
