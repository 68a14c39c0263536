package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/upstreamtest"
	"github.com/skillc/skillc/plan"
)

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []Upstream // Pos is not compared
		err       string
	}{
		{name: "stdio and http", src: `{"mcpServers": {
  "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"A": "1"}},
  "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}, "autoApprove": []}
}}`, want: []Upstream{
			{Name: "fs", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Env: map[string]string{"A": "1"}, Type: "stdio"},
			{Name: "remote", URL: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}, Type: "http"},
		}},
		{name: "other keys and disabled servers", src: `{"globalShortcut": "x", "mcpServers": {"a": {"command": "a"}, "b": {"command": "b", "disabled": true}, "c": {"type": "sse", "url": "http://127.0.0.1:1/sse"}}}`,
			want: []Upstream{{Name: "a", Command: "a", Type: "stdio"}, {Name: "c", URL: "http://127.0.0.1:1/sse", Type: "sse"}}},
		{name: "empty", src: `{"mcpServers": {}}`},
		{name: "not JSON", src: "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",}\n}}", err: `up.json:2:24: invalid JSON`},
		{name: "cut off", src: `{"mcpServers": {"a": {"command": "x"`, err: `the JSON ends early`},
		{name: "no mcpServers", src: `{"servers": {}}`, err: `up.json:1:1: no "mcpServers" key`},
		{name: "array", src: `[]`, err: `up.json:1:1: the file must be a JSON object`},
		{name: "servers not an object", src: `{"mcpServers": []}`, err: `up.json:1:16: "mcpServers" must be a JSON object`},
		{name: "neither", src: `{"mcpServers": {"a": {"args": []}}}`, err: `up.json:1:17: server "a" has neither "command" nor "url"`},
		{name: "both", src: `{"mcpServers": {"a": {"command": "x", "url": "http://h/mcp"}}}`, err: `server "a" has both "command" and "url"`},
		{name: "args not strings", src: "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [1]}}}", err: `up.json:1:48: "args": want a JSON string, got a JSON number`},
		{name: "bad url", src: `{"mcpServers": {"a": {"url": "localhost:3000"}}}`, err: `want an http:// or https:// URL`},
		{name: "bad type", src: `{"mcpServers": {"a": {"type": "ws", "url": "http://h/"}}}`, err: `has type "ws"; want stdio, http or sse`},
		{name: "name with __", src: `{"mcpServers": {"a__b": {"command": "x"}}}`, err: `separates the server from the tool`},
		{name: "name with a space", src: `{"mcpServers": {"my server": {"command": "x"}}}`, err: `server name "my server" has ' '`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConfig("up.json", []byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if !strings.HasPrefix(got[i].Pos, "up.json:") {
					t.Errorf("server %q at %q, want up.json:LINE:COL", got[i].Name, got[i].Pos)
				}
				got[i].Pos = ""
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestLoadConfigMissing(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "nope.json"))
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("error %v", err)
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, make([]byte, MaxConfigBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(big); err == nil || !strings.Contains(err.Error(), "over") {
		t.Fatalf("error %v", err)
	}
}

func tools(names ...string) []*mcp.Tool {
	var out []*mcp.Tool
	for _, n := range names {
		out = append(out, &mcp.Tool{Name: n})
	}
	return out
}

func offeredNames(n *Names) []string {
	var out []string
	for _, o := range n.All() {
		out = append(out, o.Upstream+":"+o.Tool.Name+"="+o.Name)
	}
	return out
}

func TestNameTools(t *testing.T) {
	n := NameTools(map[string][]*mcp.Tool{
		"fs":    tools("read_file", "search", "make_plan"),
		"web":   tools("fetch", "search"),
		"other": tools("echo", "echo"),
	}, []string{"make_plan", "view_plan"})
	want := []string{"fs:read_file=read_file", "fs:search=fs__search", "fs:make_plan=fs__make_plan", "other:echo=echo", "web:fetch=fetch", "web:search=web__search"}
	if got := offeredNames(n); !reflect.DeepEqual(got, want) {
		t.Errorf("offered %v\nwant %v", got, want)
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"read_file", []string{"read_file"}},
		{"fs__read_file", []string{"read_file"}},
		{"search", []string{"fs__search", "web__search"}},
		{"web__search", []string{"web__search"}},
		{"make_plan", nil}, // the plan tool, not fs's
		{"fs__make_plan", []string{"fs__make_plan"}},
		{"Bash(git:*)", nil},
		{"fetch(https://*)", []string{"fetch"}},
		{"ask_user", nil},
	} {
		if got := n.Resolve(tc.name); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Resolve(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if o, ok := n.Lookup("web__search"); !ok || o.Upstream != "web" || o.Tool.Name != "search" {
		t.Errorf("Lookup(web__search) = %+v, %v", o, ok)
	}
}

func TestSetFor(t *testing.T) {
	n := NameTools(map[string][]*mcp.Tool{
		"fs":  tools("read_file", "list_dir", "search"),
		"web": tools("fetch", "search"),
	}, nil)
	step := func(id string, st plan.StepStatus, tools ...string) plan.Step {
		return plan.Step{Step: graph.Step{ID: id, Goal: "Goal " + id + ".", RecommendedTools: tools}, Status: st}
	}
	mk := func(status plan.Status, skill string, steps ...plan.Step) *plan.Plan {
		return &plan.Plan{ID: "p", Status: status, Skill: skill, Steps: steps}
	}
	allowed := func(skill string) ([]string, bool) {
		if skill == "research" {
			return []string{"fetch", "ask_user", "fs__search"}, true
		}
		return nil, false
	}
	for _, tc := range []struct {
		name string
		p    *plan.Plan
		all  bool
		want []string
	}{
		{"no plan", nil, true, nil},
		{"closed", mk(plan.StatusCompleted, "", step("1", plan.StepDone, "fetch")), true, nil},
		{"one step", mk(plan.StatusActive, "", step("1", plan.StepInProgress, "read_file", "ask_user"), step("2", plan.StepPending, "fetch")), false, []string{"read_file"}},
		{"clash, plain name", mk(plan.StatusActive, "", step("1", plan.StepInProgress, "search")), false, []string{"fs__search", "web__search"}},
		{"clash, long name", mk(plan.StatusActive, "", step("1", plan.StepInProgress, "web__search")), false, []string{"web__search"}},
		{"two in progress", mk(plan.StatusActive, "", step("1", plan.StepInProgress, "fetch"), step("2", plan.StepInProgress, "list_dir")), false, []string{"fetch", "list_dir"}},
		{"no tools, skill's allowed-tools", mk(plan.StatusActive, "research", step("1", plan.StepInProgress)), false, []string{"fetch", "fs__search"}},
		{"no tools, no skill", mk(plan.StatusActive, "", step("1", plan.StepInProgress)), false, []string{}},
		{"no tools, skill without allowed-tools", mk(plan.StatusActive, "other", step("1", plan.StepInProgress)), false, []string{}},
		{"nothing in progress", mk(plan.StatusActive, "", step("1", plan.StepDone, "fetch")), false, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := SetFor(tc.p, n, allowed)
			if s.All != tc.all || !tc.all && !reflect.DeepEqual(s.Names, tc.want) {
				t.Errorf("set %+v, want all=%v %v", s, tc.all, tc.want)
			}
			for _, name := range tc.want {
				if !s.Has(name) {
					t.Errorf("Has(%q) false", name)
				}
			}
			if !tc.all && s.Has("not_offered_here") {
				t.Error("Has a name outside the set")
			}
		})
	}
}

func TestRefusal(t *testing.T) {
	n := NameTools(map[string][]*mcp.Tool{"fs": tools("read_file", "list_dir")}, nil)
	p := &plan.Plan{ID: "p", Status: plan.StatusActive, Steps: []plan.Step{
		{Step: graph.Step{ID: "1", Goal: "List the folder.", RecommendedTools: []string{"list_dir"}}, Status: plan.StepInProgress},
		{Step: graph.Step{ID: "2", Goal: "Read the file.", RecommendedTools: []string{"read_file"}}, Status: plan.StepPending},
	}}
	got := SetFor(p, n, nil).Refusal("read_file")
	want := `tool "read_file" is not available at this point of the plan: step 1 (List the folder.) is in progress and its tools are list_dir (besides the plan tools). When the step is done, call update_plan to record it: that moves the position, and the next step's tools become available.`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p.Steps[0].Status = plan.StepDone
	if got := SetFor(p, n, nil).Refusal("read_file"); !strings.Contains(got, "no step is in progress") {
		t.Errorf("got %s", got)
	}
}

// TestPoolUnavailable: an upstream that cannot start is reported by
// Start, makes calls fail with a message naming it, and is not started
// again on every call.
func TestPoolUnavailable(t *testing.T) {
	p := NewPool([]Upstream{{Name: "gone", Command: "/nonexistent/server", Type: "stdio", Pos: "up.json:1:17"}}, PoolOptions{RetryEvery: time.Hour})
	defer p.Close()
	failed := p.Start(context.Background())
	if failed["gone"] == nil {
		t.Fatalf("Start reported %v", failed)
	}
	if tools := p.Tools(); len(tools) != 0 {
		t.Errorf("tools of an upstream that never connected: %v", tools)
	}
	_, err := p.Call(context.Background(), "gone", "x", nil)
	if err == nil || !strings.Contains(err.Error(), `upstream "gone" is unavailable`) || !strings.Contains(err.Error(), "try again") {
		t.Errorf("call: %v", err)
	}
	if _, err := p.Call(context.Background(), "other", "x", nil); err == nil || !strings.Contains(err.Error(), `no upstream named "other"`) {
		t.Errorf("call to an unknown upstream: %v", err)
	}
	if _, err := Registry(context.Background(), []Upstream{{Name: "gone", Command: "/nonexistent/server", Type: "stdio", Pos: "up.json:1:17"}}, PoolOptions{}); err == nil || !strings.Contains(err.Error(), `upstream "gone" (up.json:1:17)`) {
		t.Errorf("registry: %v", err)
	}
}

// TestPoolForward: Forward writes the call to the real everything server
// and returns its result as it wrote it, a tool error too (the connection
// stays); arguments that are not an object are refused before anything
// is sent.
func TestPoolForward(t *testing.T) {
	p := everythingPool(t)
	ctx := context.Background()
	if !p.Forwardable("everything") || p.Forwardable("nope") {
		t.Fatal("Forwardable: want everything and not nope")
	}
	res, err := p.Forward(ctx, "everything", "echo", json.RawMessage(`{"message":"hi"}`))
	if err != nil || string(res) != `{"content":[{"type":"text","text":"Echo: hi"}]}` {
		t.Errorf("echo: %s %v", res, err)
	}
	// The everything server answers an unknown tool with a tool error
	// (older servers sent a JSON-RPC error: Call's refusal, the same
	// code): it comes back as is, and the connection stays.
	res, err = p.Forward(ctx, "everything", "no-such-tool", nil)
	if err != nil || !strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), "not found") {
		t.Errorf("an unknown tool: %s %v", res, err)
	}
	if !p.Forwardable("everything") {
		t.Error("a tool error dropped the connection")
	}
	if _, err := p.Forward(ctx, "everything", "echo", json.RawMessage(`[1]`)); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("arguments that are an array: %v", err)
	}
}

