package main

import (
	"fmt"
	"os"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// loadSkill reads one skill for `skillc compile`, `skillc graph` and
// `skillc plan make --skill FILE`: FILE, or a folder's SKILL.md (else
// skill.md), through the catalog, so every command reads it under the same
// file policy and judges it with the same checks and configuration as
// `skillc lint` (a tool missing from allowed-tools stops a template as it
// fails a lint run). It prints the findings to stderr. An unreadable file
// or a broken config is a usage error. strict is --strict: FORMAT v1 only,
// as config infer: false.
func loadSkill(io *IOStreams, file, configPath string, maxSize int64, strict bool) (*catalog.Skill, error) {
	return loadSkillWith(io, file, configPath, lint.Options{MaxSize: maxSize, Strict: strict})
}

// loadSkillWith is loadSkill with every lint option; opts.Config is read
// from configPath.
func loadSkillWith(io *IOStreams, file, configPath string, opts lint.Options) (*catalog.Skill, error) {
	cfg, err := loadConfig(io, configPath, ".")
	if err != nil {
		return nil, err
	}
	opts.Config = cfg
	c, err := catalog.Load(file, opts)
	if err != nil {
		return nil, usageError("%v", err)
	}
	if err := writeFindings(io, c.Skill, c.Diags); err != nil {
		return nil, err
	}
	return c, nil
}

// writeFindings prints diags of s to stderr, quoting its lines.
func writeFindings(io *IOStreams, s *compiler.Skill, diags compiler.Diagnostics) error {
	sources := func(name string) []byte {
		if name == s.Filename {
			return s.Source
		}
		return nil
	}
	return lint.WriteText(io.ErrOut, diags, sources, lint.TextOptions{Color: io.ColorErr})
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
// Which skills are refused is catalog.Skill.Errors; this says it for a
// person who has just read the findings above.
func refuse(c *catalog.Skill, what string) string {
	errs := c.Errors()
	switch {
	case len(errs) == 0:
		return ""
	case c.Diags.HasErrors():
		return fmt.Sprintf("%s: no %s written: fix the errors above first", c.File, what)
	case len(c.Invalid) > 0:
		d := c.Invalid[0]
		return fmt.Sprintf("%s: no %s written: %s: %s [%s] (the config turned this rule down, but it still makes the skill invalid)",
			c.File, what, d.Location(), d.Summary, d.Rule)
	}
	return fmt.Sprintf("%s: no %s written: the skill has no steps (write them as a numbered list or as \"## Step 1: ...\" headings)", c.File, what)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// maxBlocksHelp is the help of --max-blocks, on lint and compile.
var maxBlocksHelp = fmt.Sprintf("most list items, headings and rules read from one file; %d times it bounds inline markup characters (-1: no limit)", compiler.InlinePerBlock)
