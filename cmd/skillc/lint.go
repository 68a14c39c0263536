package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// LintOptions are the flags and arguments of `skillc lint`.
type LintOptions struct {
	IO *IOStreams

	Paths      []string
	Format     string
	FailOn     string
	ConfigPath string
	NoColor    bool
	MaxSize    int64
	// MaxBlocks is --max-blocks: list items, headings and rules per file.
	MaxBlocks int
	// Strict is --strict: read FORMAT v1 only, no version 2 inference.
	Strict bool
	// StdinFilename is --stdin-filename: the path a skill read from stdin
	// (the path "-") is linted as; "" names it <stdin>.
	StdinFilename string
	// Output is -o: the report goes to this file, written atomically.
	Output string
	// Select and Ignore are --select and --ignore (ruff's names): only the
	// selected rules run, the ignored ones never, over what the config says.
	Select []string
	Ignore []string
	// ToolsFrom is --tools-from: an mcpServers JSON file whose servers'
	// tools/list are added to the tool registry.
	ToolsFrom string
	// Fix is --fix: apply the safe fixes, writing each file atomically.
	// UnsafeFixes is --unsafe-fixes: apply the unsafe ones too (it
	// implies --fix). Diff is --diff: print the fixes as a unified diff
	// and write nothing.
	Fix, UnsafeFixes, Diff bool

	// Color is decided from the terminal when the command runs; tests set
	// it directly.
	Color bool
	// WorkDir is where the config is searched from and what SARIF paths
	// are relative to; "" is the process's working directory.
	WorkDir string
}

// stdinName names a skill read from standard input in findings.
const stdinName = "<stdin>"

var lintFormats = []string{"text", "json", "sarif", "github"}

