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
func StdioTransport(r io.Reader, w io.Writer, maxLine int, logger *slog.Logger) mcp.Transport {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	lw := &lockedWriter{w: w}
	pr, pw := io.Pipe()
	go filterLines(r, pw, lw, maxLine, logger)
	// The SDK's own line bound stays above ours: a line that got through
	// is never refused twice.
	return &mcp.IOTransport{Reader: pr, Writer: lw, MaxLineLength: maxLine + 1}
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

func filterLines(r io.Reader, pw *io.PipeWriter, out io.Writer, maxLine int, logger *slog.Logger) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br, maxLine)
		if tooLong {
			logger.Warn("refused an oversized stdio message", "limit", maxLine)
			writeError(out, codeInvalidRequest, fmt.Sprintf("message longer than %d bytes refused (raise --max-body)", maxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if msgErr := checkMessage(line); msgErr != nil {
				logger.Warn("refused a malformed stdio message", "err", msgErr)
				code := codeInvalidRequest
				if !json.Valid(line) {
					code = codeParseError
				}
				writeError(out, code, msgErr.Error())
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return // the SDK side closed: the session is over
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				pw.Close()
			} else {
				pw.CloseWithError(err)
			}
			return
		}
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

// checkMessage accepts what the SDK will decode: one JSON-RPC message or a
// batch of them.
func checkMessage(line []byte) error {
	if line[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil {
			return fmt.Errorf("not JSON: %v", err)
		}
		if len(batch) == 0 {
			return errors.New("empty batch")
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return err
			}
		}
		return nil
	}
	if !json.Valid(line) {
		return errors.New("not JSON: each line must be one JSON-RPC message")
	}
	_, err := jsonrpc.DecodeMessage(line)
	return err
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
