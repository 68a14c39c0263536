package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
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

// TestInitAllocations: skillc's own packages build almost nothing when a
// process starts (a regexp, a parser or a table is built on first use), since
// every command pays for it. The figure is the Go runtime's own count of what
// each package's init allocated (GODEBUG=inittrace=1), the same on every
// run; compiling one of lint's regexps at init was 100 KB. Drawing
// (graph/render) is not in skillc but is in this test binary, and main's
// test files are main's here; both are left out.
func TestInitAllocations(t *testing.T) {
	cmd := exec.Command(skillcOnPath(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("skillc version: %v\n%s", err, stderr.String())
	}
	const budget = 24 << 10
	total, ours := 0, []string{}
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init github.com/skillc/skillc/lint @3.4 ms, 0.012 ms clock, 2640 bytes, 28 allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/skillc/skillc/") ||
			strings.HasPrefix(f[1], "github.com/skillc/skillc/graph/render") || f[1] == "github.com/skillc/skillc/cmd/skillc" {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		total += n
		ours = append(ours, line)
	}
	if len(ours) == 0 {
		t.Fatalf("no inittrace lines of skillc's packages in:\n%s", stderr.String())
	}
	if total > budget {
		t.Errorf("skillc's packages allocate %d bytes at init, more than %d:\n%s", total, budget, strings.Join(ours, "\n"))
	}
}
