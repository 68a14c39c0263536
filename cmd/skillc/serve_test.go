package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/server"
)

var _ = golden.Update

func TestNewCmdServeFlags(t *testing.T) {
	tests := []struct {
		args []string
		want ServeOptions
	}{
		// Not nil: cobra reads os.Args for nil args (go test's own flags).
		{[]string{}, ServeOptions{TTL: 24 * time.Hour, MaxBodyBytes: server.DefaultMaxBodyBytes, SessionIdle: server.DefaultSessionIdle}},
		{[]string{"--ttl", "1s", "--session-idle", "30m"}, ServeOptions{TTL: time.Second, MaxBodyBytes: server.DefaultMaxBodyBytes, SessionIdle: 30 * time.Minute}},
		{[]string{"--user", "alice", "--session", "s1", "--store", "memory", "--ttl", "1h", "--skills", "a", "--skills", "b"},
			ServeOptions{User: "alice", Session: "s1", Store: "memory", TTL: time.Hour, SkillDirs: []string{"a", "b"}, MaxBodyBytes: server.DefaultMaxBodyBytes, SessionIdle: server.DefaultSessionIdle}},
		{[]string{"--http", ":8080", "--tokens", "t", "--max-body", "4096", "--stateless"},
			ServeOptions{HTTP: ":8080", Tokens: "t", MaxBodyBytes: 4096, Stateless: true, TTL: 24 * time.Hour, SessionIdle: server.DefaultSessionIdle}},
	}
	for _, tc := range tests {
		var got *ServeOptions
		cmd := NewCmdServe(&IOStreams{}, func(o *ServeOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		g := *got
		g.IO, g.Ctx, g.Getenv, g.Ready = nil, nil, nil, nil
		if g.Store != tc.want.Store || g.TTL != tc.want.TTL || g.User != tc.want.User || g.Session != tc.want.Session ||
			strings.Join(g.SkillDirs, ",") != strings.Join(tc.want.SkillDirs, ",") || g.HTTP != tc.want.HTTP ||
			g.Tokens != tc.want.Tokens || g.MaxBodyBytes != tc.want.MaxBodyBytes || g.Stateless != tc.want.Stateless ||
			g.SessionIdle != tc.want.SessionIdle {
			t.Errorf("%v:\n got %+v\nwant %+v", tc.args, g, tc.want)
		}
	}
	cmd := NewCmdServe(&IOStreams{}, func(*ServeOptions) error { return nil })
	cmd.SetArgs([]string{"extra"})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetOut(&bytes.Buffer{})
	if err := cmd.Execute(); err == nil {
		t.Error("serve accepted an argument")
	}
}

func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func TestServeRunUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte("0123456789abcdef alice\n"), 0o600)
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("abc alice\n"), 0o600)
	tests := []struct {
		name string
		opts ServeOptions
		env  map[string]string
		want string
	}{
		{"no identity", ServeOptions{}, nil, "pass --user and --session, or set SKILLC_USER and SKILLC_SESSION (missing: both)"},
		{"no session", ServeOptions{User: "a"}, nil, "missing: the session"},
		{"no user", ServeOptions{}, map[string]string{"SKILLC_SESSION": "s"}, "missing: the user"},
		{"tokens on stdio", ServeOptions{User: "a", Session: "s", Tokens: tokens}, nil, "--tokens and --stateless are for --http"},
		{"public without tokens", ServeOptions{HTTP: "0.0.0.0:0", User: "a"}, nil, `refusing to serve "0.0.0.0:0"`},
		{"all interfaces without tokens", ServeOptions{HTTP: ":0", User: "a"}, nil, "refusing to serve"},
		{"loopback without user", ServeOptions{HTTP: "127.0.0.1:0"}, nil, "needs a user for every request"},
		{"session over http", ServeOptions{HTTP: "127.0.0.1:0", Session: "s", User: "a"}, nil, "--session is for stdio"},
		{"user with tokens", ServeOptions{HTTP: "127.0.0.1:0", User: "a", Tokens: tokens}, nil, "do not mix"},
		{"weak token", ServeOptions{HTTP: "0.0.0.0:0", Tokens: short}, nil, "short:1: token is 3 characters"},
		{"missing skills dir", ServeOptions{User: "a", Session: "s", SkillDirs: []string{filepath.Join(dir, "nope")}}, nil, "skills folder"},
		{"bad max body", ServeOptions{User: "a", Session: "s", MaxBodyBytes: -1}, nil, "--max-body must be positive"},
		{"metrics over stdio", ServeOptions{User: "a", Session: "s", MetricsAddr: "127.0.0.1:0"}, nil, "--metrics-addr is for --http"},
		{"metrics address", ServeOptions{HTTP: "127.0.0.1:0", User: "a", MetricsAddr: "9090"}, nil, "--metrics-addr: listen address \"9090\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			o := tc.opts
			o.IO = &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
			o.Getenv = env(tc.env)
			o.Store = "memory"
			if o.TTL == 0 {
				o.TTL = time.Hour
			}
			if o.MaxBodyBytes == 0 {
				o.MaxBodyBytes = server.DefaultMaxBodyBytes
			}
			err := serveRun(&o)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitUsage {
				t.Fatalf("err = %v, want a usage error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestServeRunStdio speaks raw JSON-RPC to serveRun over pipes, as an MCP
// client does over stdin and stdout, then ends it by closing its input.
func TestServeRunStdio(t *testing.T) {
	reqs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"make_plan","arguments":{"skill":"acat-reimbursement"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"update_plan","arguments":{"check":["1"],"user":"mallory"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"view_plan","arguments":{}}}`,
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- serveRun(&ServeOptions{
			IO:  &IOStreams{In: inR, Out: outW, ErrOut: &errOut},
			Ctx: context.Background(), Store: "memory", TTL: time.Hour, MaxBodyBytes: server.DefaultMaxBodyBytes,
			Getenv: env(map[string]string{"SKILLC_USER": "alice", "SKILLC_SESSION": "s1"}),
		})
		outW.Close()
	}()
	// One request at a time, each answer read before the next is sent, so
	// the transcript is in order.
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	var got strings.Builder
	for _, r := range reqs {
		if _, err := io.WriteString(inW, r+"\n"); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r, `"id"`) {
			if !sc.Scan() {
				t.Fatalf("no answer to %s: %v\n%s", r, sc.Err(), errOut.String())
			}
			got.WriteString(sc.Text() + "\n")
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("serveRun: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{`"id":1`, `"instructions":"# Working with a plan`, `ACAT reimbursement · active · 0/4 done`,
		`"isError":true`, `unexpected argument \"user\": update_plan takes check, uncheck, fail, skip`, `"id":4`} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("output lacks %s:\n%s", want, got.String())
		}
	}
}

// TestServeRunHTTP runs the HTTP server until its context ends: the
// graceful stop path that SIGTERM takes.
func TestServeRunHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errOut bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveRun(&ServeOptions{
			IO:  &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &errOut},
			Ctx: ctx, Store: "memory", TTL: time.Hour, MaxBodyBytes: server.DefaultMaxBodyBytes,
			HTTP: "127.0.0.1:0", User: "alice", Getenv: env(nil),
			Ready: func(addr string) { ready <- addr },
		})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serveRun: %v", err)
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("healthz: %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serveRun after cancel: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serveRun did not stop")
	}
	if !strings.Contains(errOut.String(), "with no authentication (loopback), user \"alice\"") || !strings.Contains(errOut.String(), "stopped") {
		t.Errorf("log:\n%s", errOut.String())
	}
}

