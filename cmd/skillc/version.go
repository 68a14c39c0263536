package main

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// the module version recorded by `go install` is used.
var version = ""

// buildVersion is read once: debug.ReadBuildInfo parses the whole module
// list each time, and a command asks for the version two or three times
// (the root command's --version, its template, `skillc version`).
var buildVersion = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
})

// versionText is what `skillc version` and `skillc --version` print.
func versionText() string {
	return fmt.Sprintf("skillc %s (skill format %d)\n", buildVersion(), 1)
}

// NewCmdVersion prints the version.
func NewCmdVersion(io *IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the skillc version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(io.Out, versionText())
			return err
		},
	}
}
