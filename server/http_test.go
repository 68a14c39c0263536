package server_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/server"
)

const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef00"
)

func testTokens(t *testing.T) *server.Tokens {
	t.Helper()
	tok, err := server.ParseTokens("tokens", []byte("# test tokens\n"+aliceToken+" alice\n\n"+bobToken+"   bob\n"))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestParseTokens(t *testing.T) {
	tests := []struct {
		name, in, err string
	}{
		{"ok", "0123456789abcdef alice\n", ""},
		{"comments and blanks", "# c\n\n  0123456789abcdef alice  \n", ""},
		{"one field", "0123456789abcdef\n", "tokens:1: want `TOKEN USER` (two fields), got 1 fields"},
		{"three fields", "0123456789abcdef alice bob\n", "tokens:1: want `TOKEN USER` (two fields), got 3 fields"},
		{"short token", "# x\nshort alice\n", "tokens:2: token is 5 characters; use at least 16"},
		{"duplicate token", "0123456789abcdef alice\n0123456789abcdef bob\n", "tokens:2: the same token is already on line 1"},
		{"empty", "# nothing\n", "tokens: no tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tok, err := server.ParseTokens("tokens", []byte(tc.in))
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if u, ok := tok.User("0123456789abcdef"); !ok || u != "alice" {
					t.Errorf("User = %q, %v", u, ok)
				}
				if _, ok := tok.User("0123456789abcdeF"); ok {
					t.Error("a near-miss token was accepted")
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("err = %v, want prefix %q", err, tc.err)
			}
		})
	}
}

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.0.0.2:8080", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{":8080", false},
		{"0.0.0.0:8080", false},
		{"[::]:8080", false},
		{"10.1.2.3:8080", false},
		{"example.com:80", false},
	}
	for _, tc := range tests {
		got, err := server.IsLoopback(tc.addr)
		if err != nil || got != tc.want {
			t.Errorf("IsLoopback(%q) = %v, %v; want %v", tc.addr, got, err, tc.want)
		}
	}
	if _, err := server.IsLoopback("8080"); err == nil {
		t.Error("IsLoopback(\"8080\") accepted an address without a port")
	}
}

// headers adds fixed headers to every request, as an MCP client configured
// with a bearer token and a conversation ID does.
type headers struct {
	set  map[string]string
	base http.RoundTripper
}

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.set {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

func httpClient(t *testing.T, url string, set map[string]string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{
		Endpoint:   url + server.MCPPath,
		HTTPClient: &http.Client{Transport: headers{set: set, base: http.DefaultTransport}},
		MaxRetries: -1,
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-http-client", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newHTTP(t *testing.T, e *env, opts server.HTTPOptions, user string) *httptest.Server {
	t.Helper()
	s := e.server(user, "")
	ts := httptest.NewServer(s.Handler(opts))
	t.Cleanup(ts.Close)
	return ts
}

func TestHTTPAuth(t *testing.T) {
	e := newEnv(t, nil)
	ts := newHTTP(t, e, server.HTTPOptions{Tokens: testTokens(t)}, "")
	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	for _, auth := range []string{"", "Bearer wrong-token-0123456789", "Basic YWxpY2U6eA==", "Bearer " + aliceToken + "x"} {
		req, _ := http.NewRequest("POST", ts.URL+server.MCPPath, strings.NewReader(initBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", auth, resp.StatusCode)
		}
		if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
			t.Errorf("Authorization %q: WWW-Authenticate %q, want a Bearer challenge", auth, got)
		}
	}
	resp, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok\n" {
		t.Errorf("healthz: %d %q", resp.StatusCode, body)
	}
}

// TestHTTPIdentity: the token names the user, the header the conversation;
// without the header the MCP session is the conversation.
func TestHTTPIdentity(t *testing.T) {
	e := newEnv(t, nil)
	ts := newHTTP(t, e, server.HTTPOptions{Tokens: testTokens(t)}, "")
	conv := map[string]string{server.ConversationHeader: "conv-7"}
	alice := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "conv-7"})
	bob := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + bobToken, server.ConversationHeader: conv[server.ConversationHeader]})

	ap, _ := ok(t, alice, "make_plan", map[string]any{"title": "Alice's", "steps": []map[string]any{{"goal": "A."}, {"goal": "B."}}})
	if msg := fails(t, bob, "view_plan", nil); !strings.Contains(msg, "no plan") {
		t.Errorf("bob, same conversation ID: %s", msg)
	}
	// A second connection of alice's in the same conversation sees her plan.
	alice2 := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "conv-7"})
	ok(t, alice2, "update_plan", map[string]any{"check": []string{"1"}})
	p, _ := ok(t, alice, "view_plan", nil)
	if p.ID != ap.ID || p.Steps[0].Status != "done" {
		t.Errorf("alice's two connections do not share the conversation: %s", statuses(p))
	}
	// Without the header, each MCP session is its own conversation.
	noConv := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken})
	if msg := fails(t, noConv, "view_plan", nil); !strings.Contains(msg, "no plan") {
		t.Errorf("a new MCP session without the header: %s", msg)
	}
	ok(t, noConv, "make_plan", map[string]any{"title": "Session's", "steps": []map[string]any{{"goal": "A."}}})
	if p, _ := ok(t, noConv, "view_plan", nil); p.Title != "Session's" {
		t.Errorf("the MCP session's plan: %q", p.Title)
	}
	if p, _ := ok(t, alice, "view_plan", nil); p.ID != ap.ID {
		t.Errorf("the MCP session's plan replaced conv-7's")
	}
}

