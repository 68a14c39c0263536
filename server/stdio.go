package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/internal/wire"
)

// JSON-RPC error codes for lines that never reach the SDK.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// StdioTransport serves one client over r (its requests, one JSON-RPC
// message per line) and w. maxLine bounds one line, in bytes.
//
// The SDK's stdio transport ends the session on the first line it cannot
// decode, which would end `skillc serve` and every plan call after it.
// This connection, hand-written because the SDK has no hook for it,
// answers such a line (not JSON, not JSON-RPC, or longer than maxLine)
// with a JSON-RPC error and hands only well-formed messages to the SDK,
// so the server keeps serving after any bad line. Each line is decoded
// once, here, and reaches the SDK as a message: the SDK's own transport
// would decode it again, twice.
//
// The connection also holds back the end of input until every request
// read has been answered (or StdioDrainGrace has passed): the SDK ends
// the session, and cancels the calls still running, as soon as its input
// ends, so a client that writes its requests and closes stdin (a pipe, a
// script) would otherwise get no answer to the last ones.
func StdioTransport(r io.Reader, w io.Writer, maxLine int, logger *slog.Logger) mcp.Transport {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &stdioTransport{r: r, w: w, maxLine: maxLine, logger: logger}
}

type stdioTransport struct {
	r       io.Reader
	w       io.Writer
	maxLine int
	logger  *slog.Logger
	// fwd, set by Server.Run when the server is a gateway, forwards the
	// common upstream call past the SDK (forward.go).
	fwd *forwarder
}

// Connect implements mcp.Transport: it starts reading r.
func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{
		out:     &lockedWriter{w: t.w},
		pending: newInflight(),
		logger:  t.logger,
		in:      wire.NewInbox(),
		fwd:     t.fwd,
	}
	go c.readLines(t.r, t.maxLine)
	return c, nil
}

// StdioDrainGrace bounds how long the server waits, once stdin has ended,
// for the answers to requests still running.
const StdioDrainGrace = ShutdownGrace

// stdioConn is the mcp.Connection of StdioTransport. A goroutine of its
// own reads the lines (readLines), so that Close unblocks a Read however
// long the input stays silent.
type stdioConn struct {
	out     *lockedWriter
	pending *inflight
	logger  *slog.Logger

	// in carries the messages read, in order, to Read; it ends at the end
	// of input.
	in *wire.Inbox

	batches batches
	// version is the protocol version the client's initialize asked
	// for; only the reader goroutine uses it.
	version string
	// fwd, when set, takes forwarded calls off the SDK's path.
	fwd *forwarder
}

// Read implements mcp.Connection.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) { return c.in.Read(ctx) }

// Write implements mcp.Connection: one message per line, except the
// answers to a batch, which go out together as one array once all are in.
// An answer marks its request answered once it is written.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp, _ := msg.(*jsonrpc.Response)
	if resp != nil && c.fwd != nil {
		c.fwd.answered(resp)
	}
	var data []byte
	var err error
	if all, inBatch := c.batches.answer(resp); inBatch {
		if all == nil {
			return nil // the batch waits for its other answers
		}
		data, err = encodeBatch(all)
		defer func() {
			for _, r := range all {
				c.pending.answered(r.ID)
			}
		}()
	} else {
		data, err = jsonrpc.EncodeMessage(msg)
		if resp != nil {
			defer c.pending.answered(resp.ID)
		}
	}
	if err != nil {
		return fmt.Errorf("encode a message: %w", err)
	}
	_, err = c.out.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection. It leaves r and w open: they are the
// process's stdin and stdout, and the reading goroutine ends at the end of
// input or at the next line.
func (c *stdioConn) Close() error {
	c.in.Close()
	if c.fwd != nil {
		c.fwd.cancel()
	}
	return nil
}

// SessionID implements mcp.Connection: stdio has no session ID.
func (c *stdioConn) SessionID() string { return "" }

// inflight is the set of request IDs read from the client and not yet
// answered.
type inflight struct {
	mu  sync.Mutex
	ids map[jsonrpc.ID]int // an ID a client reuses counts twice
	// drained is closed while no request is pending, and replaced by an
	// open one when a request arrives.
	drained chan struct{}
}

func newInflight() *inflight {
	d := make(chan struct{})
	close(d)
	return &inflight{ids: map[jsonrpc.ID]int{}, drained: d}
}

func (f *inflight) add(id jsonrpc.ID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.ids) == 0 {
		f.drained = make(chan struct{})
	}
	f.ids[id]++
}

func (f *inflight) answered(id jsonrpc.ID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.ids[id]
	if !ok {
		return
	}
	if n > 1 {
		f.ids[id] = n - 1
		return
	}
	delete(f.ids, id)
	if len(f.ids) == 0 {
		close(f.drained)
	}
}

// wait returns a channel closed once nothing is pending, and how many
// requests are pending now.
func (f *inflight) wait() (<-chan struct{}, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.drained, len(f.ids)
}

