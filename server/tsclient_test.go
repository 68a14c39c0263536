package server_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTypeScriptClient: the official TypeScript SDK client drives the
// binary over stdio through the ACAT flow. It needs node and
// `npm ci --prefix server/testdata/tsclient`; without them it skips, except
// under CI, where a skip would hide a broken install step.
func TestTypeScriptClient(t *testing.T) {
	dir := filepath.Join("testdata", "tsclient")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node or the TypeScript SDK is missing (%v): run npm ci --prefix server/testdata/tsclient", err)
		}
		t.Skipf("node or the TypeScript SDK is missing (%v): run npm ci --prefix server/testdata/tsclient", err)
	}
	bin := skillcBinary(t)
	cmd := exec.Command(node, "acat.mjs", bin, "sqlite:"+filepath.Join(t.TempDir(), "plans.db"))
	cmd.Dir = dir
	cmd.Env = childEnvWithout()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node acat.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
