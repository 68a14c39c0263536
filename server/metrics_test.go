package server_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/tools"
)

// scrape reads url's Prometheus text and returns each sample by its series,
// `name{label="v",...}` as written. A status other than 200 fails.
func scrape(t *testing.T, url, token string) map[string]float64 {
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
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMetrics makes tool calls over streamable HTTP with bearer tokens, on
// a real SQLite file, and reads the counters back from /metrics: calls by
// tool and outcome, their latency, plans created and closed (a superseded
// plan is closed as cancelled), a store conflict (another writer changes
// the plan between an update's load and its save: the update retries and
// wins) and a store failure (the database closed under the server).
func TestMetrics(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "plans.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })

	// The clock is read between an update's load and its save: once
	// armed, it lets another writer change the plan there.
	var (
		mu    sync.Mutex
		armed *store.Key
	)
	now := func() time.Time {
		mu.Lock()
		k := armed
		armed = nil
		mu.Unlock()
		if k != nil {
			_, err := store.Update(context.Background(), st, *k, func(cur *plan.Plan) (*plan.Plan, error) {
				return plan.Update(cur, plan.Changes{Skip: []string{"3"}}, fixedNow)
			})
			if err != nil {
				t.Errorf("the other writer: %v", err)
			}
		}
		return fixedNow
	}
	srv, err := server.New(server.Options{Planner: &tools.Planner{Store: st, Now: now}, Catalog: newEnv(t, st).catalog, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// Closed after the clients (cleanups run last first), whose event
	// streams it would wait for.
	ts := httptest.NewServer(srv.Handler(server.HTTPOptions{Tokens: testTokens(t)}))
	t.Cleanup(ts.Close)
	metrics := ts.URL + server.MetricsPath

	// Before any call: every tool and outcome at zero.
	m := scrape(t, metrics, bobToken)
	if v, ok := m[`skillc_tool_calls_total{outcome="ok",tool="close_plan"}`]; !ok || v != 0 {
		t.Errorf("close_plan ok before any call: %v, %v", v, ok)
	}

	alice := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "conv-1"})
	bob := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + bobToken, server.ConversationHeader: "conv-1"})
	ok(t, alice, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	ok(t, alice, "make_plan", map[string]any{"skill": "acat-reimbursement"}) // supersedes the first
	ok(t, alice, "update_plan", map[string]any{"fail": []string{"1"}})
	fails(t, alice, "update_plan", map[string]any{"check": []string{"9"}})
	fails(t, alice, "make_plan", map[string]any{})
	fails(t, bob, "view_plan", nil)
	ok(t, alice, "view_plan", nil)

	mu.Lock()
	armed = &store.Key{User: "alice", Session: "conv-1"}
	mu.Unlock()
	p, _ := ok(t, alice, "update_plan", map[string]any{"check": []string{"2"}})
	if statuses(p) != "1=failed 2=done 3=skipped 4=pending" {
		t.Errorf("the update that lost a race: %s", statuses(p))
	}
	ok(t, alice, "close_plan", map[string]any{"note": "one record"})

	st.Close() // the store fails from here on
	fails(t, alice, "view_plan", nil)

	m = scrape(t, metrics, aliceToken)
	want := map[string]float64{
		`skillc_tool_calls_total{outcome="ok",tool="make_plan"}`:        2,
		`skillc_tool_calls_total{outcome="refused",tool="make_plan"}`:   1,
		`skillc_tool_calls_total{outcome="ok",tool="update_plan"}`:      2,
		`skillc_tool_calls_total{outcome="refused",tool="update_plan"}`: 1,
		`skillc_tool_calls_total{outcome="ok",tool="view_plan"}`:        1,
		`skillc_tool_calls_total{outcome="refused",tool="view_plan"}`:   1,
		`skillc_tool_calls_total{outcome="error",tool="view_plan"}`:     1,
		`skillc_tool_calls_total{outcome="ok",tool="close_plan"}`:       1,
		`skillc_tool_calls_total{outcome="error",tool="close_plan"}`:    0,
		`skillc_tool_call_duration_seconds_count{tool="update_plan"}`:   3,
		`skillc_tool_call_duration_seconds_count{tool="view_plan"}`:     3,
		`skillc_plans_created_total`:                                    2,
		`skillc_plans_closed_total{status="cancelled"}`:                 1,
		`skillc_plans_closed_total{status="completed"}`:                 1,
		`skillc_plans_closed_total{status="failed"}`:                    0,
		`skillc_store_conflicts_total`:                                  1,
		`skillc_store_errors_total{op="load"}`:                          1,
		// make, make, update, update (twice: the conflict), close.
		`skillc_store_operation_duration_seconds_count{op="save"}`: 6,
	}
	for series, w := range want {
		if got, ok := m[series]; !ok || got != w {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, w)
		}
	}
	if m[`skillc_tool_call_duration_seconds_sum{tool="make_plan"}`] <= 0 {
		t.Errorf("make_plan's latency sum is not positive")
	}
	if _, ok := m["go_goroutines"]; !ok {
		t.Errorf("no Go runtime metrics")
	}
}

