package server_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
)

// noPicture is a PlanPicture for a server that cannot draw: the page
// shows the checklist and says why there is no picture.
func noPicture(context.Context, *plan.Plan) ([]byte, error) {
	return nil, errors.New("drawing is off in this test")
}

// webEnv is a server with tokens and the plans of two users.
type webEnv struct {
	*env
	ts *httptest.Server
}

func newWebEnv(t *testing.T, tokens bool) *webEnv {
	t.Helper()
	e := newEnv(t, nil)
	opts := server.HTTPOptions{PlanPicture: noPicture}
	user := "alice"
	if tokens {
		opts.Tokens, user = testTokens(t), ""
	}
	w := &webEnv{env: e, ts: newHTTP(t, e, opts, user)}
	w.make("alice", "ticket/4711 ü", plan.MakeInput{Title: "Refund <b>the</b> fee", Objective: `"Quoted" & <script>alert(1)</script>`,
		Steps: []graph.Step{{Goal: "Find the transfer.", RecommendedTools: []string{"list_transfers"}}, {Goal: "Credit <it>."}}})
	w.make("bob", "bob-chat", plan.MakeInput{Title: "Bob's private plan", Steps: []graph.Step{{Goal: "Bob's step."}}})
	return w
}

func (w *webEnv) make(user, conv string, in plan.MakeInput) {
	w.t.Helper()
	if _, err := w.planner().Make(context.Background(), store.Key{User: user, Session: conv}, in); err != nil {
		w.t.Fatal(err)
	}
}

