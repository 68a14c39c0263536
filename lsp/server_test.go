package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// wire is the client's end of a connection to a running server: it writes
// frames, well-formed or not, and reads what the server sends.
type wire struct {
	t    *testing.T
	conn net.Conn
	in   chan message // what the server sent, read as it comes: a pipe
	// blocks the server's writes until they are read
	done chan error
}

func startServer(t *testing.T, opts Options) *wire {
	t.Helper()
	client, server := net.Pipe()
	w := &wire{t: t, conn: client, in: make(chan message, 1000), done: make(chan error, 1)}
	go func() { w.done <- New(opts).Serve(context.Background(), server) }()
	go func() {
		r := bufio.NewReader(client)
		for {
			body, _, err := readFrame(r)
			if err != nil {
				close(w.in)
				return
			}
			var m message
			if json.Unmarshal(body, &m) != nil {
				m = message{Method: "unreadable: " + string(body)}
			}
			w.in <- m
		}
	}()
	t.Cleanup(func() { client.Close() })
	return w
}

func (w *wire) raw(s string) {
	w.t.Helper()
	_ = w.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(w.conn, s); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

func (w *wire) send(msg map[string]any) {
	w.t.Helper()
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	w.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(b), b))
}

// message is anything the server sends.
type message struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// next reads the server's next message, failing after a timeout.
func (w *wire) next() message {
	w.t.Helper()
	select {
	case m, ok := <-w.in:
		if !ok {
			w.t.Fatal("the server closed the connection")
		}
		return m
	case <-time.After(10 * time.Second):
		w.t.Fatal("the server sent nothing within 10 s")
	}
	return message{}
}

// until reads messages until one matches, returning it and the
// notifications read before it.
func (w *wire) until(match func(message) bool) (message, []message) {
	w.t.Helper()
	var seen []message
	for {
		m := w.next()
		if match(m) {
			return m, seen
		}
		seen = append(seen, m)
	}
}

func (w *wire) call(id int, method string, params any) message {
	w.t.Helper()
	w.send(map[string]any{"id": id, "method": method, "params": params})
	m, _ := w.until(func(m message) bool { return m.ID != nil && *m.ID == id })
	return m
}

func (w *wire) initialize() {
	w.t.Helper()
	if m := w.call(1, "initialize", map[string]any{"capabilities": map[string]any{}}); m.Error != nil {
		w.t.Fatalf("initialize: %+v", m.Error)
	}
	w.send(map[string]any{"method": "initialized", "params": map[string]any{}})
}

// TestMalformedMessages: whatever a client sends, the server answers it
// or says why it cannot, and goes on: the request after it is answered.
func TestMalformedMessages(t *testing.T) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	tests := []struct {
		name string
		raw  string
		// wantCode is the error code of the answer to request 7, or 0
		// when the message has no answer and a window/logMessage says it
		// was skipped (wantLog).
		wantCode int
		wantLog  string
	}{
		{name: "body not JSON", raw: frame(`{"jsonrpc": "2.0", "id": 7, "method"`), wantLog: "not a JSON-RPC message"},
		{name: "neither request nor response", raw: frame(`{"jsonrpc": "2.0"}`), wantLog: "not a JSON-RPC message"},
		{name: "empty batch", raw: frame(`[]`), wantLog: "not a JSON-RPC message"},
		{name: "no Content-Length", raw: "Content-Type: application/json\r\n\r\n", wantLog: "without Content-Length"},
		{name: "bad Content-Length", raw: "Content-Length: lots\r\n\r\n", wantLog: `bad Content-Length "lots"`},
		{name: "LF line endings", raw: strings.ReplaceAll(frame(`{"jsonrpc":"2.0","id":7,"method":"no/suchThing"}`), "\r\n", "\n"), wantCode: -32601},
		{name: "unknown method", raw: frame(`{"jsonrpc":"2.0","id":7,"method":"no/suchThing"}`), wantCode: -32601},
		{name: "params of the wrong type", raw: frame(`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"position":"top"}}`), wantCode: -32602},
		{name: "hover on a document never opened", raw: frame(`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere.md"},"position":{"line":0,"character":0}}}`)},
		{name: "change to a document never opened", raw: frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere.md","version":2},"contentChanges":[{"text":"x"}]}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := startServer(t, Options{})
			w.initialize()
			w.raw(tt.raw)
			if tt.wantLog != "" {
				m, _ := w.until(func(m message) bool { return m.Method == "window/logMessage" })
				var p protocol.LogMessageParams
				_ = json.Unmarshal(m.Params, &p)
				if !strings.Contains(p.Message, tt.wantLog) {
					t.Errorf("logMessage %s, want %q", m.Params, tt.wantLog)
				}
			}
			if tt.wantCode != 0 {
				m, _ := w.until(func(m message) bool { return m.ID != nil && *m.ID == 7 })
				if m.Error == nil || m.Error.Code != tt.wantCode {
					t.Errorf("answer %+v, want error code %d", m, tt.wantCode)
				}
			}
			// The server is still there.
			if m := w.call(8, "shutdown", nil); m.Error != nil {
				t.Fatalf("shutdown: %+v", m.Error)
			}
			w.send(map[string]any{"method": "exit"})
			select {
			case err := <-w.done:
				if err != nil {
					t.Errorf("Serve after shutdown and exit: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the server did not stop on exit")
			}
		})
	}
}

