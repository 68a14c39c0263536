package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store/postgres/pgtest"
)

// browserPath is Debian's chromium, or skips (fails under CI, whose
// .ci/run installs it).
func browserPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed, and CI is set (.ci/run installs it)")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// newBrowser starts a headless chromium with a fresh profile, and none of
// the background connections a closed network refuses.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browserPath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	// The first run starts the browser and ties it to the context it is
	// given: this one, not the shorter one of a single step.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", browserPath(t), err)
	}
	return ctx
}

// watchConsole collects what the page writes to its console, from now
// on; the func returned gives what came so far.
func watchConsole(ctx context.Context) func() []chromedp.ConsoleMessage {
	var (
		mu  sync.Mutex
		got []chromedp.ConsoleMessage
	)
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			mu.Lock()
			got = append(got, m)
			mu.Unlock()
		}
	}()
	return func() []chromedp.ConsoleMessage {
		time.Sleep(200 * time.Millisecond) // what is on its way
		mu.Lock()
		defer mu.Unlock()
		return append([]chromedp.ConsoleMessage(nil), got...)
	}
}

// TestWebViewBrowser drives the web view of a real `skillc serve --http`
// (tokens, a SQLite file) in a real browser: sign in through the form,
// see the plan an agent made over MCP, see an update over MCP arrive
// without a reload, and never see another user's plan. With -update it
// keeps the page's screenshot in docs/ui.png.
func TestWebViewBrowser(t *testing.T) {
	const (
		aliceToken = "alice-web-token-0123456789"
		bobToken   = "bob-web-token-0123456789ab"
	)
	ctx := newBrowser(t)
	bin := skillcOnPath(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	if err := os.WriteFile(tokens, []byte(aliceToken+" alice\n"+bobToken+" bob\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startBinaryHTTP(t, nil, bin, "serve", "--http", "127.0.0.1:0", "--tokens", tokens, "--store", "sqlite:"+filepath.Join(dir, "plans.db"))
	base := srv.url

	alice := pgE2EConnect(t, base+"/mcp", aliceToken, "ticket-4711")
	pgE2EMust(t, alice, "make_plan", map[string]any{"skill": "acat-reimbursement", "objective": "Refund the ACAT fee charged on the transfer of 3 May."})
	bob := pgE2EConnect(t, base+"/mcp", bobToken, "bob-chat")
	pgE2EMust(t, bob, "make_plan", map[string]any{"title": "Bob's private plan", "steps": []map[string]any{{"goal": "Something of bob's."}}})

	console := watchConsole(ctx)
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		// A step that never comes fails in 20 s, not at the test's end.
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, srv.logText())
		}
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return v
	}

	// Not signed in: / leads to /ui/, which leads to the form.
	do("open the web view", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("token")))
	if loc := eval(`location.pathname`); loc != "/ui/login" {
		t.Fatalf("not signed in, / ends at %s, want /ui/login", loc)
	}
	do("a wrong token", chromedp.SendKeys(chromedp.ID("token"), "not-a-token-of-this-server"), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.CSS(".error")))
	do("sign in", chromedp.SetValue(chromedp.ID("token"), aliceToken), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-conversation="ticket-4711"]`)))
	list := eval(`document.querySelector("main").innerText`)
	if !strings.Contains(list, "ACAT reimbursement") || strings.Contains(list, "Bob") {
		t.Fatalf("alice's list:\n%s", list)
	}
	if c := eval(`document.cookie`); c != "" {
		t.Errorf("the page can read a cookie (%q): the sign-in cookie must be HttpOnly", c)
	}

	// The plan, and the page kept live.
	do("open the plan", chromedp.Click(chromedp.CSS(`tr[data-conversation="ticket-4711"] a`)),
		chromedp.WaitVisible(chromedp.CSS(`#checklist li[data-step="1"][data-status="in_progress"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#live[data-state="on"]`)))
	if got := eval(`document.getElementById("objective").innerText`); !strings.Contains(got, "3 May") {
		t.Errorf("objective %q", got)
	}
	if eval(`document.getElementById("picture") ? "picture" : document.getElementById("nopicture").innerText`) != "picture" {
		t.Errorf("no picture: %s", eval(`document.getElementById("nopicture").innerText`))
	}
	// A reload would forget this.
	eval(`window.notReloaded = "yes"; "ok"`)
	pgE2EMust(t, alice, "update_plan", map[string]any{"fail": []string{"1"}})
	do("see the update", chromedp.WaitVisible(chromedp.CSS(`#checklist li[data-step="1"][data-status="failed"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#checklist li[data-step="2"][data-status="in_progress"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#timeline li[data-tool="update_plan"]`)))
	pgE2EMust(t, alice, "update_plan", map[string]any{"check": []string{"2"}})
	do("see the next update", chromedp.WaitVisible(chromedp.CSS(`#checklist li[data-step="3"][data-status="in_progress"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#timeline li[data-version="3"]`)))
	if eval(`window.notReloaded || "reloaded"`) != "yes" {
		t.Fatal("the page was reloaded to show the update")
	}
	if *golden.Update {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "ui.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Bob's plan does not exist for alice: not in the page, not by URL,
	// not as an event stream.
	for _, path := range []string{"/ui/plans/bob-chat", "/ui/plans/bob-chat/events"} {
		if got := eval(`fetch("` + path + `").then(r => String(r.status))`); got != "404" {
			t.Errorf("alice fetching %s: %s, want 404", path, got)
		}
	}
	do("bob's plan by its URL", chromedp.Navigate(base+"/ui/plans/bob-chat"), chromedp.WaitVisible(chromedp.CSS("section.message")))
	if got := eval(`document.body.innerText`); strings.Contains(got, "Bob's private plan") || !strings.Contains(got, "No such plan") {
		t.Errorf("alice at bob's plan's URL:\n%s", got)
	}

	// The page ran within its Content-Security-Policy, without an
	// exception. (The 401 and 404s above are logged, and expected.)
	for _, m := range console() {
		if m.IsException() || strings.Contains(m.Text, "Content Security Policy") {
			t.Errorf("console: %s:%d %s", m.URL, m.Line+1, m)
		}
	}

	// Signing out ends the session.
	do("sign out", chromedp.Navigate(base+"/ui/"), chromedp.WaitVisible(chromedp.CSS(".logout button")),
		chromedp.Click(chromedp.CSS(".logout button")), chromedp.WaitVisible(chromedp.ID("token")))
	resp, err := http.Get(base + "/ui/plans/ticket-4711")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.Request.URL.Path != "/ui/login" {
		t.Errorf("without a cookie the plan's page ends at %s, want the login form", resp.Request.URL.Path)
	}
}

