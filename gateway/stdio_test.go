package gateway

import (
	"context"
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
