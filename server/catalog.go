package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/skills"
)

// Skill is one workflow skill the server offers: as a resource to read and
// as a seed for make_plan.
type Skill struct {
	Name        string
	Title       string
	Description string
	// File is the path on disk, or "skills/<name>/SKILL.md" for a shipped one.
	File   string
	Source []byte
	// Template is the compiled plan template; nil when the skill has
	// compile errors (Errors says which).
	Template *graph.Template
	Errors   compiler.Diagnostics
}

// Catalog is the set of workflow skills a server offers, by name. It is read
// once, at start: a server is restarted to pick up edited skills, like any
// other configuration.
type Catalog struct {
	byName map[string]*Skill
}

// LoadCatalog compiles the shipped workflow skills and every SKILL.md found
// under dirs. A skill in dirs overrides a shipped one of the same name (as
// skills.Find does), so a team can replace one; two skills of one name in
// dirs are an error, since which one make_plan would seed is then a guess.
func LoadCatalog(dirs []string) (*Catalog, error) {
	c := &Catalog{byName: map[string]*Skill{}}
	for _, name := range skills.Workflows() {
		src, file, err := skills.Read(name)
		if err != nil {
			return nil, fmt.Errorf("read shipped skill %q: %w", name, err)
		}
		c.byName[name] = compileSkill("skills/"+file, src, name)
	}
	fromDirs := map[string]string{}
	for _, dir := range dirs {
		files, err := findSkillFiles(dir)
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				return nil, fmt.Errorf("read skill: %w", err)
			}
			sk := compileSkill(file, src, filepath.Base(filepath.Dir(file)))
			if prev, ok := fromDirs[sk.Name]; ok {
				return nil, fmt.Errorf("two skills named %q: %s and %s; rename one (the name is the frontmatter name, or the folder name)", sk.Name, prev, file)
			}
			fromDirs[sk.Name] = file
			c.byName[sk.Name] = sk
		}
	}
	return c, nil
}

// findSkillFiles walks dir for SKILL.md files, sorted so the catalog is the
// same on every start. Hidden folders and node_modules are skipped: they
// hold tooling, not skills.
func findSkillFiles(dir string) ([]string, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("skills folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("skills folder %q is not a directory", dir)
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "SKILL.md" {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk skills folder: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// compileSkill compiles one SKILL.md; it never fails, because a skill with
// errors is still worth reading (its resource), just not seeding a plan.
func compileSkill(file string, src []byte, folder string) (out *Skill) {
	out = &Skill{Name: folder, File: file, Source: src}
	// The compiler promises never to panic; should it break that promise on
	// one skill, the server still starts and serves the others.
	defer func() {
		if r := recover(); r != nil {
			out.Template = nil
			out.Errors = append(out.Errors, compiler.Diagnostic{
				Severity: compiler.SeverityError, Rule: "internal-error",
				Summary: fmt.Sprintf("the compiler failed on this skill: %v", r),
				Range:   compiler.Range{Filename: file, Start: compiler.Pos{Line: 1, Column: 1}},
			})
		}
	}()
	sk, diags := compiler.Compile(file, src, compiler.Options{})
	// A skill whose graph loops or strands steps would seed a plan that
	// cannot be followed: refuse it as `skillc compile` does.
	out.Errors = lint.Errors(sk, diags)
	if sk != nil {
		if sk.Name != "" {
			out.Name = sk.Name
		}
		out.Title = sk.Title
		out.Description = sk.Description
	}
	if sk != nil && len(out.Errors) == 0 {
		if len(sk.Steps) == 0 {
			// An instruction-style skill compiles (with a warning) but has
			// nothing to seed a plan with.
			out.Errors = append(out.Errors, compiler.Diagnostic{
				Severity: compiler.SeverityError, Rule: "no-steps",
				Summary: fmt.Sprintf("skill %q has no numbered steps to seed a plan with", out.Name),
				Range:   compiler.Range{Filename: file, Start: compiler.Pos{Line: 1, Column: 1}},
			})
		} else {
			out.Template = sk.Template()
		}
	}
	return out
}

// Lookup returns the skill called name.
func (c *Catalog) Lookup(name string) (*Skill, bool) {
	sk, ok := c.byName[name]
	return sk, ok
}

// Names lists the skills, sorted.
func (c *Catalog) Names() []string {
	out := make([]string, 0, len(c.byName))
	for n := range c.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// seedTemplate returns the template make_plan(skill) copies, or an error a
// model can act on: which skills exist, or why this one cannot seed a plan.
func (c *Catalog) seedTemplate(name string) (*graph.Template, error) {
	sk, ok := c.byName[name]
	if !ok {
		if len(name) > 64 {
			name = strings.ToValidUTF8(name[:64], "") + "..." // a name is at most 64 characters: no need to echo more
		}
		names := c.Names()
		if len(names) == 0 {
			return nil, fmt.Errorf("no workflow skill named %q: this server offers none; make the plan with title and steps instead", name)
		}
		return nil, fmt.Errorf("no workflow skill named %q; the skills are: %s (or make the plan with title and steps instead)", name, strings.Join(names, ", "))
	}
	if sk.Template == nil {
		var b strings.Builder
		fmt.Fprintf(&b, "skill %q does not compile, so it cannot seed a plan; make the plan with title and steps instead. Errors:", name)
		for _, d := range sk.Errors {
			fmt.Fprintf(&b, "\n%s", d.Error())
		}
		return nil, fmt.Errorf("%s", b.String())
	}
	return sk.Template, nil
}

// templateJSON is the skill's plan template as indented JSON, the shape
// `skillc compile` prints.
func templateJSON(t *graph.Template) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
