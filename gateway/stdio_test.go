package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestStdioTransportLines: each line the server writes is one message, in
// order; a line that is not one ends the connection with an error.
func TestStdioTransportLines(t *testing.T) {
	cmd := exec.Command("sh", "-c", `printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{}}' '' '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}' 'not json'; cat >/dev/null`)
	c, err := (&stdioTransport{cmd: cmd, terminate: time.Second}).Connect(context.Background())
	if err != nil {
		t.Skipf("no sh: %v", err)
	}
	defer c.Close()
	ctx := context.Background()
	if m, err := c.Read(ctx); err != nil || m.(*jsonrpc.Response).ID.Raw() != int64(1) {
		t.Fatalf("first: %#v %v", m, err)
	}
	if m, err := c.Read(ctx); err != nil || m.(*jsonrpc.Request).Method != "notifications/tools/list_changed" {
		t.Fatalf("second: %#v %v", m, err)
	}
	if m, err := c.Read(ctx); err == nil || !strings.Contains(err.Error(), "not a JSON-RPC message") {
		t.Fatalf("a line that is not JSON: %#v %v", m, err)
	}
}

// TestStdioTransportClose: a server that does not exit when its stdin
// closes is sent SIGTERM after terminate, and Close returns.
func TestStdioTransportClose(t *testing.T) {
	cmd := exec.Command("sh", "-c", `cat >/dev/null; exec sleep 60`)
	c, err := (&stdioTransport{cmd: cmd, terminate: 100 * time.Millisecond}).Connect(context.Background())
	if err != nil {
		t.Skipf("no sh: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}
	if cmd.ProcessState == nil || cmd.ProcessState.Exited() {
		t.Errorf("the server was not stopped by a signal: %v", cmd.ProcessState)
	}
}

// TestToolsCallLine: the request line of a raw call is one JSON-RPC
// message whose params are the name and the arguments as given, for any
// tool name.
func TestToolsCallLine(t *testing.T) {
	for _, name := range []string{"echo", "read_text_file", "get-sum", `a"b`, `back\slash`, "<&>", "héllo", "tab\there", ""} {
		line := toolsCallLine("skillc-fwd-1", name, json.RawMessage(`{"x":[1,"two"]}`))
		if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
			t.Errorf("%q: not one line: %q", name, line)
		}
		var m struct {
			JSONRPC string `json:"jsonrpc"`
			ID      string `json:"id"`
			Method  string `json:"method"`
			Params  struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("%q: %v: %s", name, err, line)
		}
		if m.JSONRPC != "2.0" || m.ID != "skillc-fwd-1" || m.Method != "tools/call" || m.Params.Name != name || string(m.Params.Arguments) != `{"x":[1,"two"]}` {
			t.Errorf("%q: %s", name, line)
		}
		want, _ := json.Marshal(name)
		if !bytes.Contains(line, append(append([]byte(`"name":`), want...), ',')) {
			t.Errorf("%q: the name is not as encoding/json writes it: %s", name, line)
		}
	}
}
