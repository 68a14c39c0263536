package lint

import (
	"bytes"

	"github.com/skillc/skillc/compiler"
)

// Options tune a lint run. The zero value lints with the default config.
type Options struct {
	Config *Config
	// MaxSize is passed to the compiler; 0 is its default.
	MaxSize int64
	// MaxBlocks is passed to the compiler; 0 is its default.
	MaxBlocks int
	// Workers bounds how many files are linted at once (catalog.Lint);
	// 0 means runtime.NumCPU().
	Workers int
	// Strict reads FORMAT v1 only (--strict); config infer: false does
	// the same.
	Strict bool
	// NoFixes leaves fixes out of the findings: checking each costs a
	// lint of the fixed text, which a caller that only judges skills
	// (catalog.Load and LoadSet, for compile, plan and serve) need not pay.
	NoFixes bool
}

// CompilerOptions are the compiler's options for a lint run.
func (o Options) CompilerOptions() compiler.Options {
	return compiler.Options{MaxSize: o.MaxSize, MaxBlocks: o.MaxBlocks, Strict: o.Strict || o.Config != nil && o.Config.Strict}
}

// File is one linted file: its bytes, for quoting lines, and its findings
// after configuration and suppressions, sorted by position.
type File struct {
	Path   string
	Source []byte
	Diags  compiler.Diagnostics
	// Unreadable is true when the file could not be read.
	Unreadable bool
}

// Result is a whole run, its files in the order they were read
// (catalog.LintEach: the paths as given, a folder's files by name).
type Result struct {
	Files []*File
}

// Diagnostics returns every finding of the run in file order.
func (r *Result) Diagnostics() compiler.Diagnostics {
	var out compiler.Diagnostics
	for _, f := range r.Files {
		out = append(out, f.Diags...)
	}
	return out
}

// Sources returns a Sources over the run's files, for WriteText.
func (r *Result) Sources() Sources {
	m := make(map[string][]byte, len(r.Files))
	for _, f := range r.Files {
		m[f.Path] = f.Source
	}
	return func(name string) []byte { return m[name] }
}

// Unreadable reports whether any input could not be read.
func (r *Result) Unreadable() bool {
	for _, f := range r.Files {
		if f.Unreadable {
			return true
		}
	}
	return false
}

// Count returns how many findings there are of each severity.
func (r *Result) Count() (errs, warns, infos int) {
	for _, f := range r.Files {
		for _, d := range f.Diags {
			switch d.Severity {
			case compiler.SeverityError:
				errs++
			case compiler.SeverityWarning:
				warns++
			default:
				infos++
			}
		}
	}
	return
}

// LintSource lints one skill's bytes: compile, then Check. The result is
// sorted.
func LintSource(filename string, src []byte, opts Options) compiler.Diagnostics {
	_, diags := lintSkill(filename, src, opts)
	return diags
}

// Check completes a compiled skill's diagnostics: the compiler's (passed in
// as compiled), every enabled rule (the graph rules among them), then configured
// severities and suppressions. `skillc compile` and `skillc graph` call it
// too, so every command judges a skill the same way. The result is sorted.
func Check(sk *compiler.Skill, compiled compiler.Diagnostics, opts Options) compiler.Diagnostics {
	out, _ := check(sk, compiled, opts)
	return out
}

// Judge is Check and Errors of one compiled skill, with graph.Check run
// once where it can be: Errors judges at the runtime's limits, so the
// configured pass's graph analysis is reused when the config's limits are
// those. catalog judges every skill it reads this way.
func Judge(sk *compiler.Skill, compiled compiler.Diagnostics, opts Options) (diags, invalid compiler.Diagnostics) {
	diags, results := check(sk, compiled, opts)
	var shared map[*Analysis]any
	if g, ok := results[GraphAnalysis]; ok && (opts.Config == nil || opts.Config.Limits == defaultConfig.Limits) {
		shared = map[*Analysis]any{GraphAnalysis: g}
	}
	return diags, errorsOf(sk, compiled, shared)
}

// defaultConfig is the config check and Errors judge by when none is
// given: one for every skill, where each made its own, so no rule may
// change its Pass's Config.
var defaultConfig = DefaultConfig()