// TestNotInitialized: a request before initialize has LSP's error for it.
func TestNotInitialized(t *testing.T) {
	w := startServer(t, Options{})
	m := w.call(3, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///a.md"}})
	if m.Error == nil || m.Error.Code != codeServerNotInitialized {
		t.Errorf("answer %+v, want error %d", m, codeServerNotInitialized)
	}
	w.initialize()
}

// TestExitWithoutShutdown: LSP says the server then exits with status 1.
func TestExitWithoutShutdown(t *testing.T) {
	w := startServer(t, Options{})
	w.initialize()
	w.send(map[string]any{"method": "exit"})
	select {
	case err := <-w.done:
		if err == nil {
			t.Error("Serve returned no error for exit without shutdown")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop on exit")
	}
}

// TestEndOfInput: the client going away ends the server, without exit.
func TestEndOfInput(t *testing.T) {
	w := startServer(t, Options{})
	w.initialize()
	w.conn.Close()
	select {
	case <-w.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop at the end of its input")
	}
}

// TestDiagnosticsAsYouType: each change is linted in memory and published
// with its version; fixing the mistake clears it.
func TestDiagnosticsAsYouType(t *testing.T) {
	w := startServer(t, Options{})
	w.initialize()
	uri := "file:///tmp/skillc-lsp-test/refund/SKILL.md"
	src := "# Refund\n\n1. Look « up » 😀.\n   - on failure: clarfy\n2. Clarify. {#clarify}\n"
	w.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": src}}})
	// glsp's IntegerOrString cannot be decoded (its UnmarshalJSON has a
	// value receiver), so the client's side reads codes as strings.
	type diagnostic struct {
		Range protocol.Range
		Code  string
	}
	type published struct {
		Version     *int
		Diagnostics []diagnostic
	}
	pub := func() published {
		m, _ := w.until(func(m message) bool { return m.Method == "textDocument/publishDiagnostics" })
		var p published
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := pub()
	var found *diagnostic
	for i, d := range p.Diagnostics {
		if d.Code == "unknown-target" {
			found = &p.Diagnostics[i]
		}
	}
	if found == nil || p.Version == nil || *p.Version != 1 {
		t.Fatalf("version 1: %+v", p)
	}
	want := protocol.Range{Start: pos(3, 17), End: pos(3, 23)}
	if found.Range != want {
		t.Errorf("unknown-target at %+v, want %+v", found.Range, want)
	}
	// The author types the missing i.
	w.send(map[string]any{"method": "textDocument/didChange", "params": map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": protocol.Range{Start: pos(3, 21), End: pos(3, 21)}, "text": "i"}}}})
	p = pub()
	if p.Version == nil || *p.Version != 2 {
		t.Fatalf("version 2: %+v", p)
	}
	for _, d := range p.Diagnostics {
		if d.Code == "unknown-target" {
			t.Errorf("still reported after the change: %+v", d)
		}
	}
}
