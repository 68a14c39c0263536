// Package upstreamtest finds, for tests, the real MCP servers from npm
// that the gateway is tested in front of: .ci/run installs them into
// server/testdata/upstreams (npm ci --prefix server/testdata/upstreams).
package upstreamtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir is the npm folder of the upstream servers.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "server", "testdata", "upstreams")
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