// TestHTTPConversationHeaderRefused: a conversation header the stores
// cannot key by gets a 400 that says why, before the SDK, a tool or a
// store sees it. 0xA0 alone is not UTF-8: PostgreSQL refused it.
func TestHTTPConversationHeaderRefused(t *testing.T) {
	e := newEnv(t, nil)
	ts := newHTTP(t, e, server.HTTPOptions{Tokens: testTokens(t)}, "")
	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	tests := []struct{ name, conv, want string }{
		{"byte 0xA0", "chat-\xa0-1", "not valid UTF-8"},
		{"too long", strings.Repeat("x", server.MaxConversationID+1), "1-256 bytes"},
		{"does not print", "chat\u200b1", "does not print"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL+server.MCPPath, strings.NewReader(initBody))
			req.Header.Set("Authorization", "Bearer "+aliceToken)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set(server.ConversationHeader, tc.conv)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), server.ConversationHeader) || !strings.Contains(string(body), tc.want) {
				t.Errorf("status %d %q, want 400 naming %s and saying %q", resp.StatusCode, body, server.ConversationHeader, tc.want)
			}
		})
	}
}

// TestNewRefusesIdentity: a fixed user or session (stdio's --user and
// --session) that is not printable UTF-8 stops the server at start.
func TestNewRefusesIdentity(t *testing.T) {
	e := newEnv(t, nil)
	for _, tc := range []struct{ user, session, want string }{
		{"al\xa0ice", "s1", "the user is not valid UTF-8"},
		{"alice", "s\x1b1", "the session has a character that does not print"},
	} {
		_, err := server.New(server.Options{Planner: e.planner(), User: tc.user, Session: tc.session})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("user %q session %q: %v, want %q", tc.user, tc.session, err, tc.want)
		}
	}
}

// TestHTTPLoopbackUser: without tokens every request acts as the fixed user.
func TestHTTPLoopbackUser(t *testing.T) {
	e := newEnv(t, nil)
	ts := newHTTP(t, e, server.HTTPOptions{}, "carol")
	cs := httpClient(t, ts.URL, map[string]string{server.ConversationHeader: "c1"})
	ok(t, cs, "make_plan", map[string]any{"title": "Carol's", "steps": []map[string]any{{"goal": "A."}}})
	stdio := e.client("carol", "c1")
	if p, _ := ok(t, stdio, "view_plan", nil); p.Title != "Carol's" {
		t.Errorf("the plan is not carol's in c1: %q", p.Title)
	}
}

func TestHTTPStateless(t *testing.T) {
	e := newEnv(t, nil)
	ts := newHTTP(t, e, server.HTTPOptions{Tokens: testTokens(t), Stateless: true}, "")
	with := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "c1"})
	ok(t, with, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A."}}})
	ok(t, with, "update_plan", map[string]any{"check": []string{"1"}})
	without := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken})
	if msg := fails(t, without, "view_plan", nil); !strings.Contains(msg, server.ConversationHeader) {
		t.Errorf("stateless without the header: %s", msg)
	}
}

func TestHTTPBodyLimit(t *testing.T) {
	e := newEnv(t, nil)
	ts := newHTTP(t, e, server.HTTPOptions{Tokens: testTokens(t), MaxBodyBytes: 4096}, "")
	big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 8192) + `"}}`
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(big)
		if chunked {
			body = io.MultiReader(bytes.NewReader([]byte(big))) // no length: sent chunked
		}
		req, _ := http.NewRequest("POST", ts.URL+server.MCPPath, body)
		req.Header.Set("Authorization", "Bearer "+aliceToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked=%v: status %d, want 413", chunked, resp.StatusCode)
		}
	}
}