// lockedWriter serializes whole-line writes, the SDK's messages and the
// error answers to bad lines, so that lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// readLines reads r until it ends: it answers each bad line with an error
// and hands each message on to Read.
func (c *stdioConn) readLines(r io.Reader, maxLine int) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := wire.ReadLine(br, maxLine)
		if tooLong {
			c.logger.Warn("refused an oversized stdio message", "limit", maxLine)
			writeError(c.out, codeInvalidRequest, fmt.Sprintf("message longer than %d bytes refused (raise --max-body)", maxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			msgs, msgErr := wire.DecodeLine(line)
			switch {
			case msgErr != nil:
			case line[0] == '[' && c.version >= batchlessProtocol:
				msgErr = fmt.Errorf("batches (JSON arrays of messages) are not part of MCP since %s, and this session's initialize asked for %s: send each message on a line of its own", batchlessProtocol, c.version)
			case line[0] == '[':
				msgErr = c.batches.add(msgs)
			default:
				if req, ok := msgs[0].(*jsonrpc.Request); ok && req.Method == "initialize" {
					c.version = requestedVersion(req.Params)
				}
			}
			if msgErr != nil {
				c.logger.Warn("refused a malformed stdio message", "err", msgErr)
				code := codeInvalidRequest
				if !json.Valid(line) {
					code = codeParseError
				}
				writeError(c.out, code, msgErr.Error())
			} else if len(msgs) != 1 || line[0] == '[' || c.fwd == nil || !c.fwd.intercept(c, msgs[0]) {
				// To the SDK, unless forwarded past it (forward.go).
				// Counted before the SDK can see it, so its answer
				// cannot come first.
				for _, m := range msgs {
					if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() {
						c.pending.add(req.ID)
					}
				}
				for _, m := range msgs {
					if !c.in.Put(m) {
						return // the session is over
					}
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				drain(c.pending, c.in.Closed(), c.logger)
			}
			c.in.End(err)
			return
		}
	}
}

// drain waits, at the end of input, until every request read has been
// answered, the session has ended, or StdioDrainGrace has passed.
func drain(pending *inflight, sdkClosed <-chan struct{}, logger *slog.Logger) {
	done, n := pending.wait()
	if n == 0 {
		return
	}
	t := time.NewTimer(StdioDrainGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-sdkClosed:
	case <-t.C:
		_, n = pending.wait()
		logger.Warn("stdin closed; stopping with requests unanswered", "unanswered", n, "waited", StdioDrainGrace)
	}
}

// batchlessProtocol is the first MCP version without JSON-RPC batches.
// A batch on a session that asked for it or later is refused with an
// error answer and the session goes on (the SDK's own stdio transport
// ends the session).
const batchlessProtocol = "2025-06-18"

// requestedVersion is the protocolVersion of initialize's params ("" when
// there is none: the SDK answers that request's error).
func requestedVersion(params json.RawMessage) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	return p.ProtocolVersion
}

func writeError(w io.Writer, code int, msg string) {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	data, _ := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      *int     `json:"id"` // always null: the request's ID is unknown
		Error   rpcError `json:"error"`
	}{"2.0", nil, rpcError{code, msg}})
	w.Write(append(data, '\n'))
}

// batches tracks the requests of the batches read (a JSON array of
// messages, JSON-RPC 2.0 and MCP before 2025-06-18), whose answers go out
// together as one array.
type batches struct {
	mu sync.Mutex
	of map[jsonrpc.ID]*batch // by the ID of each request still unanswered
}

type batch struct {
	unanswered int
	answers    []*jsonrpc.Response // in the order of the requests
	index      map[jsonrpc.ID]int
}

// add starts tracking a batch's requests. An ID seen twice, in the batch
// or in a batch still unanswered, is refused: its answers could not be
// told apart.
func (b *batches) add(msgs []jsonrpc.Message) error {
	bt := &batch{index: map[jsonrpc.ID]int{}}
	for _, m := range msgs {
		req, ok := m.(*jsonrpc.Request)
		if !ok || !req.ID.IsValid() {
			continue
		}
		if _, dup := bt.index[req.ID]; dup {
			return fmt.Errorf("the batch has two requests with ID %v", req.ID.Raw())
		}
		bt.index[req.ID] = len(bt.answers)
		bt.answers = append(bt.answers, nil)
	}
	if len(bt.answers) == 0 {
		return nil // notifications and answers only: nothing to answer
	}
	bt.unanswered = len(bt.answers)
	b.mu.Lock()
	defer b.mu.Unlock()
	for id := range bt.index {
		if _, ok := b.of[id]; ok {
			return fmt.Errorf("request ID %v is still unanswered in an earlier batch", id.Raw())
		}
	}
	if b.of == nil {
		b.of = map[jsonrpc.ID]*batch{}
	}
	for id := range bt.index {
		b.of[id] = bt
	}
	return nil
}

// answer records resp if it answers a request of a batch: inBatch then
// says so, and all is the batch's answers once resp was the last one.
func (b *batches) answer(resp *jsonrpc.Response) (all []*jsonrpc.Response, inBatch bool) {
	if resp == nil {
		return nil, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bt, ok := b.of[resp.ID]
	if !ok {
		return nil, false
	}
	delete(b.of, resp.ID)
	bt.answers[bt.index[resp.ID]] = resp
	if bt.unanswered--; bt.unanswered > 0 {
		return nil, true
	}
	return bt.answers, true
}

func encodeBatch(answers []*jsonrpc.Response) ([]byte, error) {
	raw := make([]json.RawMessage, len(answers))
	for i, a := range answers {
		b, err := jsonrpc.EncodeMessage(a)
		if err != nil {
			return nil, err
		}
		raw[i] = b
	}
	return json.Marshal(raw)
}
