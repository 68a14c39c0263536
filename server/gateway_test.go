package server_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/gateway"
	"github.com/skillc/skillc/internal/upstreamtest"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
)

// fsUpstream is a pool with the real filesystem server from npm
// (testdata/upstreams) serving dir; the test skips without node or the
// package, and fails so under CI.
func fsUpstream(t *testing.T, dir string) *gateway.Pool {
	t.Helper()
	node, entry := upstreamtest.Server(t, "server-filesystem")
	pool := gateway.NewPool([]gateway.Upstream{{Name: "fs", Command: node, Args: []string{entry, dir}, Type: "stdio"}}, gateway.PoolOptions{})
	t.Cleanup(func() { pool.Close() })
	return pool
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

// TestGatewayHTTP: over HTTP, with and without MCP sessions, each
// conversation (X-Conversation-Id) is gated on its own plan, calls go to
// the real upstream, and the gate forgets a session once it ends.
func TestGatewayHTTP(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha"), 0o644); err != nil {
		t.Fatal(err)
	}
	pool := fsUpstream(t, dir)
	e := newEnv(t, nil)
	srv := gatedServer(t, pool, server.Options{Planner: e.planner(), Catalog: e.catalog, User: "alice", Gate: server.GateEnforce})
	for _, stateless := range []bool{false, true} {
		name := "sessions"
		if stateless {
			name = "stateless"
		}
		t.Run(name, func(t *testing.T) {
			ts := httptest.NewServer(srv.Handler(server.HTTPOptions{Stateless: stateless}))
			defer ts.Close()
			a := httpClient(t, ts.URL, map[string]string{server.ConversationHeader: name + "-a"})
			b := httpClient(t, ts.URL, map[string]string{server.ConversationHeader: name + "-b"})
			all := toolNames(t, a)
			if !slices.Contains(all, "read_text_file") || !slices.Contains(all, "list_directory") || len(all) < 10 {
				t.Fatalf("before a plan: %v", all)
			}
			res, err := a.CallTool(context.Background(), &mcp.CallToolParams{Name: "make_plan", Arguments: map[string]any{
				"title": "Read", "steps": []map[string]any{{"goal": "Read a.", "recommended_tools": []string{"fs__read_text_file"}}}}})
			if err != nil || res.IsError {
				t.Fatalf("make_plan: %v %+v", err, res)
			}
			if got, want := toolNames(t, a), []string{"close_plan", "make_plan", "read_text_file", "update_plan", "view_plan"}; !slices.Equal(got, want) {
				t.Errorf("a at step 1: %v, want %v", got, want)
			}
			if got := toolNames(t, b); !slices.Equal(got, all) {
				t.Errorf("b, without a plan: %v, want everything", got)
			}
			res, err = a.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(dir, "a.txt")}})
			if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "alpha" {
				t.Errorf("forwarded read: %v %+v", err, res)
			}
			res, err = a.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_directory", Arguments: map[string]any{"path": dir}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `step 1 (Read a.) is in progress and its tools are read_text_file`) {
				t.Errorf("enforce let list_directory through: %v %+v", err, res)
			}
			res, err = b.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_directory", Arguments: map[string]any{"path": dir}})
			if err != nil || res.IsError {
				t.Errorf("b without a plan was refused: %v %+v", err, res)
			}
			a.Close()
			b.Close()
		})
	}
	// Ended sessions (and a stateless server's per-request ones) are
	// forgotten.
	for i := 0; srv.GateSessions() > 0; i++ {
		if i == 100 {
			t.Fatalf("the gate still remembers %d sessions", srv.GateSessions())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestGatewayInstructions: with gated upstreams the instructions say why
// tools come and go; with --gate off they are the plan skill alone.
func TestGatewayInstructions(t *testing.T) {
	plain, err := server.Instructions()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		gate server.Gate
		want bool
	}{{"", true}, {server.GateEnforce, true}, {server.GateOff, false}} {
		e := newEnv(t, nil)
		pool := gateway.NewPool(nil, gateway.PoolOptions{})
		srv, err := server.New(server.Options{Planner: e.planner(), Catalog: e.catalog, User: "u", Session: "s", Upstreams: pool, Gate: tc.gate})
		if err != nil {
			t.Fatal(err)
		}
		ct, st := mcp.NewInMemoryTransports()
		go srv.Run(context.Background(), st)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := cs.InitializeResult().Instructions
		cs.Close()
		if !strings.HasPrefix(got, plain) || strings.Contains(got, "## Tools that follow the plan") != tc.want {
			t.Errorf("gate %q: instructions end %q", tc.gate, got[max(0, len(got)-200):])
		}
	}
}

// TestGatewayPlanChangedElsewhere: a plan written past this server (here
// another planner on the same store, as the CLI or another replica would)
// reaches a connected client as list_changed, and enforce follows it: the
// new step's tool is allowed and the old one's refused, though the gate
// checks calls against the set it keeps rather than the store.
func TestGatewayPlanChangedElsewhere(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha"), 0o644); err != nil {
		t.Fatal(err)
	}
	pool := fsUpstream(t, dir)
	loads := &loadCounter{Store: memory.New(store.Options{Now: func() time.Time { return fixedNow }})}
	e := newEnv(t, loads)
	srv := gatedServer(t, pool, server.Options{Planner: e.planner(), Catalog: e.catalog, User: "alice", Session: "chat", Gate: server.GateEnforce})
	changed := make(chan struct{}, 10)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()

	ok(t, cs, "make_plan", map[string]any{"title": "Read", "steps": []map[string]any{
		{"goal": "Read a.", "recommended_tools": []string{"read_text_file"}},
		{"goal": "List.", "recommended_tools": []string{"list_directory"}},
	}})
	<-changed // make_plan's own
	read := map[string]any{"path": filepath.Join(dir, "a.txt")}
	list := map[string]any{"path": dir}
	before := loads.n.Load()
	for range 3 {
		if res := call(t, cs, "read_text_file", read); res.IsError {
			t.Fatalf("step 1's tool refused: %s", text(res))
		}
	}
	if n := loads.n.Load() - before; n > 1 {
		t.Errorf("3 allowed calls read the plan %d times, want at most once", n)
	}

	// Step 1 recorded past this server.
	if _, err := e.planner().Update(context.Background(), store.Key{User: "alice", Session: "chat"}, plan.Changes{Check: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no list_changed after the plan was updated elsewhere")
	}
	if got, want := toolNames(t, cs), []string{"close_plan", "list_directory", "make_plan", "update_plan", "view_plan"}; !slices.Equal(got, want) {
		t.Errorf("at step 2: %v, want %v", got, want)
	}
	if res := call(t, cs, "list_directory", list); res.IsError {
		t.Errorf("step 2's tool refused: %s", text(res))
	}
	if res := call(t, cs, "read_text_file", read); !res.IsError || !strings.Contains(text(res), "step 2 (List.) is in progress") {
		t.Errorf("step 1's tool allowed at step 2: %s", text(res))
	}
}

// loadCounter counts the plan reads.
type loadCounter struct {
	store.Store
	n atomic.Int64
}

func (c *loadCounter) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	c.n.Add(1)
	return c.Store.Load(ctx, key)
}

