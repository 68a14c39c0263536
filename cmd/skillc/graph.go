package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/graph/render/drawcmd"
)

// GraphOptions are the flags and arguments of `skillc graph`.
type GraphOptions struct {
	IO     *IOStreams
	Ctx    context.Context
	File   string
	Format string
	Output string
	// Scale is --scale: a PNG's size, times Graphviz's own (96 dpi).
	Scale float64
	// MaxSize is --max-size: the largest file read, in bytes; -1 no limit.
	MaxSize int64
	// ConfigPath is --config; empty means .skillc.yaml found upward.
	ConfigPath string
	// Strict is --strict: read FORMAT v1 only, no version 2 inference.
	Strict bool
	// OutIsTerminal reports whether IO.Out is a terminal, where a PNG or
	// SVG would be noise; tests replace it.
	OutIsTerminal func() bool
}

var graphFormats = []string{"dot", "mermaid", "svg", "png"}

// NewCmdGraph builds `skillc graph`.
func NewCmdGraph(ios *IOStreams, runF func(*GraphOptions) error) *cobra.Command {
	opts := &GraphOptions{IO: ios, OutIsTerminal: func() bool { return isTerminal(ios.Out) }}
	cmd := &cobra.Command{
		Use:   "graph FILE",
		Short: "Draw a skill's step graph as DOT, Mermaid, SVG or PNG",
		Long: `Draw the step graph of one workflow skill: every step with its ID, goal and
recommended tools; success edges solid, failure edges dashed red, labelled
with the author's LABEL or key word; end and fail as terminals; a dot points
at the entry.

FILE is a markdown file, or a folder holding a SKILL.md. Diagnostics go to
stderr as ` + "`skillc compile`" + ` prints them. The graph is drawn even when the skill
has errors, so a loop or an unreachable step can be seen, and the exit code
is then 1; a skill without steps or with edges to unknown steps is not
drawn.

SVG and PNG are drawn by the skillc-draw program (Graphviz compiled to
WebAssembly, nothing else to install), found beside skillc or on $PATH:
install both with ` + "`go install github.com/skillc/skillc/cmd/...@latest`" + `. It is
a program of its own so that the other commands do not pay Graphviz's
start-up. A PNG is --scale times the size of Graphviz's own dot -Tpng (96
dpi): 2 by default, sharp on today's screens. Pictures go to stdout only when it is not a terminal, else name a
file with -o. -o writes the file atomically: it is complete or untouched.

A file larger than --max-size is not read: the file-too-large finding, and
exit 1, as ` + "`skillc compile`" + ` does.`,
		Example: `  # DOT on stdout, for Graphviz or a DOT viewer
  skillc graph skills/acat-reimbursement/SKILL.md

  # Mermaid, to paste into a README or an issue
  skillc graph --format mermaid skills/acat-reimbursement

  # A picture
  skillc graph --format png -o acat.png skills/acat-reimbursement/SKILL.md
  skillc graph --format png --scale 1 -o small.png skills/acat-reimbursement
  skillc graph --format svg skills/acat-reimbursement > acat.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			opts.Ctx = cmd.Context()
			if err := checkScaleFlag(cmd, opts.Scale); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return graphRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "dot", "output format: "+strings.Join(graphFormats, ", "))
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `FILE` instead of stdout")
	addScaleFlag(cmd, &opts.Scale)
	cmd.Flags().Int64Var(&opts.MaxSize, "max-size", compiler.DefaultMaxSize, "largest file accepted, in `bytes` (-1: no limit)")
	cmd.Flags().StringVarP(&opts.ConfigPath, "config", "c", "", "lint config `FILE` (default: .skillc.yaml found upward from the working folder)")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "read FORMAT version 1 only, without version 2's inferences (config: infer: false)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(graphFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func graphRun(opts *GraphOptions) error {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	switch opts.Format {
	case "dot", "mermaid":
	case "svg", "png":
		if opts.Output == "" && opts.OutIsTerminal != nil && opts.OutIsTerminal() {
			return usageError("will not write %s to a terminal: name a file with -o, or redirect stdout", opts.Format)
		}
	default:
		return usageError("unknown format %q: want %s", opts.Format, strings.Join(graphFormats, ", "))
	}
	if opts.Scale == 0 {
		opts.Scale = drawcmd.DefaultScale
	}
	if err := checkScale(opts.Scale); err != nil {
		return err
	}
	if opts.MaxSize == 0 || opts.MaxSize < -1 {
		return usageError("--max-size must be a positive number of bytes, or -1 for no limit; got %d", opts.MaxSize)
	}

	// The same diagnostics `skillc compile` and `skillc lint` print.
	c, err := loadSkill(opts.IO, opts.File, opts.ConfigPath, opts.MaxSize, opts.Strict)
	if err != nil {
		return err
	}
	s, diags, path := c.Skill, c.Diags, c.File
	g, gerr := graph.New(s.Template())

	// Without steps there is nothing to draw; with a duplicate ID or an
	// edge to an unknown step, a drawing would show a graph the author did
	// not write. The diagnostics above say why.
	if len(s.Steps) == 0 && diags.HasErrors() {
		// A file over --max-size, or one that could not be read as a
		// skill: no steps because of an error printed above.
		fmt.Fprintf(opts.IO.ErrOut, "skillc: %s: no graph drawn: fix the errors above first\n", path)
		return silentExit(exitFindings)
	}
	if len(s.Steps) == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "skillc: %s: no graph drawn: the skill has no steps (write them as a numbered list or as \"## Step 1: ...\" headings)\n", path)
		return silentExit(exitFindings)
	}
	if gerr != nil || graphHasRule(c.Invalid, "unknown-target") {
		fmt.Fprintf(opts.IO.ErrOut, "skillc: %s: no graph drawn: fix the errors above first\n", path)
		return silentExit(exitFindings)
	}

	var out bytes.Buffer
	switch opts.Format {
	case "dot":
		out.Write(g.DOT())
	case "mermaid":
		out.Write(g.Mermaid())
	case "svg", "png":
		if n := len(s.Steps); n > drawcmd.MaxSteps {
			return usageError("%s: %d steps are too many to draw as %s (at most %d): use --format dot or mermaid", path, n, opts.Format, drawcmd.MaxSteps)
		}
		pic, err := drawcmd.DrawScaled(ctx, g.DOT(), opts.Format, opts.Scale)
		if err != nil {
			return usageError("%s: cannot draw the %s: %v", path, opts.Format, err)
		}
		out.Write(pic)
	}

	if err := writeOutput(opts.IO, opts.Output, out.Bytes()); err != nil {
		return err
	}
	if diags.HasErrors() {
		return silentExit(exitFindings)
	}
	return nil
}

// addScaleFlag adds --scale, a PNG's size, to a command that draws.
func addScaleFlag(cmd *cobra.Command, scale *float64) {
	cmd.Flags().Float64Var(scale, "scale", drawcmd.DefaultScale, fmt.Sprintf("PNG size, times Graphviz's own dot -Tpng (96 dpi); %g to %g", drawcmd.MinScale, drawcmd.MaxScale))
}

// checkScaleFlag refuses a --scale given out of range, 0 too (which the
// options read as the default).
func checkScaleFlag(cmd *cobra.Command, scale float64) error {
	if !cmd.Flags().Changed("scale") {
		return nil
	}
	return checkScale(scale)
}

// checkScale refuses a --scale out of range, as a usage error.
func checkScale(scale float64) error {
	if err := drawcmd.CheckScale(scale); err != nil {
		return usageError("--scale: %v", err)
	}
	return nil
}

func graphHasRule(diags compiler.Diagnostics, rule string) bool {
	for _, d := range diags {
		if d.Rule == rule && d.Severity == compiler.SeverityError {
			return true
		}
	}
	return false
}
