package lint

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// SkillFileName is the file a folder argument is searched for.
const SkillFileName = "SKILL.md"

// skippedDirs are never walked into.
var skippedDirs = map[string]bool{".git": true, "node_modules": true}

// Expand turns command-line paths into the files to lint, sorted and
// without duplicates. A folder is walked for SKILL.md files, skipping .git,
// node_modules and the config's ignore globs; a file is linted as given,
// whatever its name, unless an ignore glob matches it. Paths that cannot be
// read come back as unreadable findings.
func Expand(paths []string, cfg *Config) ([]string, compiler.Diagnostics) {
	seen := map[string]bool{}
	var files []string
	var problems compiler.Diagnostics
	add := func(p string) {
		if !seen[p] && !ignored(cfg, p) {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			problems = append(problems, unreadable(root, err))
			continue
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				problems = append(problems, unreadable(p, err))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != root && (skippedDirs[d.Name()] || ignored(cfg, p)) {
					return fs.SkipDir
				}
				return nil
			}
			if d.Name() == SkillFileName {
				add(p)
			}
			return nil
		})
		if err != nil {
			problems = append(problems, unreadable(root, err))
		}
	}
	sort.Strings(files)
	return files, problems
}

// ignored reports whether an ignore glob of the config matches p. Globs
// are relative to the config file's folder; a glob without a slash matches
// a name at any depth, as in .gitignore; a glob also matches every file
// under a folder it matches.
func ignored(cfg *Config, p string) bool {
	if cfg == nil || len(cfg.Ignore) == 0 {
		return false
	}
	rel := p
	if abs, err := filepath.Abs(p); err == nil {
		if dir, err := filepath.Abs(cfg.Dir()); err == nil {
			if r, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
		}
	}
	rel = filepath.ToSlash(rel)
	for _, g := range cfg.Ignore {
		g = strings.TrimSuffix(g, "/")
		if !strings.Contains(g, "/") {
			g = "**/" + g // as in .gitignore: a bare name matches at any depth
		}
		if matchGlob(g, rel) {
			return true
		}
	}
	return false
}

// matchGlob matches slash-separated name against pattern, where `**`
// matches any number of path segments and other segments follow
// path.Match. A pattern also matches anything under what it matches.
// Hand-written: path.Match has no `**`, and no dependency in go.mod offers
// one.
func matchGlob(pattern, name string) bool {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			pat = pat[1:]
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return true // the pattern matched a folder: everything under it too
}
