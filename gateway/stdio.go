package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjson "github.com/segmentio/encoding/json"

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
	// conn is the connection Connect made, for Pool.Forward.
	conn *stdioConn
}

// Connect implements mcp.Transport: it starts the server.
func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// The server's stdin is a pipe of our own rather than StdinPipe's,
	// whose *os.File is hidden: wire.Pipe needs the file.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	t.cmd.Stdin = pr
	err = t.cmd.Start()
	pr.Close() // the server's end, the server's now
	if err != nil {
		pw.Close()
		return nil, err
	}
	c := &stdioConn{cmd: t.cmd, stdin: pw, toServer: wire.Pipe(pw), terminate: t.terminate, in: wire.NewInbox()}
	t.conn = c
	var fromServer io.Reader = stdout
	if f, ok := stdout.(*os.File); ok {
		fromServer = wire.Pipe(f)
	}
	go c.read(fromServer)
	return c, nil
}

// stdioConn is the mcp.Connection of stdioTransport. A goroutine of its
// own reads the server's stdout, so that Close unblocks a Read.
type stdioConn struct {
	cmd       *exec.Cmd
	terminate time.Duration

	writeMu sync.Mutex
	stdin   *os.File
	// toServer writes to stdin (wire.Pipe).
	toServer io.Writer

	// in carries the messages read, in order, to Read; it ends when
	// stdout ends or sends what is not a message.
	in *wire.Inbox

	// The calls of rawCall waiting for their answers, by request ID, and
	// why none can be answered any more once the connection ended.
	rawMu    sync.Mutex
	rawCalls map[string]chan rawAnswer
	rawEnded error
	rawSeq   atomic.Uint64

	closeOnce sync.Once
	closeErr  error
}

// rawIDPrefix starts the request IDs of rawCall. The SDK's client numbers
// its requests, so a string ID is never one of its own: the reader routes
// the answer to rawCall and the SDK never sees it.
const rawIDPrefix = "skillc-fwd-"

// rawAnswer is what a rawCall gets: the result as the upstream wrote it,
// or a *jsonrpc.Error, or why the connection ended.
type rawAnswer struct {
	result json.RawMessage
	err    error
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
			if r, ok := m.(*jsonrpc.Response); ok && c.answerRaw(r) {
				continue
			}
			if !c.in.Put(m) {
				c.endRaw(errors.New("the connection closed"))
				return // closed
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.endRaw(errors.New("the upstream's output ended"))
			} else {
				c.endRaw(err)
			}
			c.in.End(err)
			return
		}
	}
}

// answerRaw hands r to the rawCall waiting for it, and reports whether r
// answers one (or one that gave up waiting): the SDK made no such call.
func (c *stdioConn) answerRaw(r *jsonrpc.Response) bool {
	id, ok := r.ID.Raw().(string)
	if !ok || !strings.HasPrefix(id, rawIDPrefix) {
		return false
	}
	c.rawMu.Lock()
	ch := c.rawCalls[id]
	delete(c.rawCalls, id)
	c.rawMu.Unlock()
	if ch != nil {
		ch <- rawAnswer{result: r.Result, err: r.Error}
		// Let the caller write the answer on before this goroutine reads
		// the upstream again, which finds nothing and only then yields
		// (see forwarder.intercept in the server).
		runtime.Gosched()
	}
	return true
}

// endRaw answers every waiting rawCall with why the connection ended, as
// the SDK's client answers its own calls: connection closed.
func (c *stdioConn) endRaw(why error) {
	err := fmt.Errorf("%w: calling %q: %v", mcp.ErrConnectionClosed, "tools/call", why)
	c.rawMu.Lock()
	defer c.rawMu.Unlock()
	if c.rawEnded != nil {
		return
	}
	c.rawEnded = err
	for id, ch := range c.rawCalls {
		ch <- rawAnswer{err: err}
		delete(c.rawCalls, id)
	}
}

