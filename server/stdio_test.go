package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/server"
)

// TestStdioBadLines: a line that is not a JSON-RPC message gets an error
// answer and the session goes on, for every kind of bad line.
func TestStdioBadLines(t *testing.T) {
	e := newEnv(t, nil)
	s := e.server("alice", "chat-1")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Run(context.Background(), serverStdio(inR, outW))
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	send := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		if !sc.Scan() {
			t.Fatalf("no answer to %.60q: %v", line, sc.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("answer is not JSON: %s", sc.Text())
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")

	bad := []struct {
		line string
		code float64
		msg  string
	}{
		{"not json at all", -32700, "not JSON"},
		{`{"jsonrpc":"2.0","id":2,"method":`, -32700, "not JSON"},
		{`{"hello":"world"}`, -32600, "version"},
		{`[]`, -32600, "empty batch"},
		{`[1,2]`, -32600, ""},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"view_plan","arguments":{"pad":"` + strings.Repeat("x", 5000) + `"}}}`, -32600, "longer than 4096 bytes"},
	}
	for _, b := range bad {
		m := send(b.line)
		errObj, _ := m["error"].(map[string]any)
		if errObj == nil || errObj["code"] != b.code || m["id"] != nil {
			t.Errorf("%.40q: answer %v, want error %v with a null id", b.line, m, b.code)
			continue
		}
		if msg, _ := errObj["message"].(string); !strings.Contains(msg, b.msg) {
			t.Errorf("%.40q: message %q lacks %q", b.line, msg, b.msg)
		}
	}
	// Still serving.
	m := send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"make_plan","arguments":{"skill":"acat-reimbursement"}}}`)
	if m["id"] != float64(9) || m["result"] == nil {
		t.Errorf("after bad lines: %v", m)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestStdioBatch: a batch (MCP before 2025-06-18) is answered with one
// array of the answers to its requests, in their order, notifications
// left out.
func TestStdioBatch(t *testing.T) {
	inW, sc := rawStdio(t)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	if !sc.Scan() {
		t.Fatal("no answer to initialize")
	}
	io.WriteString(inW, `[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"make_plan","arguments":{"skill":"acat-reimbursement"}}},{"jsonrpc":"2.0","id":7,"method":"ping"}]`+"\n")
	if !sc.Scan() {
		t.Fatalf("no answer to the batch: %v", sc.Err())
	}
	var got []struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
		t.Fatalf("the answer is not an array: %s", sc.Text())
	}
	if len(got) != 2 || got[0].ID != "b" || got[1].ID != float64(7) || got[0].Result == nil || got[1].Result == nil {
		t.Errorf("answers %s, want make_plan's (b) then ping's (7)", sc.Text())
	}
}

// TestStdioBatchRefused: on a session that asked for MCP 2025-06-18, which
// has no batches, a batch gets one error answer, nothing in it runs, and
// the session goes on.
func TestStdioBatchRefused(t *testing.T) {
	inW, sc := rawStdio(t)
	io.WriteString(inW, stdioInitialize+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if !sc.Scan() {
		t.Fatal("no answer to initialize")
	}
	io.WriteString(inW, `[{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"make_plan","arguments":{"skill":"acat-reimbursement"}}},{"jsonrpc":"2.0","id":7,"method":"ping"}]`+"\n")
	if !sc.Scan() {
		t.Fatalf("no answer to the batch: %v", sc.Err())
	}
	var refusal struct {
		ID    any `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(sc.Bytes(), &refusal); err != nil || refusal.ID != nil || refusal.Error.Code != -32600 ||
		!strings.Contains(refusal.Error.Message, "not part of MCP since 2025-06-18, and this session's initialize asked for 2025-06-18") || !strings.Contains(refusal.Error.Message, "a line of its own") {
		t.Fatalf("answer to a batch under 2025-06-18: %s", sc.Text())
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"view_plan","arguments":{}}}`+"\n")
	if !sc.Scan() {
		t.Fatalf("no answer after the batch: %v", sc.Err())
	}
	var view struct {
		ID     any `json:"id"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	// The batch's make_plan did not run: there is no plan to view.
	if err := json.Unmarshal(sc.Bytes(), &view); err != nil || view.ID != float64(8) || !view.Result.IsError {
		t.Errorf("view_plan after the refused batch: %s", sc.Text())
	}
}

// rawStdio runs a server over pipes: what the test writes to in, the
// server reads; sc scans its answers. in is closed when the test ends.
func rawStdio(t *testing.T) (in io.Writer, sc *bufio.Scanner) {
	t.Helper()
	s := newEnv(t, nil).server("alice", "chat-1")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		s.Run(context.Background(), serverStdio(inR, outW))
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	sc = bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	return inW, sc
}

func serverStdio(r io.Reader, w io.Writer) mcp.Transport {
	return server.StdioTransport(r, w, 4096, nil)
}

// syncBuffer is a bytes.Buffer safe for the SDK's writer and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const (
	stdioInitialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
	stdioInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	stdioMakePlan    = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"make_plan","arguments":{"skill":"acat-reimbursement"}}}`
)

// answers maps each JSON-RPC response ID in out to whether it is a result
// that is not a tool error.
func answers(t *testing.T, out string) map[float64]bool {
	t.Helper()
	got := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct {
			ID     *float64 `json:"id"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("answer is not JSON: %.200s", line)
		}
		if m.ID != nil {
			got[*m.ID] = m.Result != nil && !m.Result.IsError
		}
	}
	return got
}

// TestStdioEndOfInput: the client writes initialize, initialized and its
// calls, then closes stdin at once, as a pipe does. Every call is answered
// before the server stops, and make_plan's plan is stored; so is the
// answer of a call still running when the input ends.
func TestStdioEndOfInput(t *testing.T) {
	for i := range 5 {
		e := newEnv(t, nil)
		s := e.server("alice", "chat-1")
		// A call that is surely still running when stdin ends, unless
		// the session cancels it.
		mcp.AddTool(s.MCP(), &mcp.Tool{Name: "slow", Description: "answers after 200 ms, unless cancelled"},
			func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
				select {
				case <-time.After(200 * time.Millisecond):
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
				case <-ctx.Done():
					return nil, nil, context.Cause(ctx)
				}
			})
		in := strings.Join([]string{stdioInitialize, stdioInitialized, stdioMakePlan,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}`}, "\n") + "\n"
		var out syncBuffer
		done := make(chan error, 1)
		go func() { done <- s.Run(context.Background(), serverStdio(strings.NewReader(in), &out)) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run %d: Run: %v", i, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("run %d: the server did not stop after the end of input", i)
		}
		got := answers(t, out.String())
		for id := range 3 {
			if !got[float64(id+1)] {
				t.Fatalf("run %d: request %d has no successful answer; output:\n%s", i, id+1, out.String())
			}
		}
		if p, _ := ok(t, e.client("alice", "chat-1"), "view_plan", nil); p.Title == "" {
			t.Fatalf("run %d: no plan stored", i)
		}
	}
}