// NewCmdLint builds `skillc lint`.
func NewCmdLint(io *IOStreams, runF func(*LintOptions) error) *cobra.Command {
	opts := &LintOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check workflow skills and report problems",
		Long: `Lint workflow skills: every compiler and graph check plus the lint rules
(skillc rules lists them; skillc explain RULE documents one).

A folder is walked for SKILL.md files, or a skill.md where a folder has no
SKILL.md (skipping .git, node_modules and the config's ignore globs); a file
is linted as given. Only regular files are read, symlinks only when they stay
inside the folder given, at most --max-size bytes each. Without a path, the
current folder is linted. The path - reads one skill from standard input,
named <stdin> in findings, or linted as the path --stdin-filename gives (its
folder names the skill, as a file's does). -o writes the report to a file,
atomically: it is complete or untouched. Configuration comes from .skillc.yaml, found upward
from the working folder, or from --config.

--fix applies the safe fixes (marked [*]), pass after pass until none is
left, and writes each file atomically; --unsafe-fixes applies the unsafe ones
too (a guessed name, a branch read from prose written out). Every fix was
checked first: the file linted with it applied has no new finding and the
same steps. With -, the fixed text goes to standard output and the report to
standard error. --diff prints the fixes as a unified diff and writes nothing.
"fixed N problems" goes to standard error.

Exit status: 0 when no finding is at or above --fail-on, 1 when one is, 2 on
bad usage, a broken config, a path that could not be read, or a folder
named that holds no skill (reported as unreadable). With --diff: 0 when
there is nothing to fix, 1 when there is (as ruff's --diff).`,
		Example: `  # lint every skill under skills/
  skillc lint skills/

  # in CI: annotations on the pull request, fail on warnings too
  skillc lint --format github --fail-on warning skills/

  # SARIF for code scanning
  skillc lint --format sarif -o skillc.sarif skills/

  # from an editor: the buffer on stdin, findings under its real path
  skillc lint --stdin-filename skills/acat/SKILL.md - < buffer.md

  # see what the fixes would change, then apply them
  skillc lint --diff skills/
  skillc lint --fix skills/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if slices.Contains(args, "-") && len(args) > 1 {
				return usageError("- (standard input) must be the only path")
			}
			if opts.StdinFilename != "" && !slices.Contains(args, "-") {
				return usageError("--stdin-filename names the skill read from standard input: give the path -")
			}
			if !slices.Contains(lintFormats, opts.Format) {
				return usageError("unknown format %q: want text, json, sarif or github", opts.Format)
			}
			for _, flag := range []struct {
				name string
				ids  []string
			}{{"--select", opts.Select}, {"--ignore", opts.Ignore}} {
				if err := checkRuleIDs(flag.name, flag.ids); err != nil {
					return err
				}
			}
			if opts.Diff && opts.Format != "text" {
				return usageError("--diff prints a unified diff: it takes no --format")
			}
			if _, err := compiler.ParseSeverity(opts.FailOn); err != nil {
				return usageError("--fail-on: %v", err)
			}
			opts.Color = opts.Output == "" && !opts.NoColor && isTerminal(io.Out) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
			if runF != nil {
				return runF(opts)
			}
			return lintRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Format, "format", "f", "text", "output format: text, json, sarif or github")
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a finding is at or above this severity: error, warning or info")
	f.StringVarP(&opts.ConfigPath, "config", "c", "", "config file (default: .skillc.yaml found upward from the working folder)")
	f.BoolVar(&opts.NoColor, "no-color", false, "never colour the text output")
	f.Int64Var(&opts.MaxSize, "max-size", compiler.DefaultMaxSize, "largest skill file read, in bytes (negative: no limit)")
	f.IntVar(&opts.MaxBlocks, "max-blocks", compiler.DefaultMaxBlocks, maxBlocksHelp)
	f.BoolVar(&opts.Strict, "strict", false, "read FORMAT version 1 only, without version 2's inferences (config: infer: false)")
	f.StringVar(&opts.StdinFilename, "stdin-filename", "", "lint the skill read from standard input (the path -) as this `PATH`")
	f.StringVarP(&opts.Output, "output", "o", "", "write the report to `FILE` instead of stdout")
	f.StringSliceVar(&opts.Select, "select", nil, "run only these `RULES` (comma-separated, repeatable), whatever the config turns off")
	f.StringSliceVar(&opts.Ignore, "ignore", nil, "never run these `RULES` (comma-separated, repeatable); wins over --select")
	f.StringVar(&opts.ToolsFrom, "tools-from", "", "add the tools the MCP servers in `FILE` (the mcpServers JSON hosts use) list to the tool registry unknown-tool checks against; each is started or called once")
	f.BoolVar(&opts.Fix, "fix", false, "apply the safe fixes (marked [*]) to the files")
	f.BoolVar(&opts.UnsafeFixes, "unsafe-fixes", false, "apply the unsafe fixes too (implies --fix, or with --diff shows them)")
	f.BoolVar(&opts.Diff, "diff", false, "print the fixes as a unified diff instead of writing them; exit 1 when there are some")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(lintFormats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warning", "info"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("select", completeRuleList)
	_ = cmd.RegisterFlagCompletionFunc("ignore", completeRuleList)
	return cmd
}

func lintRun(opts *LintOptions) error {
	io := opts.IO
	cfg, err := loadConfig(opts.IO, opts.ConfigPath, lintWorkDir(opts))
	if err != nil {
		return err
	}
	cfg = selectRules(cfg, opts.Select, opts.Ignore)
	if opts.ToolsFrom != "" {
		if cfg, err = toolsFrom(cfg, opts.ToolsFrom); err != nil {
			return err
		}
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
		if opts.WorkDir != "" {
			paths = []string{opts.WorkDir}
		}
	}
	lopts := lint.Options{Config: cfg, MaxSize: opts.MaxSize, MaxBlocks: opts.MaxBlocks, Strict: opts.Strict}
	out := io.Out
	var report bytes.Buffer
	if opts.Output != "" {
		out = &report
	}
	topt := lint.TextOptions{Color: opts.Color, UnsafeFixes: opts.UnsafeFixes}
	stdin := len(paths) == 1 && paths[0] == "-"
	// Only fixes need the files' sources once the run is over. Text and
	// GitHub reports are written a file at a time, as soon as the file is
	// judged, so a long run shows its first findings at once, and each
	// source is let go once its findings are quoted; JSON and SARIF are
	// one document each, written at the end, and quote no source.
	fixing := stdin || opts.Fix || opts.UnsafeFixes || opts.Diff
	streamed := !fixing && (opts.Format == "text" || opts.Format == "github")
	// err is nil here; a streamed report keeps in it the first error
	// writing to out.
	var res *lint.Result
	switch {
	case stdin:
		name := stdinName
		if opts.StdinFilename != "" {
			name = opts.StdinFilename
		}
		res = catalog.LintReader(name, io.In, lopts)
	case !fixing:
		res = &lint.Result{}
		catalog.LintEach(paths, lopts, func(f *lint.File) {
			if streamed && err == nil && len(f.Diags) > 0 {
				err = writeFileReport(out, f, opts.Format, topt)
			}
			f.Source = nil
			res.Files = append(res.Files, f)
		})
	default:
		res = catalog.Lint(paths, lopts)
	}
	if len(res.Files) == 0 {
		// A folder without a skill and a missing path are findings (exit
		// 2); what is left is files the config's ignore globs all exclude,
		// as pre-commit may pass them: no problem, but said.
		fmt.Fprintf(io.ErrOut, "skillc: nothing to lint: the config's ignore globs exclude %s\n", strings.Join(quoteAll(paths), ", "))
	}

	stdinCut := false
	if opts.Fix || opts.UnsafeFixes || opts.Diff {
		fixed, err := applyFixes(opts, res, lopts, stdin)
		if err != nil {
			// The files before the one that failed are fixed, each whole.
			reportFixes(io.ErrOut, fixed, false)
			return err
		}
		if opts.Diff {
			return writeDiff(opts, fixed, res, out, &report)
		}
		if stdin {
			// The fixed text is the output; the report goes beside it. A
			// skill cut at --max-size was not read whole: printing it
			// would hand back part of the buffer, so nothing is printed.
			whole := !res.Unreadable()
			for _, d := range res.Diagnostics() {
				whole = whole && d.Rule != lint.RuleFileTooLarge.ID
			}
			stdinCut = !whole
			if whole {
				if _, err := io.Out.Write(res.Files[0].Source); err != nil {
					return &exitError{code: exitUsage, err: fmt.Errorf("writing the fixed text: %w", err)}
				}
			}
			if opts.Output == "" {
				out = io.ErrOut
				topt.Color = io.ColorErr && !opts.NoColor
			}
		}
		defer reportFixes(io.ErrOut, fixed, false)
	}
	switch {
	case err != nil:
	case opts.Format == "json":
		err = lint.WriteJSON(out, res)
	case opts.Format == "sarif":
		err = lint.WriteSARIF(out, res, lint.SARIFOptions{Version: buildVersion(), BaseDir: lintWorkDir(opts)})
	case opts.Format == "github":
		if !streamed {
			err = lint.WriteGitHub(out, res)
		}
	default:
		if !streamed {
			err = lint.WriteText(out, res.Diagnostics(), res.Sources(), topt)
		}
		if err == nil {
			err = lint.WriteSummary(out, res, topt)
		}
	}
	if err == nil && opts.Output != "" {
		if werr := writeFileAtomic(opts.Output, report.Bytes()); werr != nil {
			return usageError("write %s: %v", opts.Output, werr)
		}
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the report: %w", err)}
	}

	if res.Unreadable() {
		return silentExit(exitUsage)
	}
	if stdinCut {
		return usageError("standard input was not read whole (see the findings), so no fixed text is printed")
	}
	failOn, _ := compiler.ParseSeverity(opts.FailOn)
	for _, d := range res.Diagnostics() {
		if d.Severity >= failOn {
			return silentExit(exitFindings)
		}
	}
	return nil
}

// writeFileReport writes the findings of one file in format (text or
// github), quoting its source: a streamed report's part for f.
func writeFileReport(w io.Writer, f *lint.File, format string, opt lint.TextOptions) error {
	if format == "github" {
		return lint.WriteGitHub(w, &lint.Result{Files: []*lint.File{f}})
	}
	src := func(name string) []byte {
		if name == f.Path {
			return f.Source
		}
		return nil
	}
	return lint.WriteText(w, f.Diags, src, opt)
}

// writeDiff ends a --diff run: the diff goes where the report would (-o
// or stdout), the count to stderr; exit 1 when there is something to fix.
func writeDiff(opts *LintOptions, fixed *fixOutcome, res *lint.Result, out io.Writer, report *bytes.Buffer) error {
	if _, err := out.Write(fixed.diff.Bytes()); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("writing the diff: %w", err)}
	}
	if opts.Output != "" {
		if err := writeFileAtomic(opts.Output, report.Bytes()); err != nil {
			return usageError("write %s: %v", opts.Output, err)
		}
	}
	reportFixes(opts.IO.ErrOut, fixed, true)
	switch {
	case res.Unreadable():
		return silentExit(exitUsage)
	case fixed.fixed > 0:
		return silentExit(exitFindings)
	}
	return nil
}

func lintWorkDir(opts *LintOptions) string {
	if opts.WorkDir != "" {
		return opts.WorkDir
	}
	return "."
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strconv.Quote(v)
	}
	return out
}

// checkRuleIDs refuses a rule list with an ID skillc does not know, or one
// only skillc itself reports (which no config can turn off either).
func checkRuleIDs(flag string, ids []string) error {
	for _, id := range ids {
		r := lint.Lookup(id)
		switch {
		case r == nil && lint.Suggest(id) != "":
			return usageError("%s: unknown rule %q; did you mean %q? (skillc rules lists them)", flag, id, lint.Suggest(id))
		case r == nil:
			return usageError("%s: unknown rule %q (skillc rules lists them)", flag, id)
		case r.Run == nil:
			return usageError("%s: rule %q is reported by skillc itself and cannot be selected or ignored", flag, id)
		}
	}
	return nil
}

// selectRules applies --select and --ignore to a copy of cfg: with a
// selection, every other rule is off and a selected rule the config turned
// off runs at its default severity (the command line is the later word, as
// in ruff); an ignored rule is off, selected or not.
func selectRules(cfg *lint.Config, sel, ignore []string) *lint.Config {
	if len(sel) == 0 && len(ignore) == 0 {
		return cfg
	}
	c := *cfg
	c.Rules = maps.Clone(cfg.Rules)
	if c.Rules == nil {
		c.Rules = map[string]compiler.Severity{}
	}
	if len(sel) > 0 {
		for _, r := range lint.Rules {
			switch {
			case r.Run == nil:
			case !slices.Contains(sel, r.ID):
				c.Rules[r.ID] = lint.RuleOff
			case c.Rules[r.ID] == lint.RuleOff:
				delete(c.Rules, r.ID)
			}
		}
	}
	for _, id := range ignore {
		c.Rules[id] = lint.RuleOff
	}
	return &c
}
