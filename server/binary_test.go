package server_test

import (
	"bufio"
	"bytes"
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

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// skillcBinary builds the real binary once per test run: these tests drive
// it exactly as an MCP client does.
func skillcBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the skillc binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "skillc-server-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "skillc")
		out, err := exec.Command("go", "build", "-o", binPath, "../cmd/skillc").CombinedOutput()
		if err != nil {
			buildErr = &buildError{err: err, out: string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("go build ./cmd/skillc: %v", buildErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

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

// TestBinaryStdio: the ACAT flow through `skillc serve` over stdio on a
// real SQLite file, then a second process on the same file sees the result.
func TestBinaryStdio(t *testing.T) {
	bin := skillcBinary(t)
	storeSpec := "sqlite:" + filepath.Join(t.TempDir(), "plans.db")
	cs := stdioBinaryClient(t, bin, storeSpec, "alice", "chat-1")
	if got := cs.InitializeResult().Instructions; !strings.HasPrefix(got, "# Working with a plan") {
		t.Errorf("instructions: %.60q", got)
	}
	ok(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	ok(t, cs, "update_plan", map[string]any{"fail": []string{"1"}})
	fails(t, cs, "update_plan", map[string]any{"check": []string{"nope"}})
	ok(t, cs, "update_plan", map[string]any{"check": []string{"2"}})
	p, _ := ok(t, cs, "close_plan", map[string]any{"note": "Credited.", "check": []string{"3"}})
	if p.Status != "completed" {
		t.Fatalf("status %q", p.Status)
	}
	cs.Close()

	again := stdioBinaryClient(t, bin, storeSpec, "alice", "chat-1")
	if p, _ := ok(t, again, "view_plan", nil); p.Status != "completed" || p.Note != "Credited." {
		t.Errorf("a new process on the same store: %+v", p)
	}
	other := stdioBinaryClient(t, bin, storeSpec, "bob", "chat-1")
	fails(t, other, "view_plan", nil)
}

func TestBinaryUsageErrors(t *testing.T) {
	bin := skillcBinary(t)
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"stdio without identity", []string{"serve", "--store", "memory"}, nil, "SKILLC_USER"},
		{"stdio without session", []string{"serve", "--store", "memory", "--user", "alice"}, nil, "missing: the session"},
		{"public without tokens", []string{"serve", "--store", "memory", "--http", "0.0.0.0:0", "--user", "alice"}, nil, "refusing to serve"},
		{"missing tokens file", []string{"serve", "--store", "memory", "--http", "127.0.0.1:0", "--tokens", "/nonexistent/tokens"}, nil, "tokens file"},
		{"bad address", []string{"serve", "--store", "memory", "--http", "8080"}, nil, "HOST:PORT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = childEnvWithout(tc.env...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			ee, isExit := err.(*exec.ExitError)
			if !isExit || ee.ExitCode() != 2 {
				t.Fatalf("exit: %v, want code 2; stderr:\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr does not mention %q:\n%s", tc.want, stderr.String())
			}
		})
	}
}

// TestBinaryHTTP: `skillc serve --http` with a tokens file: 401 without a
// token, the tools with one, and a clean stop on SIGTERM.
func TestBinaryHTTP(t *testing.T) {
	bin := skillcBinary(t)
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

	cs := httpClient(t, url, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "c1"})
	ok(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	if p, _ := ok(t, cs, "update_plan", map[string]any{"check": []string{"1"}}); p.Status != "active" {
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
