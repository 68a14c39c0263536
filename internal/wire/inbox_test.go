package wire

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestInbox(t *testing.T) {
	ctx := context.Background()
	b := NewInbox()
	bad := errors.New("bad line")
	go func() {
		for _, m := range []string{"a", "b"} {
			if !b.Put(&jsonrpc.Request{Method: m}) {
				return
			}
		}
		b.End(bad)
	}()
	for _, want := range []string{"a", "b"} {
		m, err := b.Read(ctx)
		if err != nil || m.(*jsonrpc.Request).Method != want {
			t.Fatalf("Read = %v, %v; want %q", m, err, want)
		}
	}
	if _, err := b.Read(ctx); !errors.Is(err, bad) {
		t.Fatalf("Read after End = %v; want %v", err, bad)
	}

	// Close unblocks a Read waiting on a silent reader, and a Put.
	b = NewInbox()
	done := make(chan error)
	go func() { _, err := b.Read(ctx); done <- err }()
	time.Sleep(10 * time.Millisecond)
	b.Close()
	b.Close() // more than once is fine
	if err := <-done; err != io.EOF {
		t.Fatalf("Read after Close = %v; want io.EOF", err)
	}
	if b.Put(&jsonrpc.Request{Method: "late"}) {
		t.Fatal("Put after Close = true")
	}

	// A cancelled context ends a Read too.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewInbox().Read(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read with a cancelled context = %v", err)
	}
}
