package catalog

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/skills"
)

// Set is the workflow skills offered by name, to `skillc serve` and to
// `skillc plan make --skill NAME`: the shipped ones, and every skill found
// under the --skills folders, which overrides a shipped one of the same
// name so a team can replace it.
type Set struct {
	byName map[string]*Skill
	empty  []string
}

// EmptyDirs lists the folders given to LoadSet in which no skill was
// found: worth a warning, since a typo'd path otherwise only shows as a
// skill that is not there.
func (s *Set) EmptyDirs() []string {
	if s == nil {
		return nil
	}
	return s.empty
}

// LoadSet reads the shipped workflow skills and walks dirs for skills,
// with the rules of Lint's walk, and judges each under opts. Two skills of
// one name in dirs are an error, since which one would seed a plan is then
// a guess; so is any skill file that cannot be read (the error lists them
// as lint would), since a catalog that silently lacks one misleads.
func LoadSet(dirs []string, opts lint.Options) (*Set, error) {
	// The server judges skills; fixes are the linter's and the editor's.
	opts.NoFixes = true
	s := &Set{byName: map[string]*Skill{}}
	for _, name := range skills.Workflows() {
		src, file, err := skills.Read(name)
		if err != nil {
			return nil, fmt.Errorf("read shipped skill %q: %w", name, err)
		}
		s.byName[name] = judge("skills/"+file, src, opts, false)
	}
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("skills folder: %v", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("skills folder %q is not a folder: --skills names a folder of <name>/SKILL.md skills", dir)
		}
	}
	var files []file
	var problems compiler.Diagnostics
	for _, dir := range dirs {
		found, probs, _ := find([]string{dir}, opts.Config)
		if len(found) == 0 && len(probs) == 0 {
			s.empty = append(s.empty, dir)
		}
		files, problems = append(files, found...), append(problems, probs...)
	}
	loaded := make([]*Skill, len(files))
	unread := make([]*compiler.Diagnostic, len(files))
	loadEach(each(files), opts, false, func(i int, sk *Skill, problem *compiler.Diagnostic) { loaded[i], unread[i] = sk, problem })
	fromDirs := map[string]string{}
	for i, sk := range loaded {
		if unread[i] != nil {
			problems = append(problems, *unread[i])
			continue
		}
		if prev, ok := fromDirs[sk.Name]; ok {
			return nil, fmt.Errorf("two skills named %q: %s and %s; rename one (the name is the frontmatter name, or the folder name)", sk.Name, prev, sk.File)
		}
		fromDirs[sk.Name] = sk.File
		s.byName[sk.Name] = sk
	}
	if len(problems) > 0 {
		return nil, &ReadError{Problems: problems}
	}
	return s, nil
}

// ReadError is skill files that could not be read, as lint reports them.
type ReadError struct {
	Problems compiler.Diagnostics
}

func (e *ReadError) Error() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d skill file(s) could not be read:\n", len(e.Problems))
	_ = lint.WriteText(&b, e.Problems, nil, lint.TextOptions{})
	return strings.TrimSuffix(b.String(), "\n")
}

// Lookup returns the skill called name.
func (s *Set) Lookup(name string) (*Skill, bool) {
	if s == nil {
		return nil, false
	}
	sk, ok := s.byName[name]
	return sk, ok
}

// Names lists the skills, sorted.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.byName))
	for n := range s.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