// TestMetricsAuth: on the main address /metrics needs a bearer token when
// the server has tokens, and none on loopback without them; with NoMetrics
// it is not there, and MetricsHandler serves it elsewhere.
func TestMetricsAuth(t *testing.T) {
	e := newEnv(t, nil)
	ts := newHTTP(t, e, server.HTTPOptions{Tokens: testTokens(t)}, "")
	for _, auth := range []string{"", "Bearer nope-not-a-token-at-all", "Basic YWxpY2U6eA=="} {
		req, _ := http.NewRequest("GET", ts.URL+server.MetricsPath, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("/metrics with %q: %d %q, want 401 with a Bearer challenge", auth, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
	scrape(t, ts.URL+server.MetricsPath, aliceToken)

	open := newHTTP(t, e, server.HTTPOptions{}, "alice")
	scrape(t, open.URL+server.MetricsPath, "")

	s := e.server("alice", "")
	main := httptest.NewServer(s.Handler(server.HTTPOptions{NoMetrics: true}))
	t.Cleanup(main.Close)
	resp, err := http.Get(main.URL + server.MetricsPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("/metrics with NoMetrics: %d, want 404", resp.StatusCode)
	}
	side := httptest.NewServer(s.MetricsHandler())
	t.Cleanup(side.Close)
	cs := httpClient(t, main.URL, nil)
	ok(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	if m := scrape(t, side.URL+server.MetricsPath, ""); m[`skillc_plans_created_total`] != 1 {
		t.Errorf("the metrics handler elsewhere does not count the main address's calls: %v", m[`skillc_plans_created_total`])
	}
}

// TestMetricsPanic: a handler that panics is an error, not a refusal, and
// the next call on the same server counts as usual.
func TestMetricsPanic(t *testing.T) {
	e := newEnv(t, panicStore{memory.New(store.Options{})})
	s := e.server("boom", "chat-1")
	fails(t, connect(t, s), "view_plan", nil)
	side := httptest.NewServer(s.MetricsHandler())
	t.Cleanup(side.Close)
	m := scrape(t, side.URL, "")
	if m[`skillc_tool_calls_total{outcome="error",tool="view_plan"}`] != 1 || m[`skillc_tool_calls_total{outcome="refused",tool="view_plan"}`] != 0 {
		t.Errorf("a panic: error %v, refused %v", m[`skillc_tool_calls_total{outcome="error",tool="view_plan"}`], m[`skillc_tool_calls_total{outcome="refused",tool="view_plan"}`])
	}
}

// TestMetricsText: the text format's shape, which the server writes around
// the library's samples: each skillc family has one HELP and one TYPE line,
// before its samples and with them together, and no series is written twice.
func TestMetricsText(t *testing.T) {
	s := newEnv(t, nil).server("alice", "chat-1")
	side := httptest.NewServer(s.MetricsHandler())
	t.Cleanup(side.Close)
	resp, err := http.Get(side.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	help, typ, seen := map[string]int{}, map[string]string{}, map[string]bool{}
	family := "" // the family of the last TYPE line
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "# HELP "):
			help[f[2]]++
			if len(f) < 4 && strings.HasPrefix(f[2], "skillc_") {
				t.Errorf("%s: no help text", f[2])
			}
		case strings.HasPrefix(line, "# TYPE "):
			if _, ok := typ[f[2]]; ok {
				t.Errorf("%s: a second TYPE line", f[2])
			}
			typ[f[2]], family = f[3], f[2]
		case strings.HasPrefix(line, "skillc_"):
			name := line[:strings.IndexAny(line, "{ ")]
			if name != family && strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count") != family {
				t.Errorf("%q: not under its family's TYPE line (the last was %q)", line, family)
			}
			series := line[:strings.LastIndexByte(line, ' ')]
			if seen[series] {
				t.Errorf("%s: written twice", series)
			}
			seen[series] = true
		}
	}
	for _, f := range []string{"skillc_tool_calls_total", "skillc_tool_call_duration_seconds", "skillc_store_operation_duration_seconds",
		"skillc_store_conflicts_total", "skillc_store_errors_total", "skillc_plans_created_total", "skillc_plans_closed_total"} {
		if help[f] != 1 || typ[f] == "" {
			t.Errorf("%s: %d HELP lines, TYPE %q", f, help[f], typ[f])
		}
	}
	if typ["skillc_tool_call_duration_seconds"] != "histogram" || typ["skillc_tool_calls_total"] != "counter" {
		t.Errorf("types: %v", typ)
	}
	if !seen[`skillc_tool_call_duration_seconds_bucket{tool="view_plan",le="+Inf"}`] {
		t.Errorf("no +Inf bucket of view_plan's latency")
	}
}