// TestWebViewBrowserReplicas: two `skillc serve --http` on one PostgreSQL
// schema; the page open on one follows a plan that an agent changes
// through the other (LISTEN/NOTIFY), without a reload.
func TestWebViewBrowserReplicas(t *testing.T) {
	dsn := pgtest.DSN(t)
	bin := pgE2EBinary(t)
	ctx := newBrowser(t)
	storeDSN := pgtest.WithSearchPath(t, dsn, pgtest.Schema(t, dsn))
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte(pgE2ETokenAlice+" alice\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	viewed := strings.TrimSuffix(pgE2EServe(t, bin, storeDSN, tokens), server.MCPPath)
	other := pgE2EServe(t, bin, storeDSN, tokens, "--stateless")
	agent := pgE2EConnect(t, other, pgE2ETokenAlice, "replicated")
	pgE2EMust(t, agent, "make_plan", map[string]any{"skill": "acat-reimbursement"})

	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do("sign in", chromedp.Navigate(viewed+"/ui/login"), chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SetValue(chromedp.ID("token"), pgE2ETokenAlice), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-conversation="replicated"]`)))
	do("open the plan", chromedp.Navigate(viewed+"/ui/plans/replicated"),
		chromedp.WaitVisible(chromedp.CSS(`#checklist li[data-step="1"][data-status="in_progress"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#live[data-state="on"]`)))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.notReloaded = "yes"`)); err != nil {
		t.Fatal(err)
	}
	pgE2EMust(t, agent, "update_plan", map[string]any{"fail": []string{"1"}})
	do("see the other replica's update", chromedp.WaitVisible(chromedp.CSS(`#checklist li[data-step="2"][data-status="in_progress"]`)))
	pgE2EMust(t, agent, "close_plan", map[string]any{"note": "Done elsewhere.", "check": []string{"2", "3"}})
	do("see it closed", chromedp.WaitVisible(chromedp.CSS(`#status[data-status="completed"]`)))
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.notReloaded || "reloaded"`)); err != nil || got != "yes" {
		t.Fatalf("the page was reloaded (%q, %v)", got, err)
	}
}
