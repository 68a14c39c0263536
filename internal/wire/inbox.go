package wire

import (
	"context"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Inbox hands the messages a connection's own reader goroutine decoded to
// the SDK's Read, in order. The reader is a goroutine of its own so that
// closing the connection unblocks a Read however long the other side stays
// silent.
type Inbox struct {
	incoming  chan jsonrpc.Message
	err       error // why the input ended; set before incoming is closed
	closed    chan struct{}
	closeOnce sync.Once
}

// NewInbox returns an open, empty inbox.
func NewInbox() *Inbox {
	return &Inbox{incoming: make(chan jsonrpc.Message), closed: make(chan struct{})}
}

// Read is mcp.Connection's Read: the next message; once the input has
// ended, its error; once the inbox is closed, io.EOF.
func (b *Inbox) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m, ok := <-b.incoming:
		if !ok {
			return nil, b.err
		}
		return m, nil
	case <-b.closed:
		return nil, io.EOF
	}
}

// Put waits until Read takes m. It reports false, m untaken, when the
// inbox was closed first: the reader should stop.
func (b *Inbox) Put(m jsonrpc.Message) bool {
	select {
	case b.incoming <- m:
		return true
	case <-b.closed:
		return false
	}
}

// End records that the input ended with err (io.EOF at its end): Read
// returns err once the messages before it are read. The reader calls it
// once, last.
func (b *Inbox) End(err error) {
	b.err = err
	close(b.incoming)
}

// Close makes Read return io.EOF and Put false; it may be called more
// than once.
func (b *Inbox) Close() { b.closeOnce.Do(func() { close(b.closed) }) }

// Closed is closed by Close.
func (b *Inbox) Closed() <-chan struct{} { return b.closed }
