package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/server"
)

// serveLoopback runs s's real HTTP server (Serve, as `skillc serve --http`
// does) on 127.0.0.1 and returns its address.
func serveLoopback(t *testing.T, s *server.Server, opts server.HTTPOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, s.Handler(opts)) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// slowResult is what one slow client saw.
type slowResult struct {
	auth   bool
	sent   int    // body bytes written before the server answered or hung up
	status string // the response's status line, if any
	closed bool   // the server closed the connection
	err    error
}

// slowClient announces a 200,000-byte body and sends it one byte per pace,
// at most maxBytes bytes, until the server answers or hangs up. Every wait
// is bounded: the connection gets a deadline past the last byte.
func slowClient(addr string, auth bool, pace time.Duration, maxBytes int, headersSent func()) slowResult {
	res := slowResult{auth: auth}
	defer headersSent()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		res.err = err
		return res
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Duration(maxBytes)*pace + 10*time.Second))
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 200000\r\n", server.MCPPath, addr)
	if auth {
		fmt.Fprintf(&hdr, "Authorization: Bearer %s\r\n", aliceToken)
	}
	hdr.WriteString("\r\n")
	if _, err := io.WriteString(conn, hdr.String()); err != nil {
		res.err = err
		return res
	}
	headersSent()
	type answer struct {
		status string
		closed bool
	}
	answered := make(chan answer, 1)
	go func() {
		br := bufio.NewReader(conn)
		status, err := br.ReadString('\n')
		if err != nil {
			answered <- answer{status: status, closed: !errors.Is(err, os.ErrDeadlineExceeded)}
			return
		}
		// EOF, or a reset when bytes sent after the server's close
		// arrive: either way the server hung up. Only the guard's
		// deadline means it did not.
		_, err = io.Copy(io.Discard, br)
		answered <- answer{status: strings.TrimSpace(status), closed: !errors.Is(err, os.ErrDeadlineExceeded)}
	}()
	tick := time.NewTicker(pace)
	defer tick.Stop()
	for res.sent < maxBytes {
		select {
		case a := <-answered:
			res.status, res.closed = a.status, a.closed
			return res
		case <-tick.C:
		}
		if _, err := conn.Write([]byte{'{'}); err != nil {
			break // the server hung up; the reader reports how
		}
		res.sent++
	}
	a := <-answered
	res.status, res.closed = a.status, a.closed
	return res
}

// TestHTTPSlowBodies: 50 clients announce a 200,000-byte body and trickle
// it. Without a token the 401 comes at once, before any body is read; with
// one, the body deadline ends each after about BodyTimeout with a 408.
// Either way the server hangs up well before the last byte, and /healthz
// answers all along.
func TestHTTPSlowBodies(t *testing.T) {
	e := newEnv(t, nil)
	s := e.server("", "")
	const (
		clients     = 50
		bodyTimeout = time.Second
		pace        = 200 * time.Millisecond
		// The guard: 30 bytes at one per pace is 6 s, six times the
		// timeout. A client that gets to send them all was never cut off.
		maxBytes = 30
	)
	addr := serveLoopback(t, s, server.HTTPOptions{Tokens: testTokens(t), BodyTimeout: bodyTimeout})

	var started sync.WaitGroup
	started.Add(clients)
	results := make(chan slowResult, clients)
	for i := range clients {
		go func() {
			var once sync.Once
			results <- slowClient(addr, i%2 == 0, pace, maxBytes, func() { once.Do(started.Done) })
		}()
	}
	started.Wait()

	hc := &http.Client{Timeout: 5 * time.Second}
	for i := range 5 {
		resp, err := hc.Get("http://" + addr + "/healthz")
		if err != nil {
			t.Fatalf("healthz %d with %d slow clients: %v", i, clients, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "ok\n" {
			t.Errorf("healthz %d: %d %q", i, resp.StatusCode, body)
		}
	}

	for range clients {
		r := <-results
		want := "HTTP/1.1 401"
		if r.auth {
			want = "HTTP/1.1 408"
		}
		switch {
		case r.err != nil:
			t.Errorf("auth=%v: %v", r.auth, r.err)
		case r.sent >= maxBytes:
			t.Errorf("auth=%v: sent all %d bytes at one per %s and was never cut off (status %q)", r.auth, r.sent, pace, r.status)
		case !strings.HasPrefix(r.status, want) || !r.closed:
			t.Errorf("auth=%v: status %q, closed %v after %d bytes; want %s and the connection closed", r.auth, r.status, r.closed, r.sent, want)
		case !r.auth && r.sent > 2:
			t.Errorf("without a token: answered after %d body bytes; want the 401 before the body", r.sent)
		}
	}
}

// TestHTTPBodyTimeoutSparesLongCalls: the body deadline ends with the
// body. A tool call that runs three times the body timeout, its answer
// streamed on the POST, is neither cut off nor cancelled.
func TestHTTPBodyTimeoutSparesLongCalls(t *testing.T) {
	e := newEnv(t, nil)
	s := e.server("", "")
	const bodyTimeout = 300 * time.Millisecond
	mcp.AddTool(s.MCP(), &mcp.Tool{Name: "outlast", Description: "answers after three body timeouts, unless cancelled"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			select {
			case <-time.After(3 * bodyTimeout):
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
			case <-ctx.Done():
				return nil, nil, fmt.Errorf("cancelled: %w", context.Cause(ctx))
			}
		})
	addr := serveLoopback(t, s, server.HTTPOptions{Tokens: testTokens(t), BodyTimeout: bodyTimeout})
	cs := httpClient(t, "http://"+addr, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "c1"})
	for i := range 2 { // the second on a connection the first left open
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "outlast"})
		cancel()
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if res.IsError || text(res) != "done" {
			t.Fatalf("call %d: %q (error %v)", i, text(res), res.IsError)
		}
	}
	// And the plan tools work on the same session after the waits.
	ok(t, cs, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A."}}})
}
