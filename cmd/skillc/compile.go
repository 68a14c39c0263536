package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/lint"
)

// CompileOptions are the flags and arguments of `skillc compile`.
type CompileOptions struct {
	IO      *IOStreams
	File    string
	Format  string
	Output  string
	MaxSize int64
	// MaxBlocks is --max-blocks: list items, headings and rules.
	MaxBlocks int
	// ConfigPath is --config; empty means .skillc.yaml found upward.
	ConfigPath string
	// Strict is --strict: read FORMAT v1 only, no version 2 inference.
	Strict bool
}

var compileFormats = []string{"json", "yaml"}

// NewCmdCompile builds `skillc compile`.
func NewCmdCompile(ios *IOStreams, runF func(*CompileOptions) error) *cobra.Command {
	opts := &CompileOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "compile FILE",
		Short: "Compile a workflow skill into a plan template",
		Long: `Compile one workflow skill into its plan template: the skill's steps in
written order, each with its goal, recommended tools, and the two edges
next_on_success and next_on_failure. The template is what make_plan accepts,
so it can seed an agent's plan unchanged. Its JSON Schema is printed by
` + "`skillc schema template`" + `.

FILE is a markdown file, or a folder holding a SKILL.md. Diagnostics go to
stderr as file:line:col: severity: message [rule]. When there are errors, or
no steps at all, nothing is written and the exit code is 1; a file that
cannot be read exits with 2. -o writes the file atomically: it is complete
or untouched.`,
		Example: `  # JSON on stdout
  skillc compile skills/acat-reimbursement/SKILL.md

  # YAML, to a file
  skillc compile --format yaml -o acat.yaml skills/acat-reimbursement

  # A write-up larger than 10 MiB
  skillc compile --max-size 50000000 big/SKILL.md`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if runF != nil {
				return runF(opts)
			}
			return compileRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "json", "output format: "+strings.Join(compileFormats, ", "))
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the template to `FILE` instead of stdout")
	cmd.Flags().StringVarP(&opts.ConfigPath, "config", "c", "", "lint config `FILE` (default: .skillc.yaml found upward from the working folder)")
	cmd.Flags().Int64Var(&opts.MaxSize, "max-size", compiler.DefaultMaxSize, "largest file accepted, in `bytes` (-1: no limit)")
	cmd.Flags().IntVar(&opts.MaxBlocks, "max-blocks", compiler.DefaultMaxBlocks, maxBlocksHelp)
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "read FORMAT version 1 only, without version 2's inferences (config: infer: false)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(compileFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func compileRun(opts *CompileOptions) error {
	if opts.Format != "json" && opts.Format != "yaml" {
		return usageError("unknown format %q: want %s", opts.Format, strings.Join(compileFormats, " or "))
	}
	if opts.MaxSize == 0 || opts.MaxSize < -1 {
		return usageError("--max-size must be a positive number of bytes, or -1 for no limit; got %d", opts.MaxSize)
	}
	if opts.MaxBlocks < -1 {
		return usageError("--max-blocks must be a positive number, or -1 for no limit; got %d", opts.MaxBlocks)
	}
	c, err := loadSkillWith(opts.IO, opts.File, opts.ConfigPath, lint.Options{MaxSize: opts.MaxSize, MaxBlocks: opts.MaxBlocks, Strict: opts.Strict})
	if err != nil {
		return err
	}
	if why := refuse(c, "template"); why != "" {
		fmt.Fprintf(opts.IO.ErrOut, "skillc: %s\n", why)
		return silentExit(exitFindings)
	}
	out, err := encodeTemplate(c.Template(), opts.Format)
	if err != nil {
		return err
	}
	return writeOutput(opts.IO, opts.Output, out)
}

// encodeTemplate prints a template as JSON (two-space indent) or YAML, each
// ending in a newline.
func encodeTemplate(t *graph.Template, format string) ([]byte, error) {
	var b bytes.Buffer
	if format == "yaml" {
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(t); err != nil {
			return nil, err
		}
		if err := enc.Close(); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
