package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
// decode, which would end `skillc serve` and every plan call after it. This
// filter, hand-written because the SDK has no hook for it, answers such a
// line (not JSON, not JSON-RPC, or longer than maxLine) with a JSON-RPC
// error and passes only well-formed messages on, so the server keeps
// serving after any bad line.
//
// The filter also holds back the end of input until every request read
// has been answered (or StdioDrainGrace has passed): the SDK ends the
// session, and cancels the calls still running, as soon as its input
// ends, so a client that writes its requests and closes stdin (a pipe, a
// script) would otherwise get no answer to the last ones.
func StdioTransport(r io.Reader, w io.Writer, maxLine int, logger *slog.Logger) mcp.Transport {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	lw := &lockedWriter{w: w}
	pending := newInflight()
	pr, pw := io.Pipe()
	sdkIn := &sdkReader{PipeReader: pr, closed: make(chan struct{})}
	go filterLines(r, pw, lw, maxLine, logger, pending, sdkIn.closed)
	// The SDK's own line bound stays above ours: a line that got through
	// is never refused twice.
	return &mcp.IOTransport{Reader: sdkIn, Writer: &answerWriter{w: lw, pending: pending}, MaxLineLength: maxLine + 1}
}

// StdioDrainGrace bounds how long the server waits, once stdin has ended,
// for the answers to requests still running.
const StdioDrainGrace = ShutdownGrace

// sdkReader is the SDK's end of the pipe; closed tells the filter that the
// session is over, so it stops waiting for answers that will not come.
type sdkReader struct {
	*io.PipeReader
	once   sync.Once
	closed chan struct{}
}

func (r *sdkReader) Close() error {
	r.once.Do(func() { close(r.closed) })
	return r.PipeReader.Close()
}

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

// answerWriter passes the SDK's messages on and, once one is written,
// marks the requests it answers as answered.
type answerWriter struct {
	w       io.WriteCloser
	pending *inflight
}

func (a *answerWriter) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	if err == nil {
		for _, id := range responseIDs(p) {
			a.pending.answered(id)
		}
	}
	return n, err
}

func (a *answerWriter) Close() error { return a.w.Close() }

// responseIDs returns the IDs of the responses in one line the SDK wrote:
// a message or a batch. Requests and notifications the server sends have
// a method and answer nothing.
func responseIDs(line []byte) []jsonrpc.ID {
	type envelope struct {
		ID     any    `json:"id"`
		Method string `json:"method"`
	}
	var msgs []envelope
	if line = bytes.TrimSpace(line); len(line) > 0 && line[0] == '[' {
		if json.Unmarshal(line, &msgs) != nil {
			return nil
		}
	} else {
		var m envelope
		if json.Unmarshal(line, &m) != nil {
			return nil
		}
		msgs = []envelope{m}
	}
	var ids []jsonrpc.ID
	for _, m := range msgs {
		if m.Method != "" || m.ID == nil {
			continue
		}
		if id, err := jsonrpc.MakeID(m.ID); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// lockedWriter serializes whole-message writes from the SDK and from the
// filter, so their lines never interleave. The SDK writes each message,
// newline included, in one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

func filterLines(r io.Reader, pw *io.PipeWriter, out io.Writer, maxLine int, logger *slog.Logger, pending *inflight, sdkClosed <-chan struct{}) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br, maxLine)
		if tooLong {
			logger.Warn("refused an oversized stdio message", "limit", maxLine)
			writeError(out, codeInvalidRequest, fmt.Sprintf("message longer than %d bytes refused (raise --max-body)", maxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			msgs, msgErr := decodeLine(line)
			if msgErr != nil {
				logger.Warn("refused a malformed stdio message", "err", msgErr)
				code := codeInvalidRequest
				if !json.Valid(line) {
					code = codeParseError
				}
				writeError(out, code, msgErr.Error())
			} else {
				// Counted before the SDK can see it, so its answer
				// cannot come first.
				for _, m := range msgs {
					if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() {
						pending.add(req.ID)
					}
				}
				if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return // the SDK side closed: the session is over
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				drain(pending, sdkClosed, logger)
				pw.Close()
			} else {
				pw.CloseWithError(err)
			}
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

// readLine reads up to and without the next newline. A line longer than
// max is read to its end and dropped, so memory stays bounded by max.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline itself
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// decodeLine accepts what the SDK will decode: one JSON-RPC message or a
// batch of them.
func decodeLine(line []byte) ([]jsonrpc.Message, error) {
	if line[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		if len(batch) == 0 {
			return nil, errors.New("empty batch")
		}
		msgs := make([]jsonrpc.Message, 0, len(batch))
		for _, raw := range batch {
			m, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		}
		return msgs, nil
	}
	if !json.Valid(line) {
		return nil, errors.New("not JSON: each line must be one JSON-RPC message")
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, err
	}
	return []jsonrpc.Message{m}, nil
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
