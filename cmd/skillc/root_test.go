package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRootCommands: the table's names are the commands' own, and a tree
// of only the named command (what run builds) prints the same help as the
// whole tree, for each command and for plan's subcommands.
func TestRootCommands(t *testing.T) {
	for _, c := range commands {
		if got := c.new(&IOStreams{}).Name(); got != c.name {
			t.Errorf("commands has %q for the command %q", c.name, got)
		}
	}
	help := func(first string, args ...string) string {
		var out, errOut bytes.Buffer
		root := newRootCmd(&IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, first)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String() + errOut.String()
	}
	lines := [][]string{{"plan", "update", "--help"}, {"plan", "make", "--help"}}
	for _, c := range commands {
		lines = append(lines, []string{c.name, "--help"})
	}
	for _, args := range lines {
		if one, all := help(args[0], args...), help("", args...); one != all || one == "" {
			t.Errorf("skillc %s: the one-command tree prints\n%s\nthe whole tree\n%s", strings.Join(args, " "), one, all)
		}
	}
	if out := help("", "--help"); !strings.Contains(out, "version ") || !strings.Contains(out, "lsp ") {
		t.Errorf("skillc --help does not list every command:\n%s", out)
	}
}
