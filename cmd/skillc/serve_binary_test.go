package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/server"
)

// These tests drive `skillc serve` as a separate process, exactly as an MCP
// client does. The process is this test binary, which TestMain puts on
// $PATH as skillc. (They lived in server/ and built the binary with go
// build; the usage errors are now testdata/script/serve-usage.txtar.)

// childEnvWithout is the environment minus the identity variables, so a
// developer's own SKILLC_USER never leaks into a test.
func childEnvWithout(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SKILLC_USER=") || strings.HasPrefix(kv, "SKILLC_SESSION=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func stdioBinaryClient(t *testing.T, bin, storeSpec, user, session string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--store", storeSpec)
	cmd.Env = childEnvWithout("SKILLC_USER="+user, "SKILLC_SESSION="+session)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "binary-test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// binFails calls a tool that must return a tool error, without structured
// content, and returns its message.
func binFails(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if !res.IsError {
		t.Fatalf("%s(%v): want a tool error, got:\n%s", tool, args, pgE2EText(res))
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: a tool error carries structured content: %v", tool, res.StructuredContent)
	}
	return pgE2EText(res)
}

// TestServeBinaryStdio: the ACAT flow through `skillc serve` over stdio on
// a real SQLite file, then a second process on the same file sees the
// result.
func TestServeBinaryStdio(t *testing.T) {
	bin := skillcOnPath(t)
	storeSpec := "sqlite:" + filepath.Join(t.TempDir(), "plans.db")
	cs := stdioBinaryClient(t, bin, storeSpec, "alice", "chat-1")
	if got := cs.InitializeResult().Instructions; !strings.HasPrefix(got, "# Working with a plan") {
		t.Errorf("instructions: %.60q", got)
	}
	pgE2EMust(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	pgE2EMust(t, cs, "update_plan", map[string]any{"fail": []string{"1"}})
	binFails(t, cs, "update_plan", map[string]any{"check": []string{"nope"}})
	pgE2EMust(t, cs, "update_plan", map[string]any{"check": []string{"2"}})
	p := pgE2EMust(t, cs, "close_plan", map[string]any{"note": "Credited.", "check": []string{"3"}})
	if p.Status != "completed" {
		t.Fatalf("status %q", p.Status)
	}
	cs.Close()

	again := stdioBinaryClient(t, bin, storeSpec, "alice", "chat-1")
	if p := pgE2EMust(t, again, "view_plan", nil); p.Status != "completed" || p.Note != "Credited." {
		t.Errorf("a new process on the same store: %+v", p)
	}
	other := stdioBinaryClient(t, bin, storeSpec, "bob", "chat-1")
	binFails(t, other, "view_plan", nil)
}

// TestServeBinaryHTTP: `skillc serve --http` with a tokens file: 401
// without a token, the tools with one, and a clean stop on SIGTERM.
func TestServeBinaryHTTP(t *testing.T) {
	const aliceToken = "alice-token-0123456789abcdef"
	bin := skillcOnPath(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	if err := os.WriteFile(tokens, []byte("# users\n"+aliceToken+" alice\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--tokens", tokens, "--store", "sqlite:"+filepath.Join(dir, "plans.db"))
	cmd.Env = childEnvWithout()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var logMu sync.Mutex
	var log strings.Builder
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`serving MCP on (http://\S+)/mcp`)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		done <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	var url string
	select {
	case url = <-addr:
	case err := <-done:
		t.Fatalf("server exited: %v\n%s", err, log.String())
	case <-time.After(30 * time.Second):
		t.Fatal("server did not report its address")
	}

	resp, err := http.Post(url+server.MCPPath, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("without a token: %d %q, want 401 with a Bearer challenge", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}

	cs := pgE2EConnect(t, url+server.MCPPath, aliceToken, "c1")
	pgE2EMust(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	if p := pgE2EMust(t, cs, "update_plan", map[string]any{"check": []string{"1"}}); p.Status != "active" {
		t.Errorf("status %q", p.Status)
	}
	cs.Close()

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		logMu.Lock()
		defer logMu.Unlock()
		if err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, log.String())
		}
		if !strings.Contains(log.String(), "stopped") {
			t.Errorf("no clean stop in the log:\n%s", log.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop on SIGTERM")
	}
}

// TestTypeScriptClient: the official TypeScript SDK client drives the
// binary over stdio through the ACAT flow. It needs node and
// `npm ci --prefix server/testdata/tsclient`; without them it skips, except
// under CI, where a skip would hide a broken install step.
func TestTypeScriptClient(t *testing.T) {
	dir := filepath.Join("..", "..", "server", "testdata", "tsclient")
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
	bin := skillcOnPath(t)
	cmd := exec.Command(node, "acat.mjs", bin, "sqlite:"+filepath.Join(t.TempDir(), "plans.db"))
	cmd.Dir = dir
	cmd.Env = childEnvWithout()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node acat.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