// TestServeRunSessionIdleIsNotTTL: `skillc serve --http --ttl 1s` keeps an
// idle MCP session open past the TTL. The client's call after 2.5 s of
// idle is a tool result (the plan has expired), not a transport error
// ("session not found"), as it was when the session idle timeout was the
// TTL.
func TestServeRunSessionIdleIsNotTTL(t *testing.T) {
	var opts *ServeOptions
	cmd := NewCmdServe(&IOStreams{}, func(o *ServeOptions) error { opts = o; return nil })
	cmd.SetArgs([]string{"--http", "127.0.0.1:0", "--user", "alice", "--store", "memory", "--ttl", "1s"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errOut bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	opts.IO = &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &errOut}
	opts.Ctx, opts.Getenv = ctx, env(nil)
	opts.Ready = func(addr string) { ready <- addr }
	go func() { done <- serveRun(opts) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serveRun: %v\n%s", err, errOut.String())
	case <-time.After(30 * time.Second):
		t.Fatal("serveRun did not start")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "idle-test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: "http://" + addr + server.MCPPath, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args any) *mcp.CallToolResult {
		t.Helper()
		cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
		defer ccancel()
		res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: a transport error, not a tool result: %v", tool, err)
		}
		return res
	}
	if res := call("make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A."}}}); res.IsError {
		t.Fatalf("make_plan: %+v", res.Content)
	}
	time.Sleep(2500 * time.Millisecond) // the idle time the issue reports, past --ttl 1s
	call("view_plan", nil)
	cancel()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("serveRun did not stop")
	}
}

