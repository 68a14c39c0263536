package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

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

func serverStdio(r io.Reader, w io.Writer) mcp.Transport {
	return server.StdioTransport(r, w, 4096, nil)
}
