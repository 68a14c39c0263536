// Package upstreamtest finds, for tests, the real MCP servers from npm
// that the gateway is tested in front of: .ci/run installs them into
// server/testdata/upstreams (npm ci --prefix server/testdata/upstreams).
package upstreamtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Dir is the npm folder of the upstream servers, found from the working
// directory (a package's folder under go test) up to the module's root:
// not from this file's compiled-in path, which -trimpath makes relative.
func Dir() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "server", "testdata", "upstreams")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(dir, "server", "testdata", "upstreams")
		}
	}
}

// Everything returns node and the entry point of the everything server
// (@modelcontextprotocol/server-everything).
func Everything(tb testing.TB) (node, entry string) {
	tb.Helper()
	return Server(tb, "server-everything")
}

// Server returns node and the entry point of @modelcontextprotocol/pkg.
// When either is missing the test is skipped, or fails under CI, which
// must have installed both.
func Server(tb testing.TB, pkg string) (node, entry string) {
	tb.Helper()
	node, err := exec.LookPath("node")
	entry = filepath.Join(Dir(), "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if err == nil {
		_, err = os.Stat(entry)
	}
	if err != nil {
		msg := "node or " + pkg + " is missing (" + err.Error() + "): run npm ci --prefix server/testdata/upstreams"
		if os.Getenv("CI") != "" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return node, entry
}