// TestServeRunStdioEndOfInput: initialize, initialized and make_plan piped
// in, the input closed at once, as `printf ... | skillc serve` does: the
// call is answered before serveRun returns, and the plan is in the store
// for the next server.
func TestServeRunStdioEndOfInput(t *testing.T) {
	storeSpec := "sqlite:" + filepath.Join(t.TempDir(), "plans.db")
	run := func(lines ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		done := make(chan error, 1)
		go func() {
			done <- serveRun(&ServeOptions{
				IO:  &IOStreams{In: strings.NewReader(strings.Join(lines, "\n") + "\n"), Out: &out, ErrOut: &errOut},
				Ctx: context.Background(), Store: storeSpec, TTL: time.Hour, MaxBodyBytes: server.DefaultMaxBodyBytes,
				Getenv: env(map[string]string{"SKILLC_USER": "alice", "SKILLC_SESSION": "pipe-1"}),
			})
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("serveRun: %v\n%s", err, errOut.String())
			}
		case <-time.After(60 * time.Second):
			t.Fatal("serveRun did not stop at the end of its input")
		}
		return out.String()
	}
	const (
		initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
		initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	)
	for i := range 3 {
		out := run(initialize, initialized, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"make_plan","arguments":{"skill":"acat-reimbursement"}}}`)
		// From the second run on, the answer first says the previous plan
		// was superseded.
		if !strings.Contains(out, `"id":2,"result":{"content":[{"type":"text","text":"`) || !strings.Contains(out, `ACAT reimbursement · active · 0/4 done`) {
			t.Fatalf("run %d: make_plan has no answer:\n%.600s", i, out)
		}
	}
	out := run(initialize, initialized, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"view_plan","arguments":{}}}`)
	if !strings.Contains(out, `"id":2,"result":{"content":[{"type":"text","text":"ACAT reimbursement · active`) {
		t.Errorf("the next server finds no plan:\n%.600s", out)
	}
}

// TestServeRunHTTPRefusesBeforeTheBody: a request without a token that
// announces a 200,000-byte body and sends none of it gets its 401 at once
// and the connection closed, with serve's defaults: the server neither
// waits for nor reads the body.
func TestServeRunHTTPRefusesBeforeTheBody(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("0123456789abcdef alice\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var errOut bytes.Buffer
	go func() {
		done <- serveRun(&ServeOptions{
			IO:  &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &errOut},
			Ctx: ctx, Store: "memory", TTL: time.Hour, MaxBodyBytes: server.DefaultMaxBodyBytes,
			HTTP: "127.0.0.1:0", Tokens: tokens, Getenv: env(nil),
			Ready: func(addr string) { ready <- addr },
		})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serveRun: %v\n%s", err, errOut.String())
	case <-time.After(30 * time.Second):
		t.Fatal("serveRun did not start")
	}
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The guard: well under the 30 s body timeout, so only an answer that
	// does not wait for the body passes.
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n", server.MCPPath, addr)
	got, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("no answer and no hang-up before the body: %v (read %q)", err, got)
	}
	if !strings.HasPrefix(string(got), "HTTP/1.1 401") || !strings.Contains(string(got), "Connection: close") {
		t.Errorf("answer %q, want a 401 and Connection: close", got)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("serveRun did not stop")
	}
}

// TestServeRunMetricsAddr: with --metrics-addr, /metrics is served there
// without a token and counts the main address's calls, and the main
// address has none; both stop with the server.
func TestServeRunMetricsAddr(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	if err := os.WriteFile(tokens, []byte("alice-token-0123456789 alice\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errOut bytes.Buffer
	ready, metricsReady := make(chan string, 1), make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveRun(&ServeOptions{
			IO:  &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &errOut},
			Ctx: ctx, Store: "sqlite:" + filepath.Join(dir, "plans.db"), TTL: time.Hour, MaxBodyBytes: server.DefaultMaxBodyBytes,
			HTTP: "127.0.0.1:0", Tokens: tokens, MetricsAddr: "127.0.0.1:0", Getenv: env(nil),
			Ready: func(addr string) { ready <- addr }, MetricsReady: func(addr string) { metricsReady <- addr },
		})
	}()
	var addr, maddr string
	for addr == "" || maddr == "" {
		select {
		case addr = <-ready:
		case maddr = <-metricsReady:
		case err := <-done:
			t.Fatalf("serveRun: %v", err)
		}
	}
	get := func(url, token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("http://"+addr+"/metrics", "alice-token-0123456789"); code != http.StatusNotFound {
		t.Errorf("/metrics on the main address with --metrics-addr: %d, want 404", code)
	}

	tr := &mcp.StreamableClientTransport{Endpoint: "http://" + addr + server.MCPPath, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer("alice-token-0123456789")}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"make_plan", "view_plan"} {
		args := map[string]any{}
		if tool == "make_plan" {
			args["skill"] = "acat-reimbursement"
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
	}
	cs.Close()
	code, body := get("http://"+maddr+"/metrics", "")
	for _, want := range []string{
		`skillc_tool_calls_total{outcome="ok",tool="make_plan"} 1`,
		`skillc_tool_calls_total{outcome="ok",tool="view_plan"} 1`,
		`skillc_plans_created_total 1`,
	} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("--metrics-addr /metrics: %d, no %q", code, want)
		}
	}
	if code, _ := get("http://"+maddr+"/mcp", ""); code != http.StatusNotFound {
		t.Errorf("the metrics address serves /mcp: %d", code)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serveRun after cancel: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serveRun did not stop")
	}
	if _, err := http.Get("http://" + maddr + "/metrics"); err == nil {
		t.Error("the metrics address still answers after the server stopped")
	}
	if !strings.Contains(errOut.String(), "serving metrics on http://"+maddr+"/metrics without authentication") {
		t.Errorf("log:\n%s", errOut.String())
	}
}

// bearer is a transport that sends a bearer token.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