// TestPoolForwardNotForwardable: a connection without a raw path (as one
// made on the 2026-07-28 protocol is) makes Forward answer
// ErrNotForwardable before it writes anything, and Call still makes the
// call on that connection; once the connection has its raw path again,
// Forward writes the call itself.
func TestPoolForwardNotForwardable(t *testing.T) {
	p := everythingPool(t)
	ctx := context.Background()
	c := p.conns["everything"]
	c.mu.Lock()
	raw := c.raw
	c.raw = nil
	c.mu.Unlock()
	sent := raw.rawSeq.Load()

	if p.Forwardable("everything") {
		t.Error("Forwardable with no raw path")
	}
	if res, err := p.Forward(ctx, "everything", "echo", json.RawMessage(`{"message":"hi"}`)); !errors.Is(err, ErrNotForwardable) || res != nil {
		t.Errorf("Forward: %s %v, want ErrNotForwardable", res, err)
	}
	if n := raw.rawSeq.Load(); n != sent {
		t.Errorf("Forward wrote %d calls before answering ErrNotForwardable", n-sent)
	}
	res, err := p.Call(ctx, "everything", "echo", json.RawMessage(`{"message":"hi"}`))
	if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "Echo: hi" {
		t.Errorf("Call on the same connection: %+v %v", res, err)
	}

	c.mu.Lock()
	c.raw = raw
	c.mu.Unlock()
	if res, err := p.Forward(ctx, "everything", "echo", json.RawMessage(`{"message":"again"}`)); err != nil || string(res) != `{"content":[{"type":"text","text":"Echo: again"}]}` {
		t.Errorf("Forward with the raw path back: %s %v", res, err)
	}
	if n := raw.rawSeq.Load(); n != sent+1 {
		t.Errorf("%d calls written, want 1", n-sent)
	}
}

// everythingPool is a started pool of one upstream, the everything server
// from npm, named everything.
func everythingPool(t *testing.T) *Pool {
	t.Helper()
	node, entry := upstreamtest.Everything(t)
	p := NewPool([]Upstream{{Name: "everything", Type: "stdio", Command: node, Args: []string{entry, "stdio"}}}, PoolOptions{})
	t.Cleanup(func() { p.Close() })
	if failed := p.Start(context.Background()); len(failed) > 0 {
		t.Fatal(failed)
	}
	return p
}
