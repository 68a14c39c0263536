package gateway

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/internal/wire"
)

// maxUpstreamLine bounds one line from a stdio upstream, as the SDK's own
// transport does (mcp.DefaultMaxLineLength).
const maxUpstreamLine = mcp.DefaultMaxLineLength

// stdioTransport starts a stdio upstream and speaks to it one JSON-RPC
// message a line, and stops it as mcp.CommandTransport does. Unlike that
// one it hands the SDK each answer decoded once, by wire.DecodeMessage:
// the SDK's line transport reads every answer with a json.Decoder, then
// decodes it as a batch, then as a message, each time through a decoder
// that allocates 32 KiB.
type stdioTransport struct {
	cmd *exec.Cmd
	// terminate is how long Close waits for the server to exit after its
	// stdin closed, and then after SIGTERM, before it kills it.
	terminate time.Duration
}

// Connect implements mcp.Transport: it starts the server.
func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	c := &stdioConn{cmd: t.cmd, stdin: stdin, terminate: t.terminate, in: wire.NewInbox()}
	go c.read(stdout)
	return c, nil
}

// stdioConn is the mcp.Connection of stdioTransport. A goroutine of its
// own reads the server's stdout, so that Close unblocks a Read.
type stdioConn struct {
	cmd       *exec.Cmd
	terminate time.Duration

	writeMu sync.Mutex
	stdin   io.WriteCloser

	// in carries the messages read, in order, to Read; it ends when
	// stdout ends or sends what is not a message.
	in *wire.Inbox

	closeOnce sync.Once
	closeErr  error
}

func (c *stdioConn) read(stdout io.Reader) {
	br := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, tooLong, err := wire.ReadLine(br, maxUpstreamLine)
		var msgs []jsonrpc.Message
		if tooLong {
			err = fmt.Errorf("the upstream sent a line longer than %d bytes", maxUpstreamLine)
		} else if line = bytes.TrimSpace(line); len(line) > 0 && err == nil {
			if msgs, err = wire.DecodeLine(line); err != nil {
				err = fmt.Errorf("the upstream sent what is not a JSON-RPC message: %w", err)
			}
		}
		for _, m := range msgs {
			if !c.in.Put(m) {
				return // closed
			}
		}
		if err != nil {
			c.in.End(err)
			return
		}
	}
}

// Read implements mcp.Connection.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) { return c.in.Read(ctx) }

// Write implements mcp.Connection: one message, one line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode a message: %w", err)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.stdin.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection: it closes the server's stdin and waits
// for it to exit, sending SIGTERM and then SIGKILL to one that does not
// within terminate (the spec's shutdown for stdio, as the SDK does it).
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		c.in.Close()
		c.closeErr = c.stop()
	})
	return c.closeErr
}

func (c *stdioConn) stop() error {
	if err := c.stdin.Close(); err != nil {
		return fmt.Errorf("closing stdin: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	wait := func() (error, bool) {
		select {
		case err := <-exited:
			return err, true
		case <-time.After(c.terminate):
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if c.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := c.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("the upstream does not exit")
}

// SessionID implements mcp.Connection: stdio has no session ID.
func (c *stdioConn) SessionID() string { return "" }
