package catalog

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// The file a skill folder holds. A folder without a SKILL.md but with a
// lowercase skill.md is read from that, as the reference validator
// (skills-ref) does; SKILL.md wins when both exist.
const (
	FileName      = "SKILL.md"
	LowerFileName = "skill.md"
)

// skippedDirs are never walked into: they hold tooling, not skills.
var skippedDirs = map[string]bool{".git": true, "node_modules": true}

// file is a skill file to read, with the folder its symlinks must stay in.
// regular is true when the walk that found it saw a regular file: its
// entry's type is what readSkill's Lstat would say, so it is not asked
// again (one system call of the four a file took).
type file struct {
	path, root string
	regular    bool
}

// skillFileIn returns the skill file of the folder dir: SKILL.md, else
// skill.md. Any entry of that name counts, whatever its type, so a FIFO
// named SKILL.md is found here and refused by readSkill with a reason.
func skillFileIn(dir string) (string, bool) {
	for _, name := range []string{FileName, LowerFileName} {
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			// On a case-insensitive file system both names find the same
			// file; the name as it is spelt on disk is what it is called.
			return p, true
		}
	}
	return "", false
}

// emptyDir is a folder named to find that holds no skill file to read:
// none at all, or none outside the config's ignore globs, which excluded
// ignored of its skill files and folders.
type emptyDir struct {
	path    string
	ignored int
}

// find turns paths into the skill files to read, sorted and without
// duplicates. A folder is walked for SKILL.md (or skill.md) files, skipping
// .git, node_modules and the config's ignore globs, without following
// symlinked folders; a file is taken as given, whatever its name, unless an
// ignore glob matches it. A path that cannot be walked is a problem, and
// the rest go on. A folder walked without a problem that yields no skill
// file is listed in empty: what that means is the caller's to say.
func find(paths []string, cfg *lint.Config) (files []file, problems compiler.Diagnostics, empty []emptyDir) {
	walk(paths, cfg, walker{
		file:    func(f file) { files = append(files, f) },
		problem: func(d compiler.Diagnostic) { problems = append(problems, d) },
		empty:   func(e emptyDir) { empty = append(empty, e) },
	})
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	return files, problems, empty
}

// walker is told what walk meets, in the order it meets it, on the
// walking goroutine.
type walker struct {
	file    func(file)
	problem func(compiler.Diagnostic)
	empty   func(emptyDir)
}

// walk is find without the sorting: it tells w of each skill file (once),
// each path it cannot walk and each folder that yields no skill file as it
// meets them: in the order of paths, and in a folder in the order of
// filepath.WalkDir (by name, a subfolder's files where its name sorts), so
// the order is the same on every run.
func walk(paths []string, cfg *lint.Config, w walker) {
	seen := map[string]bool{}
	// add reports whether p is a skill file to read, whether it was
	// already listed or not: false only when an ignore glob excludes it.
	add := func(p, root string, regular bool) bool {
		if ignored(cfg, p) {
			return false
		}
		if !seen[p] {
			seen[p] = true
			w.file(file{path: p, root: root, regular: regular})
		}
		return true
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			w.problem(unreadable(root, err))
			continue
		}
		if !st.IsDir() {
			add(root, filepath.Dir(root), false)
			continue
		}
		// WalkDir visits a folder's entries in lexical order, where
		// "SKILL.md" sorts before "skill.md": a folder that has both
		// yields SKILL.md only.
		hasUpper := map[string]bool{}
		problems := 0
		kept, excluded := 0, 0
		count := func(ok bool) {
			if ok {
				kept++
			} else {
				excluded++
			}
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				problems++
				w.problem(unreadable(p, err))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != root && skippedDirs[d.Name()] {
					return fs.SkipDir
				}
				if p != root && ignored(cfg, p) {
					excluded++
					return fs.SkipDir
				}
				return nil
			}
			switch d.Name() {
			case FileName:
				hasUpper[filepath.Dir(p)] = true
				count(add(p, root, d.Type().IsRegular()))
			case LowerFileName:
				if !hasUpper[filepath.Dir(p)] {
					count(add(p, root, d.Type().IsRegular()))
				}
			}
			return nil
		})
		if err != nil {
			problems++
			w.problem(unreadable(root, err))
		}
		if kept == 0 && problems == 0 {
			w.empty(emptyDir{path: root, ignored: excluded})
		}
	}
}

// noSkillHint says what a skill is and how to start one: the end of every
// message about a path that holds no skill.
var noSkillHint = fmt.Sprintf("a skill is a folder holding a %s (or %s), or a markdown file named on the command line; to start one: skillc init NAME", FileName, LowerFileName)

// noSkill is the finding for a folder named on the command line that holds
// no skill: reported as unreadable (nothing in it could be read as a
// skill), so the run exits with status 2, as for a path that is not there.
func noSkill(e emptyDir) compiler.Diagnostic {
	summary := "no skill in this folder: " + noSkillHint
	if e.ignored > 0 {
		summary = fmt.Sprintf("no skill in this folder outside the config's ignore globs, which exclude %d path(s) in it (a named file they match is skipped too): change the config's ignore list to lint them", e.ignored)
	}
	return compiler.Diagnostic{
		Severity: compiler.SeverityError,
		Rule:     lint.RuleUnreadable.ID,
		Summary:  summary,
		File:     e.path,
	}
}

// unreadable is the finding for a path that could not be read: reported
// like any other, so a run over many skills goes on past it. Its range
// names the path, which every output format prints, so the summary does
// not repeat it.
func unreadable(p string, err error) compiler.Diagnostic {
	return compiler.Diagnostic{
		Severity: compiler.SeverityError,
		Rule:     lint.RuleUnreadable.ID,
		Summary:  fmt.Sprintf("cannot be read: %v", unwrapPath(err)),
		File:     p,
	}
}

// ignored reports whether an ignore glob of the config matches p. Globs
// are relative to the config file's folder; a glob without a slash matches
// a name at any depth, as in .gitignore; a glob also matches every file
// under a folder it matches.
func ignored(cfg *lint.Config, p string) bool {
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