// client does not follow redirects, so each answer is seen as sent.
func (w *webEnv) do(t *testing.T, method, path string, body url.Values, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(body.Encode())
	}
	req, err := http.NewRequest(method, w.ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// signIn posts a token to the form and returns the cookie header to send.
func (w *webEnv) signIn(t *testing.T, token string) string {
	t.Helper()
	resp, _ := w.do(t, "POST", "/ui/login", url.Values{"token": {token}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in: %d", resp.StatusCode)
	}
	var cookies []string
	for _, c := range resp.Cookies() {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	return strings.Join(cookies, "; ")
}

func TestWebViewRoutes(t *testing.T) {
	w := newWebEnv(t, true)
	alice, bob := w.signIn(t, aliceToken), w.signIn(t, bobToken)
	aliceConv := "/ui/plans/" + url.PathEscape("ticket/4711 ü")
	tests := []struct {
		name, method, path string
		form               url.Values
		hdr                map[string]string
		code               int
		location           string // of a redirect
		has, hasNot        []string
	}{
		{name: "root leads to the view", method: "GET", path: "/", code: 303, location: "/ui/"},
		{name: "no slash", method: "GET", path: "/ui", code: 303, location: "/ui/"},
		{name: "not signed in: the form", method: "GET", path: "/ui/", code: 303, location: "/ui/login"},
		{name: "a plan, not signed in", method: "GET", path: aliceConv, code: 303, location: "/ui/login"},
		{name: "events, not signed in", method: "GET", path: "/ui/events", code: 401},
		{name: "a forged cookie", method: "GET", path: "/ui/", hdr: map[string]string{"Cookie": "skillc_ui=" + strings.Repeat("ab", 32)}, code: 303, location: "/ui/login"},
		{name: "the token as the cookie", method: "GET", path: "/ui/", hdr: map[string]string{"Cookie": "skillc_ui=" + aliceToken}, code: 303, location: "/ui/login"},
		{name: "the form", method: "GET", path: "/ui/login", code: 200, has: []string{`<form method="post" action="/ui/login">`, `type="password"`}},
		{name: "a wrong token", method: "POST", path: "/ui/login", form: url.Values{"token": {"not-a-token-of-ours"}}, code: 401, has: []string{"not one of this server&#39;s tokens"}},
		{name: "a token in the URL only", method: "POST", path: "/ui/login?token=" + aliceToken, form: url.Values{}, code: 401},
		{name: "a login from another site", method: "POST", path: "/ui/login", form: url.Values{"token": {aliceToken}}, hdr: map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, code: 403},
		{name: "a login from another origin", method: "POST", path: "/ui/login", form: url.Values{"token": {aliceToken}}, hdr: map[string]string{"Origin": "http://evil.example"}, code: 403},
		{name: "a logout from another site", method: "POST", path: "/ui/logout", form: url.Values{}, hdr: map[string]string{"Cookie": alice, "Sec-Fetch-Site": "cross-site"}, code: 403},
		{name: "a huge form", method: "POST", path: "/ui/login", form: url.Values{"token": {strings.Repeat("x", 20000)}}, code: 400},
		{name: "signed in, the form leads on", method: "GET", path: "/ui/login", hdr: map[string]string{"Cookie": alice}, code: 303, location: "/ui/"},
		{name: "alice's list", method: "GET", path: "/ui/", hdr: map[string]string{"Cookie": alice}, code: 200,
			has: []string{"Refund &lt;b&gt;the&lt;/b&gt; fee", `href="/ui/plans/ticket%2F4711%20%C3%BC"`, "signed in as <b>alice</b>"}, hasNot: []string{"Bob", "bob-chat"}},
		{name: "bob's list", method: "GET", path: "/ui/", hdr: map[string]string{"Cookie": bob}, code: 200, has: []string{"Bob&#39;s private plan"}, hasNot: []string{"Refund", "ticket"}},
		{name: "alice's plan", method: "GET", path: aliceConv, hdr: map[string]string{"Cookie": alice}, code: 200,
			has:    []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "Credit &lt;it&gt;.", "No picture: drawing is off in this test"},
			hasNot: []string{"<script>alert", "<it>"}},
		{name: "bob's plan, for alice", method: "GET", path: "/ui/plans/bob-chat", hdr: map[string]string{"Cookie": alice}, code: 404, hasNot: []string{"Bob&#39;s"}},
		{name: "bob's plan's events, for alice", method: "GET", path: "/ui/plans/bob-chat/events", hdr: map[string]string{"Cookie": alice}, code: 404},
		{name: "alice's conversation, for bob", method: "GET", path: aliceConv, hdr: map[string]string{"Cookie": bob}, code: 404, hasNot: []string{"Refund"}},
		{name: "a conversation no plan can have", method: "GET", path: "/ui/plans/a%01b", hdr: map[string]string{"Cookie": alice}, code: 404},
		{name: "a conversation not UTF-8", method: "GET", path: "/ui/plans/%FF%FE", hdr: map[string]string{"Cookie": alice}, code: 404},
		{name: "a conversation too long", method: "GET", path: "/ui/plans/" + strings.Repeat("x", 300), hdr: map[string]string{"Cookie": alice}, code: 404},
		{name: "the script", method: "GET", path: "/ui/static/ui.js", code: 200, has: []string{"EventSource"}},
		{name: "a template is not a file", method: "GET", path: "/ui/static/page.html", code: 404},
		{name: "no such page", method: "GET", path: "/ui/nothing/here", hdr: map[string]string{"Cookie": alice}, code: 404},
		{name: "read-only", method: "POST", path: aliceConv, form: url.Values{}, hdr: map[string]string{"Cookie": alice}, code: 405},
		{name: "sign out", method: "POST", path: "/ui/logout", form: url.Values{}, hdr: map[string]string{"Cookie": alice}, code: 303, location: "/ui/login"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := w.do(t, tc.method, tc.path, tc.form, tc.hdr)
			if resp.StatusCode != tc.code {
				t.Fatalf("%s %s: %d, want %d\n%s", tc.method, tc.path, resp.StatusCode, tc.code, body)
			}
			if loc := resp.Header.Get("Location"); loc != tc.location {
				t.Errorf("Location %q, want %q", loc, tc.location)
			}
			for _, s := range tc.has {
				if !strings.Contains(body, s) {
					t.Errorf("the answer lacks %q:\n%s", s, body)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(body, s) {
					t.Errorf("the answer holds %q:\n%s", s, body)
				}
			}
			if strings.HasPrefix(tc.path, "/ui/") && resp.StatusCode != 405 {
				if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
					t.Errorf("Content-Security-Policy %q", csp)
				}
				if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
					t.Error("no X-Content-Type-Options: nosniff")
				}
			}
		})
	}
}