// check is Check, also returning the analyses its rules computed.
func check(sk *compiler.Skill, compiled compiler.Diagnostics, opts Options) (compiler.Diagnostics, map[*Analysis]any) {
	cfg := opts.Config
	if cfg == nil {
		cfg = defaultConfig
	}
	upstream := compiled

	// When the compiler could not read the text faithfully (too large, not
	// UTF-8), the lint rules would only pile guesses on its error.
	unreliable, cut := false, false
	for _, d := range upstream {
		cut = cut || d.Rule == RuleFileTooLarge.ID
		unreliable = unreliable || cut || d.Rule == RuleInvalidEncoding.ID
	}

	var found compiler.Diagnostics
	pass := &Pass{Skill: sk, Config: cfg, Upstream: upstream, out: &found}
	if !cfg.checkingFix && !opts.NoFixes {
		pass.fixes = newFixCheck(opts)
	}
	for _, r := range Rules {
		if r.Run == nil || cfg.Rules[r.ID] == RuleOff || unreliable && r.Source == "lint" {
			continue
		}
		pass.rule = r
		start := len(found)
		r.Run(pass)
		for i := start; i < len(found); i++ {
			found[i].Severity = effectiveSeverity(cfg, r, found[i].Severity)
		}
	}
	// Anything the compiler or graph reports under an ID the registry does
	// not know yet is passed on as it is, never dropped.
	for _, d := range upstream {
		if Lookup(d.Rule) == nil {
			d.Fixes = nil // no rule of the registry checked them
			found = append(found, d)
		}
	}

	var unknownRules compiler.Diagnostics
	var sups *suppressions
	// Suppressions are HTML comments: looking for "<!--" first, whose
	// '<' is rare in markdown, skips most files at a tenth of the cost of
	// looking for "skillc-disable", whose 's' is everywhere.
	if bytes.Contains(sk.Source, []byte("<!--")) && bytes.Contains(sk.Source, []byte("skillc-disable")) {
		sups = parseSuppressions(sk, pass.Lines(), func(d compiler.Diagnostic) { unknownRules = append(unknownRules, d) })
	}
	if pass.fixes != nil {
		pass.fixes.offer(pass, found, func(d compiler.Diagnostic) bool { return !sups.covers(d) }, unknownRules, !cut)
	}
	out := found[:0]
	for _, d := range found {
		if !sups.covers(d) {
			out = append(out, d)
		}
	}
	out = append(out, unknownRules...)
	out.Sort()
	return out, pass.results
}

// Errors returns what makes a compiled skill no valid plan template: the
// compiler's errors (compiled, as Compile returned them: what it could not
// read), the errors of the spec rules (a frontmatter that breaks the Agent
// Skills specification) and of the graph rules (graph.Check's problems,
// placed in the source, and the IDs and tool names the compiler refused),
// at their default severity and the runtime's limits, whatever a lint
// config later makes of them. `skillc compile`, `skillc plan make --skill`
// and the server's make_plan all refuse on these, so what they refuse lint
// reports as an error. The result is sorted.
func Errors(sk *compiler.Skill, compiled compiler.Diagnostics) compiler.Diagnostics {
	return errorsOf(sk, compiled, nil)
}

// errorsOf is Errors, starting from analyses already computed at the
// default config (results, which may be nil).
func errorsOf(sk *compiler.Skill, compiled compiler.Diagnostics, results map[*Analysis]any) compiler.Diagnostics {
	var out compiler.Diagnostics
	for _, d := range compiled {
		if d.Severity == compiler.SeverityError {
			// Errors judges; it checks no fix, so it offers none.
			d.Fixes = nil
			out = append(out, d)
		}
	}
	if sk == nil {
		return out
	}
	var found compiler.Diagnostics
	// No upstream: the compiler's errors are in out already, and a rule
	// that also forwards some must not add them twice.
	pass := &Pass{Skill: sk, Config: defaultConfig, results: results, out: &found}
	for _, r := range Rules {
		if r.Source != "graph" && r.Source != "spec" {
			continue
		}
		pass.rule = r
		start := len(found)
		r.Run(pass)
		for i := start; i < len(found); i++ {
			if found[i].Severity == 0 {
				found[i].Severity = r.Severity
			}
			if found[i].Severity == compiler.SeverityError {
				out = append(out, found[i])
			}
		}
	}
	out.Sort()
	return out
}

// effectiveSeverity is the configured severity of r, else the one the
// finding came with (compiler and graph findings keep theirs), else the
// rule's default.
func effectiveSeverity(cfg *Config, r *Rule, reported compiler.Severity) compiler.Severity {
	if s, ok := cfg.Rules[r.ID]; ok && s != RuleOff {
		return s
	}
	if reported != 0 {
		return reported
	}
	return r.Severity
}
