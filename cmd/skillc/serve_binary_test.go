package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
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
	srv := startBinaryHTTP(t, nil, bin, "serve", "--http", "127.0.0.1:0", "--tokens", tokens, "--store", "sqlite:"+filepath.Join(dir, "plans.db"))
	url := srv.url

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

	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-srv.done:
		log := srv.logText()
		if err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, log)
		}
		if !strings.Contains(log, "stopped") {
			t.Errorf("no clean stop in the log:\n%s", log)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop on SIGTERM")
	}
}

// binaryHTTP is a `skillc serve --http` process started by a test.
type binaryHTTP struct {
	cmd  *exec.Cmd
	url  string     // http://127.0.0.1:PORT
	done chan error // the process's exit
	mu   sync.Mutex
	log  strings.Builder
}

func (b *binaryHTTP) logText() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.log.String()
}

// startBinaryHTTP runs prefix (a wrapper such as prlimit, or nothing) and
// then the skillc args, and waits for the address it reports; the process
// is killed when the test ends.
func startBinaryHTTP(t *testing.T, prefix []string, bin string, args ...string) *binaryHTTP {
	t.Helper()
	argv := append(append(append([]string(nil), prefix...), bin), args...)
	b := &binaryHTTP{cmd: exec.Command(argv[0], argv[1:]...), done: make(chan error, 1)}
	b.cmd.Env = childEnvWithout()
	stderr, err := b.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`serving MCP on (http://\S+)/mcp`)
		for sc.Scan() {
			b.mu.Lock()
			b.log.WriteString(sc.Text() + "\n")
			b.mu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		b.done <- b.cmd.Wait()
	}()
	t.Cleanup(func() { b.cmd.Process.Kill() })
	select {
	case b.url = <-addr:
	case err := <-b.done:
		t.Fatalf("server exited: %v\n%s", err, b.logText())
	case <-time.After(30 * time.Second):
		t.Fatal("server did not report its address")
	}
	return b
}

// TestServeBinaryDescriptors is issue 16's first finding against the real
// binary: with only 64 file descriptors, 100 clients that announce a large
// body and send it a byte at a time neither hold the server nor starve
// /healthz, because a request without a token is refused before its body
// is read and its connection closed. (On the old server each held its
// connection until the body arrived, and /healthz stopped answering.)
// Bounded: 100 clients, each sending at most 10 bytes 200 ms apart.
func TestServeBinaryDescriptors(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit (util-linux) to lower the server's descriptor limit")
	}
	bin := skillcOnPath(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	if err := os.WriteFile(tokens, []byte("alice-token-0123456789abcdef alice\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startBinaryHTTP(t, []string{prlimit, "--nofile=64:64", "--"}, bin,
		"serve", "--http", "127.0.0.1:0", "--tokens", tokens, "--store", "sqlite:"+filepath.Join(dir, "plans.db"))
	host := strings.TrimPrefix(srv.url, "http://")

	const clients = 100
	answers := make(chan string, clients)
	for range clients {
		go func() {
			c, err := net.DialTimeout("tcp", host, 5*time.Second)
			if err != nil {
				answers <- "dial: " + err.Error()
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n", server.MCPPath, host)
			status := make(chan string, 1)
			go func() {
				line, err := bufio.NewReader(c).ReadString('\n')
				if err != nil {
					status <- "read: " + err.Error()
					return
				}
				status <- strings.TrimSpace(line)
			}()
			for range 10 {
				select {
				case s := <-status:
					answers <- s
					return
				case <-time.After(200 * time.Millisecond):
					c.Write([]byte("{"))
				}
			}
			answers <- "no answer after 10 slow bytes"
		}()
	}
	client := &http.Client{Timeout: 5 * time.Second}
	for i := range 5 {
		resp, err := client.Get(srv.url + "/healthz")
		if err != nil {
			t.Fatalf("/healthz %d while slow clients are connected: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("/healthz %d: %d", i, resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for range clients {
		if a := <-answers; !strings.HasPrefix(a, "HTTP/1.1 401") {
			t.Fatalf("a slow client without a token got %q, want 401 at once\n%s", a, srv.logText())
		}
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