// TestGatewayWithoutFeed: with a store whose change feed cannot open, the
// gate keeps no set: every call under enforce reads the plan, so a plan
// changed past this server is followed at the next call.
func TestGatewayWithoutFeed(t *testing.T) {
	dir := t.TempDir()
	pool := fsUpstream(t, dir)
	loads := &loadCounter{Store: noFeed{memory.New(store.Options{Now: func() time.Time { return fixedNow }})}}
	e := newEnv(t, loads)
	srv := gatedServer(t, pool, server.Options{Planner: e.planner(), Catalog: e.catalog, User: "alice", Session: "chat", Gate: server.GateEnforce})
	cs := connect(t, srv)
	ok(t, cs, "make_plan", map[string]any{"title": "List", "steps": []map[string]any{
		{"goal": "List.", "recommended_tools": []string{"list_directory"}},
		{"goal": "Look around.", "recommended_tools": []string{"list_allowed_directories"}},
	}})
	list := map[string]any{"path": dir}
	before := loads.n.Load()
	for range 3 {
		if res := call(t, cs, "list_directory", list); res.IsError {
			t.Fatalf("step 1's tool refused: %s", text(res))
		}
	}
	if n := loads.n.Load() - before; n != 3 {
		t.Errorf("3 calls without a change feed read the plan %d times, want 3", n)
	}
	if _, err := e.planner().Update(context.Background(), store.Key{User: "alice", Session: "chat"}, plan.Changes{Check: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	if res := call(t, cs, "list_directory", list); !res.IsError || !strings.Contains(text(res), "step 2 (Look around.) is in progress") {
		t.Errorf("step 1's tool allowed at step 2: %s", text(res))
	}
}

// noFeed is a store whose change feed cannot open.
type noFeed struct{ store.Store }

func (noFeed) Watch(context.Context, string) (<-chan struct{}, error) {
	return nil, errors.New("no change feed here")
}

// TestGatewayStatelessKeepsSet: on a stateless HTTP server every request
// is a session of its own; under enforce the conversation's set still
// outlives them, so calls at one step do not read the plan each time,
// and a plan changed past this server (the change feed) is followed at
// the next call.
func TestGatewayStatelessKeepsSet(t *testing.T) {
	dir := t.TempDir()
	pool := fsUpstream(t, dir)
	loads := &loadCounter{Store: memory.New(store.Options{Now: func() time.Time { return fixedNow }})}
	e := newEnv(t, loads)
	srv := gatedServer(t, pool, server.Options{Planner: e.planner(), Catalog: e.catalog, User: "alice", Gate: server.GateEnforce})
	ts := httptest.NewServer(srv.Handler(server.HTTPOptions{Stateless: true}))
	defer ts.Close()
	cs := httpClient(t, ts.URL, map[string]string{server.ConversationHeader: "chat"})
	ok(t, cs, "make_plan", map[string]any{"title": "List", "steps": []map[string]any{
		{"goal": "List.", "recommended_tools": []string{"list_directory"}},
		{"goal": "Look around.", "recommended_tools": []string{"list_allowed_directories"}},
	}})
	list := map[string]any{"path": dir}
	listOnce := func() int64 {
		before := loads.n.Load()
		if res := call(t, cs, "list_directory", list); res.IsError {
			t.Fatalf("step 1's tool refused: %s", text(res))
		}
		return loads.n.Load() - before
	}
	// The user's change feed opens with the first request's session: until
	// it is open a call reads the plan.
	for i := 0; listOnce() > 0; i++ {
		if i == 200 {
			t.Fatal("every call under enforce read the plan: the conversation's set was not kept")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for range 5 {
		if n := listOnce(); n != 0 {
			t.Fatalf("a call at the same step read the plan %d times, want 0", n)
		}
	}
	if _, err := e.planner().Update(context.Background(), store.Key{User: "alice", Session: "chat"}, plan.Changes{Check: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	// The feed reports the write; the kept set is dropped, and the next
	// call reads the plan again and is refused at step 2.
	for i := 0; ; i++ {
		res := call(t, cs, "list_directory", list)
		if res.IsError && strings.Contains(text(res), "step 2 (Look around.) is in progress") {
			break
		}
		if i == 200 {
			t.Fatalf("step 1's tool still allowed after the plan moved to step 2: %s", text(res))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// gatedServer is a server in front of pool, whose upstreams are started
// and whose tools are registered.
func gatedServer(t *testing.T, pool *gateway.Pool, opts server.Options) *server.Server {
	t.Helper()
	opts.Upstreams = pool
	srv, err := server.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if failed := pool.Start(context.Background()); len(failed) > 0 {
		t.Fatal(failed)
	}
	srv.SyncUpstreamTools()
	return srv
}
