package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/lsp"
)

// LSPOptions are the flags of `skillc lsp`.
type LSPOptions struct {
	IO *IOStreams
	// ConfigPath is --config; empty means .skillc.yaml found upward from
	// each document's folder.
	ConfigPath string
	Strict     bool
}

// NewCmdLSP builds `skillc lsp`.
func NewCmdLSP(ios *IOStreams, runF func(*LSPOptions) error) *cobra.Command {
	opts := &LSPOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server for editors (LSP over stdio)",
		Long: `Run skillc's language server on standard input and output, for an editor to
start: the lint findings of each open skill as you type (with the config
found as skillc lint finds it, upward from the skill's folder, or --config),
code actions from their fixes, hover on a target or a tool, go to definition
from a target to its step, references of a step, the steps as the outline,
completion of step IDs, edge keys and tool names, and rename of a step ID
with its targets.

docs/editors.md shows the setup for Neovim, VS Code and Helix.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return lspRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.ConfigPath, "config", "c", "", "config file (default: .skillc.yaml found upward from each skill's folder)")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "read FORMAT version 1 only, without version 2's inferences")
	return cmd
}

func lspRun(opts *LSPOptions) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := lsp.New(lsp.Options{ConfigPath: opts.ConfigPath, Strict: opts.Strict, Version: buildVersion(), Log: opts.IO.ErrOut})
	if err := s.Serve(ctx, stdio{opts.IO.In, opts.IO.Out}); err != nil {
		return &exitError{code: exitFindings, err: err}
	}
	return nil
}

// stdio is the server's stream: the command's input and output.
type stdio struct {
	io.Reader
	io.Writer
}

// Close does nothing: the streams are the process's, closed when it
// exits.
func (stdio) Close() error { return nil }
