package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/lint"
)

// Catalog is the set of workflow skills a server offers, by name: as
// resources to read and as seeds for make_plan. It is read once, at start:
// a server is restarted to pick up edited skills, like any other
// configuration.
type Catalog struct {
	set *catalog.Set
}

// LoadCatalog loads the shipped workflow skills and those found under dirs
// through the catalog, under the same file policy and config as `skillc
// lint`; see catalog.LoadSet for which skill wins and what is refused.
func LoadCatalog(dirs []string, opts lint.Options) (*Catalog, error) {
	set, err := catalog.LoadSet(dirs, opts)
	if err != nil {
		return nil, err
	}
	return &Catalog{set: set}, nil
}

// Lookup returns the skill called name.
func (c *Catalog) Lookup(name string) (*catalog.Skill, bool) { return c.set.Lookup(name) }

// EmptyDirs lists the --skills folders that held no skill.
func (c *Catalog) EmptyDirs() []string { return c.set.EmptyDirs() }

// Names lists the skills, sorted.
func (c *Catalog) Names() []string { return c.set.Names() }

// seedTemplate returns the template make_plan(skill) copies, or an error a
// model can act on: which skills exist, or why this one cannot seed a plan.
func (c *Catalog) seedTemplate(name string) (*graph.Template, error) {
	sk, ok := c.set.Lookup(name)
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
	if errs := sk.Errors(); len(errs) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "skill %q does not compile, so it cannot seed a plan; make the plan with title and steps instead. Errors:", name)
		for _, d := range errs {
			fmt.Fprintf(&b, "\n%s", d.Error())
		}
		return nil, fmt.Errorf("%s", b.String())
	}
	return sk.Template(), nil
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
