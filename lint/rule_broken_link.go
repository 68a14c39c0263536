package lint

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

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
checked, and neither is a "#part" after the file. A missing file is reported
once, at its first link; links into a missing folder (references/ that was
not copied along) are reported once, as that folder. Documents (see
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
var urlScheme = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`) })

func runBrokenLink(p *Pass) {
	s := p.Skill
	if len(s.Links) == 0 || s.Frontmatter != nil && s.Frontmatter.Document {
		return
	}
	if st, err := os.Stat(s.Filename); err != nil || st.IsDir() {
		return // no folder to resolve links against
	}
	dir := filepath.Dir(s.Filename)
	// One finding per missing file, or per missing folder when the links
	// go into a folder that is not there (references/ not copied along):
	// at its first link, with the count of the others.
	type missing struct {
		first compiler.Link
		path  string
		isDir bool
		links int
	}
	var order []string
	byKey := map[string]*missing{}
	for _, l := range s.Links {
		rel, ok := localPath(l.Destination)
		if !ok {
			continue
		}
		path, isDir, found := firstMissing(dir, rel)
		if !found {
			continue
		}
		if m := byKey[path]; m != nil {
			m.links++
			continue
		}
		byKey[path] = &missing{first: l, path: path, isDir: isDir, links: 1}
		order = append(order, path)
	}
	for _, key := range order {
		m := byKey[key]
		what := "link"
		if m.first.Image {
			what = "image"
		}
		d := compiler.Diagnostic{
			Range:   m.first.Range,
			Summary: fmt.Sprintf("%s to %q: there is no %s", what, m.first.Destination, filepath.ToSlash(m.path)),
			Detail:  "relative links are resolved from the skill file's folder; fix the path or add the file",
		}
		if m.isDir {
			d.Summary = fmt.Sprintf("%s to %q: there is no folder %s", what, m.first.Destination, filepath.ToSlash(m.path))
		}
		if m.links > 1 {
			d.Detail = fmt.Sprintf("%d links go there; the others are not reported. ", m.links) + d.Detail
		}
		p.Report(d)
	}
}

// firstMissing walks rel from dir and returns the first path that does
// not exist, and whether it is a folder on the way rather than the file
// itself; found is false when everything exists (or cannot be told).
func firstMissing(dir, rel string) (path string, isDir, found bool) {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), "/")
	path = dir
	for i, part := range parts {
		path = filepath.Join(path, part)
		if part == ".." || part == "." {
			continue
		}
		if _, err := os.Stat(path); err != nil {
			return path, i < len(parts)-1, os.IsNotExist(err)
		}
	}
	return "", false, false
}

// localPath returns the file a relative destination names, without its
// #fragment or ?query and with %-escapes decoded, and false for anything
// that names no local file relative to the skill.
func localPath(dest string) (string, bool) {
	switch {
	case dest == "", strings.HasPrefix(dest, "#"), strings.HasPrefix(dest, "/"), strings.HasPrefix(dest, `\`),
		urlScheme().MatchString(dest),
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
