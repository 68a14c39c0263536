package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/gateway"
	"github.com/skillc/skillc/internal/upstreamtest"
	"github.com/skillc/skillc/server"
)

// The tests of the forwarded call past the SDK (forward.go) speak JSON-RPC
// lines to the server over its stdio transport, in front of the real
// everything server, so that they choose the IDs and _meta and see the
// bytes.

// upstreamLog is what one everything server read and wrote, line by line
// (a shell tees its stdin and stdout to files).
type upstreamLog struct{ in, out, pid string }

// everything is the everything server from npm as an upstream named name,
// behind a shell that writes its pid and tees its input and output.
func everything(t *testing.T, name string) (gateway.Upstream, *upstreamLog) {
	t.Helper()
	node, entry := upstreamtest.Everything(t)
	dir := t.TempDir()
	l := &upstreamLog{in: filepath.Join(dir, "in"), out: filepath.Join(dir, "out"), pid: filepath.Join(dir, "pid")}
	// Through fifos rather than a pipeline, so that once node exits (or
	// is killed) nothing holds its output open: the shell itself becomes
	// the tee of the output. The tee of the input gets stdin back by fd
	// 3 (sh gives a background job /dev/null).
	script := `rm -f "$DIR/f1" "$DIR/f2"; mkfifo "$DIR/f1" "$DIR/f2"
exec 3<&0
tee -a "$IN" <&3 > "$DIR/f1" 3<&- &
"$NODE" "$ENTRY" stdio < "$DIR/f1" > "$DIR/f2" 3<&- &
echo $! > "$PID"
exec tee -a "$OUT" < "$DIR/f2" 3<&-`
	t.Cleanup(func() {
		// A node still running an operation may outlive its stdin.
		var pid int
		if data, err := os.ReadFile(l.pid); err == nil {
			if _, err := fmt.Sscan(string(data), &pid); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return gateway.Upstream{Name: name, Type: "stdio", Command: "sh", Args: []string{"-c", script},
		Env: map[string]string{"DIR": dir, "IN": l.in, "OUT": l.out, "PID": l.pid, "NODE": node, "ENTRY": entry}}, l
}

// lines returns the messages in file that have id, as raw fields.
func (l *upstreamLog) messages(t *testing.T, file string) []map[string]json.RawMessage {
	t.Helper()
	data, _ := os.ReadFile(file)
	var out []map[string]json.RawMessage
	for _, line := range strings.Split(string(data), "\n") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// settled is forwarded once every request has its answer in the log (tee
// may write the file after the line went on).
func (l *upstreamLog) settled(t *testing.T) (reqs, answers map[string]map[string]json.RawMessage) {
	t.Helper()
	waitFor(t, func() bool {
		reqs, answers = l.forwarded(t)
		return len(answers) == len(reqs)
	})
	return reqs, answers
}

// forwarded returns the upstream's requests with a string ID (Forward's)
// and the answers to them, by ID.
func (l *upstreamLog) forwarded(t *testing.T) (reqs, answers map[string]map[string]json.RawMessage) {
	t.Helper()
	reqs, answers = map[string]map[string]json.RawMessage{}, map[string]map[string]json.RawMessage{}
	for _, pair := range []struct {
		file string
		into map[string]map[string]json.RawMessage
	}{{l.in, reqs}, {l.out, answers}} {
		for _, m := range l.messages(t, pair.file) {
			var id string
			if json.Unmarshal(m["id"], &id) == nil {
				pair.into[id] = m
			}
		}
	}
	return reqs, answers
}

// rawClient is a client that writes JSON-RPC lines to a server's stdio
// transport and reads its answer lines.
type rawClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func startRaw(t *testing.T, srv *server.Server) *rawClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &rawClient{t: t, in: inW, lines: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		c.done <- srv.Run(context.Background(), server.StdioTransport(inR, outW, 1<<20, nil))
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// answer waits for the answer with id (as JSON), skipping notifications.
func (c *rawClient) answer(id string) (line string, msg map[string]json.RawMessage) {
	c.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("the server's output ended before the answer to %s", id)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				c.t.Fatalf("not JSON: %s", line)
			}
			if string(m["id"]) == id {
				return line, m
			}
		case <-timeout:
			c.t.Fatalf("no answer to %s", id)
		}
	}
}

// call sends tools/call with id and returns the answer's result.
func (c *rawClient) call(id, tool, args, meta string) (line string, result json.RawMessage) {
	c.t.Helper()
	params := `{"name":` + strconv.Quote(tool) + `,"arguments":` + args + `}`
	if meta != "" {
		params = `{"_meta":` + meta + `,"name":` + strconv.Quote(tool) + `,"arguments":` + args + `}`
	}
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`)
	line, m := c.answer(id)
	if m["result"] == nil {
		c.t.Fatalf("%s: no result: %s", tool, line)
	}
	return line, m["result"]
}

func (c *rawClient) initialize() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	c.answer("0")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// gatewayServer is a server on a memory store in front of ups, connected.
func gatewayServer(t *testing.T, gate server.Gate, ups ...gateway.Upstream) *server.Server {
	t.Helper()
	pool := gateway.NewPool(ups, gateway.PoolOptions{})
	t.Cleanup(func() { pool.Close() })
	e := newEnv(t, nil)
	srv := gatedServer(t, pool, server.Options{Planner: e.planner(), Catalog: e.catalog, User: "alice", Session: "chat", Gate: gate, Version: "test"})
	return srv
}

// newMeta is the _meta the Go SDK's client sends on each request of the
// 2026-07-28 protocol.
const newMeta = `{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`

// TestForwardPassesTheResult: a call the gate allows goes to the upstream
// under an ID of the forwarder's (a string), and its result comes back as
// the upstream wrote it, byte for byte, with the client's ID, number or
// string; on the 2026-07-28 protocol (a _meta on each request) the first
// call goes through the SDK, which accepts its _meta, and the next ones
// are forwarded, their answers the same bytes as the SDK's.
func TestForwardPassesTheResult(t *testing.T) {
	up, log := everything(t, "everything")
	srv := gatewayServer(t, server.GateList, up)
	c := startRaw(t, srv)
	c.initialize()

	for _, id := range []string{`7`, `"a-1"`, `"<&>"`} {
		line, res := c.call(id, "echo", `{"message":"héllo <b> \"q\""}`, "")
		if !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":`+id+`,"result":`) {
			t.Errorf("answer %s", line)
		}
		reqs, answers := log.settled(t)
		fid := "skillc-fwd-" + strconv.Itoa(len(reqs))
		req, ans := reqs[fid], answers[fid]
		if req == nil || ans == nil {
			t.Fatalf("call %s was not forwarded under %s: %v", id, fid, reqs)
		}
		if got, want := string(req["params"]), `{"name":"echo","arguments":{"message":"héllo <b> \"q\""}}`; got != want {
			t.Errorf("the upstream got params %s, want %s", got, want)
		}
		if string(res) != string(ans["result"]) {
			t.Errorf("call %s: result\n%s\nthe upstream's\n%s", id, res, ans["result"])
		}
	}

	// Requests of the 2026-07-28 protocol, in this session (initialized
	// on 2025-06-18), and in one that never initializes (as the Go SDK's
	// client does): the SDK marks the result with serverInfo, and with
	// resultType when the session is on 2026-07-28.
	c2 := startRaw(t, srv)
	for _, s := range []struct {
		c          *rawClient
		resultType bool
	}{{c, false}, {c2, true}} {
		before, _ := log.settled(t)
		slow, _ := s.c.call(`10`, "echo", `{"message":"new"}`, newMeta)
		fast, _ := s.c.call(`11`, "echo", `{"message":"new"}`, newMeta)
		after, _ := log.settled(t)
		if len(after) != len(before)+1 {
			t.Errorf("%d calls forwarded past the SDK, want 1 (the second)", len(after)-len(before))
		}
		if want := strings.Replace(slow, `"id":10`, `"id":11`, 1); fast != want {
			t.Errorf("forwarded on 2026-07-28:\n%s\nthe SDK's:\n%s", fast, want)
		}
		if strings.Contains(fast, `"resultType":"complete"`) != s.resultType || !strings.Contains(fast, `"io.modelcontextprotocol/serverInfo":{"name":"skillc"`) {
			t.Errorf("serverInfo, and resultType %v: %s", s.resultType, fast)
		}
	}
	after, _ := log.settled(t)

	// What the forwarder leaves to the SDK: a progress token, params it
	// does not know, a tool that is not an upstream's, arguments that are
	// not an object.
	for i, params := range []string{
		`{"_meta":{"progressToken":1},"name":"echo","arguments":{"message":"p"}}`,
		`{"name":"echo","arguments":{"message":"p"},"task":{}}`,
		`{"name":"view_plan","arguments":{}}`,
		`{"name":"nope","arguments":{}}`,
		`{"name":"echo","arguments":null}`,
	} {
		id := strconv.Itoa(20 + i)
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`)
		c.answer(id)
	}
	if now, _ := log.forwarded(t); len(now) != len(after) {
		t.Errorf("%d more calls forwarded past the SDK, want none", len(now)-len(after))
	}
}

// TestForwardEnforce: under enforce a call outside the step's set is
// refused by the gate, with its message, and never reaches the upstream;
// one inside is forwarded. A tool offered as SERVER__tool (two servers
// have it) reaches the right server under its own name.
func TestForwardEnforce(t *testing.T) {
	upA, logA := everything(t, "a")
	upB, logB := everything(t, "b")
	srv := gatewayServer(t, server.GateEnforce, upA, upB)
	c := startRaw(t, srv)
	c.initialize()
	_, res := c.call(`1`, "make_plan", `{"title":"Echo","steps":[{"goal":"Echo.","recommended_tools":["b__echo"]}]}`, "")
	if strings.Contains(string(res), `"isError":true`) {
		t.Fatalf("make_plan: %s", res)
	}
	_, res = c.call(`2`, "a__echo", `{"message":"no"}`, "")
	if !strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), "step 1 (Echo.) is in progress and its tools are b__echo") {
		t.Errorf("a__echo outside the set: %s", res)
	}
	// The first calls may read the store (the change feed opens after
	// make_plan); a set known to be current forwards.
	for i := 3; i < 8; i++ {
		if _, res := c.call(strconv.Itoa(i), "b__echo", `{"message":"yes"}`, ""); !strings.Contains(string(res), "Echo: yes") {
			t.Fatalf("b__echo: %s", res)
		}
	}
	reqsA, _ := logA.forwarded(t)
	reqsB, answersB := logB.settled(t)
	if len(reqsA) != 0 {
		t.Errorf("upstream a got %v", reqsA)
	}
	if len(reqsB) == 0 {
		t.Fatal("no b__echo was forwarded past the SDK")
	}
	for id, req := range reqsB {
		if !strings.HasPrefix(string(req["params"]), `{"name":"echo",`) || answersB[id] == nil {
			t.Errorf("upstream b: %s -> %s", req["params"], answersB[id])
		}
	}
	for _, m := range logA.messages(t, logA.in) {
		if strings.Contains(string(m["params"]), `"no"`) {
			t.Errorf("the refused call reached upstream a: %s", m["params"])
		}
	}
}

// TestForwardUpstreamKilled: an upstream killed in the middle of a
// forwarded call makes that call a tool error saying so, and the next
// call reconnects (a new process) and works.
func TestForwardUpstreamKilled(t *testing.T) {
	up, log := everything(t, "everything")
	srv := gatewayServer(t, server.GateList, up)
	c := startRaw(t, srv)
	c.initialize()
	c.call(`1`, "echo", `{"message":"warm"}`, "")
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":20,"steps":2}}}`)
	waitFor(t, func() bool { reqs, _ := log.forwarded(t); return len(reqs) == 2 })
	pid := readPid(t, log.pid)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, m := c.answer("2")
	if text, isErr := resultText(t, m["result"]); !isErr || !strings.Contains(text, `upstream "everything" failed during the call`) || !strings.Contains(text, "it is being reconnected") {
		t.Errorf("the killed call: %s", m["result"])
	}
	var last string
	for i := 3; i < 43; i++ {
		_, res := c.call(strconv.Itoa(i), "echo", `{"message":"again"}`, "")
		if last = string(res); strings.Contains(last, "Echo: again") {
			if readPid(t, log.pid) == pid {
				t.Error("no new upstream process")
			}
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Errorf("no reconnect: %s", last)
}

// TestForwardEndOfInput: a forwarded call still running when stdin ends
// is answered before the server stops.
func TestForwardEndOfInput(t *testing.T) {
	up, log := everything(t, "everything")
	srv := gatewayServer(t, server.GateList, up)
	c := startRaw(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":1,"steps":1}}}`)
	waitFor(t, func() bool { reqs, _ := log.forwarded(t); return len(reqs) == 1 })
	c.in.Close()
	_, m := c.answer("1")
	if strings.Contains(string(m["result"]), `"isError":true`) || !strings.Contains(string(m["result"]), "completed") {
		t.Errorf("the call running at the end of input: %s", m["result"])
	}
	if err := <-c.done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestForwardCancelled: a client's notifications/cancelled for a
// forwarded call is passed to the upstream under the forwarder's ID, and
// the call is answered at once, as the SDK answers a cancelled one.
func TestForwardCancelled(t *testing.T) {
	up, log := everything(t, "everything")
	srv := gatewayServer(t, server.GateList, up)
	c := startRaw(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":30,"steps":3}}}`)
	waitFor(t, func() bool { reqs, _ := log.forwarded(t); return len(reqs) == 1 })
	start := time.Now()
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"changed my mind"}}`)
	_, m := c.answer(`"slow"`)
	if time.Since(start) > 10*time.Second || !strings.Contains(string(m["result"]), `"isError":true`) || !strings.Contains(string(m["result"]), "context canceled") {
		t.Errorf("the cancelled call: %s after %v", m["result"], time.Since(start))
	}
	waitFor(t, func() bool {
		for _, msg := range log.messages(t, log.in) {
			if strings.Contains(string(msg["method"]), "notifications/cancelled") && strings.Contains(string(msg["params"]), `"requestId":"skillc-fwd-1"`) {
				return true
			}
		}
		return false
	})
	// Still serving, past the SDK.
	if _, res := c.call(`2`, "echo", `{"message":"after"}`, ""); !strings.Contains(string(res), "Echo: after") {
		t.Errorf("after the cancel: %s", res)
	}
}

// resultText is a tool result's text and whether it is an error.
func resultText(t *testing.T, res json.RawMessage) (string, bool) {
	t.Helper()
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(res, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("not a tool result: %s", res)
	}
	return r.Content[0].Text, r.IsError
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 300 {
			t.Fatal("timed out waiting")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	var pid int
	waitFor(t, func() bool {
		data, _ := os.ReadFile(file)
		_, err := fmt.Sscan(string(data), &pid)
		return err == nil
	})
	return pid
}

// TestForwardConnectionChanged: a call taken past the SDK that finds, when
// its turn comes, the upstream reconnected on a protocol Forward leaves to
// the SDK's client (2026-07-28, the Go SDK's server here) is made with
// Pool.Call on the new connection, and answered as the SDK answers the same
// call. The upstream allows one call at a time: the call waits for the
// slot of a long one, and the upstream is killed meanwhile.
func TestForwardConnectionChanged(t *testing.T) {
	node, entry := upstreamtest.Everything(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// The everything server first, this test binary as the Go SDK's
	// echo server on every later start.
	script := `if [ -e "$DIR/again" ]; then exec "$SELF" -test.run='^$'; fi
touch "$DIR/again"; echo $$ > "$PID"; exec "$NODE" "$ENTRY" stdio`
	up := gateway.Upstream{Name: "everything", Type: "stdio", Command: "sh", Args: []string{"-c", script},
		Env: map[string]string{"DIR": dir, "PID": pidFile, "NODE": node, "ENTRY": entry, "SELF": os.Args[0], childEnv: "sdk-echo"}}
	pool := gateway.NewPool([]gateway.Upstream{up}, gateway.PoolOptions{MaxInFlight: 1, RetryEvery: time.Millisecond})
	t.Cleanup(func() { pool.Close() })
	e := newEnv(t, nil)
	srv := gatedServer(t, pool, server.Options{Planner: e.planner(), Catalog: e.catalog, User: "alice", Session: "chat", Gate: server.GateList, Version: "test"})
	c := startRaw(t, srv)
	c.initialize()
	if _, res := c.call(`1`, "echo", `{"message":"first"}`, ""); !strings.Contains(string(res), "Echo: first") {
		t.Fatalf("echo on the everything server: %s", res)
	}

	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":20,"steps":2}}}`)
	time.Sleep(300 * time.Millisecond) // call 2 holds the one slot
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"later"}}}`)
	time.Sleep(300 * time.Millisecond) // call 3 waits for it
	if err := syscall.Kill(readPid(t, pidFile), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if _, m := c.answer("2"); !strings.Contains(string(m["result"]), "failed during the call") {
		t.Errorf("the killed call: %s", m["result"])
	}
	line3, m3 := c.answer("3")
	if pool.Forwardable("everything") {
		t.Fatal("the Go SDK's server was connected with a raw path: this test needs a protocol Forward leaves to the SDK's client")
	}
	if text, isErr := resultText(t, m3["result"]); isErr || text != "SDK echo: later" {
		t.Errorf("the call that found the connection changed: %s", line3)
	}
	// The same call now goes through the SDK (nothing is forwardable):
	// the same answer.
	line4, _ := c.call(`4`, "echo", `{"message":"later"}`, "")
	if want := strings.Replace(line4, `"id":4`, `"id":3`, 1); line3 != want {
		t.Errorf("answered past the SDK:\n%s\nthrough it:\n%s", line3, want)
	}
}

// runSDKEcho serves one tool, echo, with the Go SDK's server on stdio: an
// upstream on the SDK's newest protocol.
func runSDKEcho() int {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-echo", Version: "1"}, nil)
	type in struct {
		Message string `json:"message"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes the message"},
		func(_ context.Context, _ *mcp.CallToolRequest, args in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "SDK echo: " + args.Message}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
