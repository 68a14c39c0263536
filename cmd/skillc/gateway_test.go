package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// upstreamsDir holds the real MCP servers the gateway is tested in front
// of, installed by `npm ci --prefix server/testdata/upstreams`.
var upstreamsDir = filepath.Join("..", "..", "server", "testdata", "upstreams")

// needNodeModules returns node, or skips (fails under CI, where a skip
// would hide a broken install step) when node or a package is missing.
func needNodeModules(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	for _, p := range []string{
		filepath.Join("..", "..", "server", "testdata", "tsclient", "node_modules", "@modelcontextprotocol", "sdk", "package.json"),
		filepath.Join(upstreamsDir, "node_modules", "@modelcontextprotocol", "server-everything", "package.json"),
		filepath.Join(upstreamsDir, "node_modules", "@modelcontextprotocol", "server-filesystem", "package.json"),
	} {
		if err == nil {
			_, err = os.Stat(p)
		}
	}
	if err != nil {
		msg := fmt.Sprintf("node or an npm package is missing (%v): run npm ci --prefix server/testdata/tsclient and --prefix server/testdata/upstreams", err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// upstreamEntry is the JS entry point of an upstream package.
func upstreamEntry(t *testing.T, pkg string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(upstreamsDir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gatewayFixture writes what the gateway tests share: a folder the
// filesystem server serves with a note in it, and an upstreams file with
// the everything server (behind a shell that writes its pid, so the test
// can kill it) and the filesystem server, plus extra entries.
func gatewayFixture(t *testing.T, node string, extra map[string]any) (upstreams, note, piddir string) {
	t.Helper()
	dir := t.TempDir()
	share := filepath.Join(dir, "share")
	piddir = filepath.Join(dir, "pids")
	for _, d := range []string{share, piddir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	note = filepath.Join(share, "note.txt")
	if err := os.WriteFile(note, []byte("the note says hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	servers := map[string]any{
		"everything": map[string]any{
			"command": "sh",
			"args":    []string{"-c", `echo $$ > "$PIDDIR/${SKILLC_SESSION:-http}.pid"; exec "$NODE" "$ENTRY" stdio`},
			"env":     map[string]string{"PIDDIR": piddir, "NODE": node, "ENTRY": upstreamEntry(t, "server-everything")},
		},
		"fs": map[string]any{"command": node, "args": []string{upstreamEntry(t, "server-filesystem"), share}},
	}
	for k, v := range extra {
		servers[k] = v
	}
	b, err := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	upstreams = filepath.Join(dir, "upstreams.json")
	if err := os.WriteFile(upstreams, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return upstreams, note, piddir
}

// startEverythingHTTP runs the everything server over streamable HTTP on
// a free port, and returns its endpoint.
func startEverythingHTTP(t *testing.T, node string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(node, upstreamEntry(t, "server-everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	for i := 0; ; i++ {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return url
		}
		if i == 100 {
			t.Fatalf("the everything server did not listen on %s: %v", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestGatewayTypeScriptClient: the official TypeScript client drives
// `skillc serve --upstreams` in front of the everything and filesystem
// servers from npm, over stdio (gate enforce) and over HTTP (gate list,
// with a remote copy of everything whose tools clash with the local one):
// the set before a plan, after make_plan and each update (with
// list_changed), a refused or forwarded call outside the set, forwarded
// results equal to the upstream's own, two conversations at once, and the
// everything server killed in the middle of a call.
func TestGatewayTypeScriptClient(t *testing.T) {
	node := needNodeModules(t)
	bin := skillcOnPath(t)
	skills, err := filepath.Abs(filepath.Join("..", "..", "server", "testdata", "gateway", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		transport, gate string
		remote          bool
	}{
		{"stdio", "enforce", false},
		{"http", "", true},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			extra := map[string]any{}
			if tc.remote {
				extra["remote"] = map[string]any{"url": startEverythingHTTP(t, node)}
			}
			upstreams, note, piddir := gatewayFixture(t, node, extra)
			cfg := map[string]any{
				"bin": bin, "store": "sqlite:" + filepath.Join(t.TempDir(), "plans.db"),
				"upstreams": upstreams, "skills": skills, "transport": tc.transport, "gate": tc.gate,
				"everything": upstreamEntry(t, "server-everything"), "piddir": piddir, "note": note, "clash": tc.remote,
			}
			b, _ := json.Marshal(cfg)
			cfgFile := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfgFile, b, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(node, "gateway.mjs", cfgFile)
			cmd.Dir = filepath.Join("..", "..", "server", "testdata", "tsclient")
			cmd.Env = childEnvWithout()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("node gateway.mjs: %v\n%s", err, out)
			}
			// Under -race the skillc processes are race-built test
			// binaries: a race in the gateway shows on their stderr.
			for _, bad := range []string{"DATA RACE", "panic:"} {
				if strings.Contains(string(out), bad) {
					t.Errorf("skillc printed %q:\n%s", bad, out)
				}
			}
			t.Logf("%s", out)
		})
	}
}

// TestLintToolsFrom: lint --tools-from reads the real servers' tools/list
// as the registry: a misspelt tool is unknown, with the nearest real name;
// plain and SERVER__tool names are known; a server that cannot start is
// a usage error naming it.
func TestLintToolsFrom(t *testing.T) {
	node := needNodeModules(t)
	bin := skillcOnPath(t)
	upstreams, _, _ := gatewayFixture(t, node, nil)
	dir := t.TempDir()
	skill := filepath.Join(dir, "notes", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "---\nname: notes\ndescription: Read a note and echo it. Use when asked about a note.\n---\n# Note report\n\n" +
		"1. Find the folder.\n   - tools: list_allowed_directories\n" +
		"2. Read the note.\n   - tools: read_txt_file\n" +
		"3. Echo it.\n   - tools: everything__echo\n"
	if err := os.WriteFile(skill, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"mcpServers": {"gone": {"command": "/nonexistent/server"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		code       int
		want, not  []string
	}{
		{"real servers", upstreams, 1,
			[]string{`SKILL.md:10:13: error: tool "read_txt_file" is in no tool registry of the config or of the servers of`, "fix: read_text_file", "1 error in 1 file"},
			[]string{"list_allowed_directories", "everything__echo"}},
		{"server that cannot start", broken, 2, []string{`upstream "gone" (` + broken + `:1:17)`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "lint", "--tools-from", tc.file, "--no-color", skill)
			cmd.Dir = dir // no .skillc.yaml above: the registry is the servers'
			cmd.Env = childEnvWithout()
			out, _ := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(string(out), `"`+w+`"`) {
					t.Errorf("output reports %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestGatewayPlanUpdatedByCLI: while a client is connected to `skillc
// serve --upstreams --gate enforce` over stdio, `skillc plan update` on
// the same SQLite file moves the plan; the client gets list_changed
// without calling anything, its list shows the next step's tool, and
// enforce allows that tool and refuses the last step's.
func TestGatewayPlanUpdatedByCLI(t *testing.T) {
	node, err := exec.LookPath("node")
	entry := upstreamEntry(t, "server-everything")
	if err == nil {
		_, err = os.Stat(entry)
	}
	if err != nil {
		t.Skipf("node or server-everything is missing (%v): run npm ci --prefix server/testdata/upstreams", err)
	}
	bin := skillcOnPath(t)
	dir := t.TempDir()
	up := filepath.Join(dir, "upstreams.json")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": node, "args": []string{entry, "stdio"}}}})
	if err := os.WriteFile(up, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	storeSpec := "sqlite:" + filepath.Join(dir, "plans.db")
	cmd := exec.Command(bin, "serve", "--store", storeSpec, "--upstreams", up, "--gate", "enforce")
	cmd.Env = childEnvWithout("SKILLC_USER=alice", "SKILLC_SESSION=chat")
	cmd.Stderr = os.Stderr
	changed := make(chan struct{}, 10)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	callTool := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	res := callTool("make_plan", map[string]any{"title": "Echo, then add", "steps": []map[string]any{
		{"goal": "Echo.", "recommended_tools": []string{"echo"}},
		{"goal": "Add.", "recommended_tools": []string{"get-sum"}},
	}})
	if res.IsError {
		t.Fatalf("make_plan: %+v", res)
	}
	<-changed // make_plan's own
	echo := map[string]any{"message": "hi"}
	sum := map[string]any{"a": 1, "b": 2}
	if res := callTool("echo", echo); res.IsError {
		t.Fatalf("step 1's echo refused: %+v", res.Content)
	}

	out, err := exec.Command(bin, "plan", "update", "--store", storeSpec, "--user", "alice", "--session", "chat", "--check", "1").CombinedOutput()
	if err != nil {
		t.Fatalf("skillc plan update: %v\n%s", err, out)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed after skillc plan update")
	}
	lr, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lr.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"close_plan", "get-sum", "make_plan", "update_plan", "view_plan"}; !slices.Equal(names, want) {
		t.Errorf("at step 2 the list is %v, want %v", names, want)
	}
	if res := callTool("get-sum", sum); res.IsError {
		t.Errorf("step 2's get-sum refused: %+v", res.Content)
	}
	if res := callTool("echo", echo); !res.IsError {
		t.Errorf("step 1's echo allowed at step 2: %+v", res.Content)
	}
}