func TestWebViewCookie(t *testing.T) {
	w := newWebEnv(t, true)
	resp, _ := w.do(t, "POST", "/ui/login", url.Values{"token": {" " + aliceToken + " "}}, map[string]string{"Origin": w.ts.URL})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/" {
		t.Fatalf("sign in: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	raw := resp.Header.Get("Set-Cookie")
	for _, want := range []string{"skillc_ui=", "Path=/ui/", "HttpOnly", "SameSite=Strict"} {
		if !strings.Contains(raw, want) {
			t.Errorf("Set-Cookie %q lacks %q", raw, want)
		}
	}
	if strings.Contains(raw, aliceToken) {
		t.Errorf("the cookie holds the token: %q", raw)
	}
}

// TestWebViewLoopback: without tokens, the page shows the server's user
// and asks nobody to sign in.
func TestWebViewLoopback(t *testing.T) {
	w := newWebEnv(t, false)
	for _, tc := range []struct {
		path     string
		code     int
		location string
		has      string
	}{
		{"/ui/", 200, "", "plans of <b>alice</b>"},
		{"/ui/login", 303, "/ui/", ""},
		{"/ui/plans/bob-chat", 404, "", "No such plan"},
	} {
		resp, body := w.do(t, "GET", tc.path, nil, nil)
		if resp.StatusCode != tc.code || resp.Header.Get("Location") != tc.location || !strings.Contains(body, tc.has) {
			t.Errorf("GET %s: %d to %q, want %d to %q with %q:\n%s", tc.path, resp.StatusCode, resp.Header.Get("Location"), tc.code, tc.location, tc.has, body)
		}
	}
}

// TestWebViewPage: the plan's page, with a history, as a golden file.
func TestWebViewPage(t *testing.T) {
	w := newWebEnv(t, false)
	key := store.Key{User: "alice", Session: "ticket/4711 ü"}
	if _, err := w.planner().Update(context.Background(), key, plan.Changes{Check: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.planner().Close(context.Background(), key, "Credited <twice>?", "", plan.Changes{Fail: []string{"2"}}); err != nil {
		t.Fatal(err)
	}
	_, body := w.do(t, "GET", "/ui/plans/"+url.PathEscape(key.Session), nil, nil)
	golden.Check(t, filepath.Join("testdata", "ui", "plan.html"), []byte(body))
	_, body = w.do(t, "GET", "/ui/", nil, nil)
	golden.Check(t, filepath.Join("testdata", "ui", "list.html"), []byte(body))
}

// sse reads server-sent events.
type sse struct {
	t  *testing.T
	rd *bufio.Reader
}

func openEvents(t *testing.T, ctx context.Context, url, cookie string) *sse {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return &sse{t: t, rd: bufio.NewReader(resp.Body)}
}

// next returns the next event's name and data, or "" at the stream's end.
func (s *sse) next() (name, data string) {
	var lines []string
	for {
		line, err := s.rd.ReadString('\n')
		if err != nil {
			return "", ""
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && (name != "" || lines != nil):
			return name, strings.Join(lines, "\n")
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			lines = append(lines, strings.TrimPrefix(line, "data: "))
		}
	}
}

// TestWebViewEvents: the plan's stream sends the new view when the plan
// changes, nothing for other users' changes, and says when the plan is
// gone; the list's stream follows the list.
func TestWebViewEvents(t *testing.T) {
	w := newWebEnv(t, true)
	alice := w.signIn(t, aliceToken)
	key := store.Key{User: "alice", Session: "ticket/4711 ü"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	planEvents := openEvents(t, ctx, w.ts.URL+"/ui/plans/"+url.PathEscape(key.Session)+"/events?id=plan-1&v=1", alice)
	listEvents := openEvents(t, ctx, w.ts.URL+"/ui/events", alice)

	// The list's page had no fingerprint: the stream sends the list at once.
	if name, data := listEvents.next(); name != "view" || !strings.Contains(data, `data-conversation="ticket/4711 ü"`) {
		t.Fatalf("the list's first event: %q %.200q", name, data)
	}
	// Bob's change wakes alice's streams, which find nothing new to send.
	if _, err := w.planner().Update(ctx, store.Key{User: "bob", Session: "bob-chat"}, plan.Changes{Check: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.planner().Update(ctx, key, plan.Changes{Check: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	name, data := planEvents.next()
	if name != "view" || !strings.Contains(data, `data-version="2"`) || !strings.Contains(data, `data-step="2" data-status="in_progress"`) {
		t.Fatalf("after the update: %q %q", name, data)
	}
	if strings.Contains(data, "Bob") {
		t.Fatalf("alice's stream carries bob's plan: %q", data)
	}
	if name, data := listEvents.next(); name != "view" || !regexp.MustCompile(`<td>1/2</td>`).MatchString(data) {
		t.Fatalf("the list after the update: %q %q", name, data)
	}
	// A superseding plan is a new plan in the same conversation.
	w.make("alice", key.Session, plan.MakeInput{Title: "The next plan", Steps: []graph.Step{{Goal: "Again."}}})
	if name, data := planEvents.next(); name != "view" || !strings.Contains(data, "The next plan") {
		t.Fatalf("after make_plan: %q %q", name, data)
	}
}

// TestWebViewStreamsEndOnShutdown: an open event stream does not hold
// the server's shutdown for its grace period.
func TestWebViewStreamsEndOnShutdown(t *testing.T) {
	e := newEnv(t, nil)
	s := e.server("alice", "")
	if _, err := e.planner().Make(context.Background(), store.Key{User: "alice", Session: "c1"}, plan.MakeInput{Title: "t", Steps: []graph.Step{{Goal: "One."}}}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, s.Handler(server.HTTPOptions{PlanPicture: noPicture})) }()
	ev := openEvents(t, context.Background(), "http://"+ln.Addr().String()+"/ui/plans/c1/events", "")
	if name, _ := ev.next(); name != "view" {
		t.Fatalf("first event %q", name)
	}
	start := time.Now()
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(server.ShutdownGrace / 2):
		t.Fatal("an open event stream held the shutdown")
	}
	if name, _ := ev.next(); name != "" {
		t.Fatalf("the stream goes on after shutdown: %q", name)
	}
	t.Logf("shut down in %s", time.Since(start))
}
