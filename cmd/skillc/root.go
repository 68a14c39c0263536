package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// Exit codes, as CI expects them.
const (
	exitOK       = 0
	exitFindings = 1 // diagnostics at or above the failure level, or a plan operation refused
	exitUsage    = 2 // bad usage, or input that could not be read
)

// IOStreams are the command's standard streams, replaced by buffers in tests.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// ColorErr is true when ErrOut is a terminal that takes colour.
	ColorErr bool
}

func newIOStreams() *IOStreams {
	color := isatty.IsTerminal(os.Stderr.Fd()) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, ColorErr: color}
}

// exitError carries an exit code through cobra. A nil err means the message
// was already printed.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// silentExit ends the command with code after it has printed its own output.
func silentExit(code int) error { return &exitError{code: code} }

// usageError is bad usage or unreadable input: exit 2.
func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// commands are the subcommands by name. Each is built by its own
// NewCmdX(io, runF) so tests can parse flags without running anything.
var commands = []struct {
	name string
	new  func(*IOStreams) *cobra.Command
}{
	{"init", func(io *IOStreams) *cobra.Command { return NewCmdInit(io, nil) }},
	{"compile", func(io *IOStreams) *cobra.Command { return NewCmdCompile(io, nil) }},
	{"schema", func(io *IOStreams) *cobra.Command { return NewCmdSchema(io, nil) }},
	{"lint", func(io *IOStreams) *cobra.Command { return NewCmdLint(io, nil) }},
	{"rules", func(io *IOStreams) *cobra.Command { return NewCmdRules(io, nil) }},
	{"explain", func(io *IOStreams) *cobra.Command { return NewCmdExplain(io, nil) }},
	{"graph", func(io *IOStreams) *cobra.Command { return NewCmdGraph(io, nil) }},
	{"plan", func(io *IOStreams) *cobra.Command { return NewCmdPlan(io, nil) }},
	{"serve", func(io *IOStreams) *cobra.Command { return NewCmdServe(io, nil) }},
	{"lsp", func(io *IOStreams) *cobra.Command { return NewCmdLSP(io, nil) }},
	{"version", NewCmdVersion},
}

// newRootCmd builds the command tree for a command line whose first
// argument is first. When first names a command, only that command is
// built: a run uses one, and building the others (their flags above all)
// was a tenth of `skillc version`'s own CPU time. Anything else (help,
// --version, completion, a mistyped name that cobra suggests a command
// for) gets the whole tree.
func newRootCmd(io *IOStreams, first string) *cobra.Command {
	root := &cobra.Command{
		Use:   "skillc",
		Short: "Compile, lint, render and run workflow skills",
		Long: `skillc turns the workflow skills that business experts write for AI agents
(markdown with a title, when to use it, and numbered steps) into a step graph
an agent can follow and a machine can check.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version prints what `skillc version` prints.
		Version: buildVersion(),
	}
	root.SetVersionTemplate(versionText())
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetIn(io.In)
	for _, c := range commands {
		if c.name == first {
			root.AddCommand(c.new(io))
			return root
		}
	}
	for _, c := range commands {
		root.AddCommand(c.new(io))
	}
	return root
}

// run executes the command line and returns the process exit code.
func run(args []string, io *IOStreams) int {
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	root := newRootCmd(io, first)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(io.ErrOut, "skillc: %v\n", ee.err)
		}
		return ee.code
	}
	// Anything cobra itself rejects (unknown flag, wrong arg count) is usage.
	fmt.Fprintf(io.ErrOut, "skillc: %v\n", err)
	return exitUsage
}