// rawCall sends tools/call for tool with args (checked by rawArgs) and returns the upstream's result as it
// came, without the SDK's client decoding it into a *mcp.CallToolResult
// that the server then encodes again. The answer's error, when the
// upstream sent one, is a *jsonrpc.Error; any other error is the
// connection's. When ctx ends first the upstream is told
// (notifications/cancelled) and ctx's error returned.
func (c *stdioConn) rawCall(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
	id := rawIDPrefix + strconv.FormatUint(c.rawSeq.Add(1), 10)
	line := toolsCallLine(id, tool, args)
	ch := make(chan rawAnswer, 1)
	c.rawMu.Lock()
	if c.rawEnded != nil {
		err := c.rawEnded
		c.rawMu.Unlock()
		return nil, err
	}
	if c.rawCalls == nil {
		c.rawCalls = map[string]chan rawAnswer{}
	}
	c.rawCalls[id] = ch
	c.rawMu.Unlock()
	if err := c.writeLine(line); err != nil {
		c.forgetRaw(id)
		return nil, fmt.Errorf("%w: calling %q: %v", mcp.ErrConnectionClosed, "tools/call", err)
	}
	select {
	case a := <-ch:
		if a.err != nil {
			return nil, a.err
		}
		// What the SDK's client could not decode into a result fails
		// the call as the connection's fault, as it does there.
		if r := bytes.TrimSpace(a.result); len(r) == 0 || r[0] != '{' {
			return nil, fmt.Errorf("calling %q: the upstream's result is not a JSON object", "tools/call")
		}
		return a.result, nil
	case <-ctx.Done():
		c.forgetRaw(id)
		// Off the caller's way, as the SDK sends its own: a stuck
		// upstream must not hold the answer to the client.
		go c.notifyCancelled(id, ctx.Err())
		return nil, ctx.Err()
	}
}

func (c *stdioConn) forgetRaw(id string) {
	c.rawMu.Lock()
	delete(c.rawCalls, id)
	c.rawMu.Unlock()
}

func (c *stdioConn) notifyCancelled(id string, why error) {
	params, err := json.Marshal(&mcp.CancelledParams{RequestID: id, Reason: why.Error()})
	if err != nil {
		return
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Request{Method: "notifications/cancelled", Params: params})
	if err != nil {
		return
	}
	_ = c.writeLine(append(data, '\n'))
}

// rawArgs checks what rawCall sends as the arguments: one JSON object
// (nil for none: {}), compacted when it spans lines so the request stays
// one line.
func rawArgs(args json.RawMessage) (json.RawMessage, error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		return json.RawMessage("{}"), nil
	}
	if args[0] != '{' || !sjson.Valid(args) {
		return nil, errors.New("the arguments are not a JSON object")
	}
	if bytes.IndexByte(args, '\n') >= 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, args); err != nil {
			return nil, err
		}
		args = b.Bytes()
	}
	return args, nil
}

// toolsCallLine is the request line of rawCall, written out rather than
// marshalled: the arguments (checked by rawArgs) go as the client wrote
// them, without a decode and an encode of their own, in the params the
// SDK's client sends (name and arguments).
func toolsCallLine(id, tool string, args json.RawMessage) []byte {
	line := make([]byte, 0, 80+len(id)+len(tool)+len(args))
	line = append(line, `{"jsonrpc":"2.0","id":"`...)
	line = append(line, id...)
	line = append(line, `","method":"tools/call","params":{"name":`...)
	line = appendString(line, tool)
	line = append(line, `,"arguments":`...)
	line = append(line, args...)
	line = append(line, "}}\n"...)
	return line
}

// appendString appends s as a JSON string: as it is between quotes when
// it needs no escape (tool names do not), else as encoding/json writes it.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
	return c.writeLine(append(data, '\n'))
}

// writeLine writes one whole line, the SDK's messages and rawCall's alike.
func (c *stdioConn) writeLine(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.toServer.Write(line)
	return err
}

// Close implements mcp.Connection: it closes the server's stdin and waits
// for it to exit, sending SIGTERM and then SIGKILL to one that does not
// within terminate (the spec's shutdown for stdio, as the SDK does it).
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		c.in.Close()
		c.endRaw(errors.New("the connection closed"))
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
