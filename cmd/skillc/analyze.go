package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/lint"
)

// checkedSkill is a compiled skill with every diagnostic `skillc lint` would
// report on it.
type checkedSkill struct {
	Path  string
	Skill *compiler.Skill
	// Diags are the findings as configured: what was printed.
	Diags compiler.Diagnostics
	// Invalid are the compiler's and the graph's errors as they found them,
	// whatever the config says: a skill with any is no valid template, and a
	// config that turns the rule off or down cannot make it one.
	Invalid compiler.Diagnostics
}

// loadSkill reads one skill for `skillc compile` and `skillc graph`: FILE,
// or FILE/SKILL.md for a folder. It compiles it, completes its diagnostics
// with the same checks and configuration as `skillc lint` (so a tool missing
// from allowed-tools stops a template as it fails a lint run), and prints
// them to stderr. An unreadable file or a broken config is a usage error.
// strict is --strict: FORMAT v1 only, as config infer: false.
func loadSkill(io *IOStreams, file, configPath string, maxSize int64, strict bool) (*checkedSkill, error) {
	cfg, err := loadConfig(io, configPath, ".")
	if err != nil {
		return nil, err
	}
	path := file
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "SKILL.md")
	}
	lopts := lint.Options{Config: cfg, MaxSize: maxSize, Strict: strict}
	s, diags, err := compiler.CompileFile(path, compiler.Options{MaxSize: maxSize, Strict: strict || cfg.Strict})
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, usageError("no such file %q", path)
		}
		return nil, usageError("cannot read %s: %v", path, err)
	}
	invalid := graph.Errors(s, diags)
	diags = lint.Check(s, diags, lopts)
	sources := func(name string) []byte {
		if name == s.Filename {
			return s.Source
		}
		return nil
	}
	if err := lint.WriteText(io.ErrOut, diags, sources, lint.TextOptions{Color: io.ColorErr}); err != nil {
		return nil, err
	}
	return &checkedSkill{Path: path, Skill: s, Diags: diags, Invalid: invalid}, nil
}

// loadConfig reads the lint configuration: configPath, else .skillc.yaml
// found upward from workDir, else the defaults. A config with problems stops
// the run (exit 2) after printing them like any diagnostics.
func loadConfig(io *IOStreams, configPath, workDir string) (*lint.Config, error) {
	path := configPath
	if path == "" {
		found, err := lint.FindConfig(workDir)
		if err != nil {
			return nil, usageError("looking for %s: %v", lint.ConfigFileNames[0], err)
		}
		if found == "" {
			return lint.DefaultConfig(), nil
		}
		path = found
	}
	cfg, diags, err := lint.LoadConfig(path)
	if err != nil {
		return nil, usageError("cannot read config %q: %v", path, err)
	}
	if len(diags) > 0 {
		src, _ := os.ReadFile(path)
		_ = lint.WriteText(io.ErrOut, diags, func(string) []byte { return src }, lint.TextOptions{Color: io.ColorErr})
		return nil, usageError("config %q has %s; fix it or pass another with --config", path, plural(len(diags), "problem", "problems"))
	}
	return cfg, nil
}

// refuse reports why no template or drawing can be made from c, or "".
func (c *checkedSkill) refuse(what string) string {
	switch {
	case c.Diags.HasErrors():
		return fmt.Sprintf("%s: no %s written: fix the errors above first", c.Path, what)
	case len(c.Invalid) > 0:
		d := c.Invalid[0]
		return fmt.Sprintf("%s: no %s written: %s: %s [%s] (the config turned this rule down, but it still makes the skill invalid)",
			c.Path, what, d.Range, d.Summary, d.Rule)
	case len(c.Skill.Steps) == 0:
		return fmt.Sprintf("%s: no %s written: the skill has no steps (write them as a numbered list or as \"## Step 1: ...\" headings)", c.Path, what)
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
