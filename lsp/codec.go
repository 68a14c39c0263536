package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
)

// maxMessage bounds one message's body. An editor sends a whole document
// in didOpen, so the bound is well above compiler.DefaultMaxSize; a larger
// Content-Length is read past and reported, never allocated.
const maxMessage = 64 << 20

// methodMalformed is the notification the codec hands the server in place
// of a message it could not read, so the server can say so and go on.
const methodMalformed = "$/skillc/malformedMessage"

// codec frames messages as LSP's base protocol does (Content-Length
// headers, then a JSON body), like jsonrpc2.VSCodeObjectCodec, but it does
// not give up on a bad message: jsonrpc2 closes the connection on any
// read error, which would end the server over one malformed message. A
// body that is not a JSON-RPC message, a header without a usable
// Content-Length or a body over maxMessage becomes a methodMalformed
// notification instead; only the end of the input (or a read error of
// the stream itself) ends the connection.
type codec struct{}

func (codec) WriteObject(w io.Writer, v any) error {
	return jsonrpc2.VSCodeObjectCodec{}.WriteObject(w, v)
}

func (codec) ReadObject(r *bufio.Reader, v any) error {
	body, problem, err := readFrame(r)
	if err != nil {
		return err
	}
	if problem == "" {
		err := json.Unmarshal(body, v)
		if err == nil {
			return nil
		}
		problem = "not a JSON-RPC message: " + err.Error()
	}
	note, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "method": methodMalformed,
		"params": map[string]string{"problem": problem},
	})
	return json.Unmarshal(note, v)
}

// readFrame reads one header block and its body. problem is set, with no
// error, when the frame cannot be used but the stream can go on.
func readFrame(r *bufio.Reader) (body []byte, problem string, err error) {
	length, headers := -1, 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && (line != "" || headers > 0) {
				err = io.ErrUnexpectedEOF
			}
			return nil, "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if headers == 0 {
				continue // a stray blank line between messages
			}
			break
		}
		headers++
		name, value, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue // Content-Type, or noise: skipped
		}
		value = strings.TrimSpace(value)
		if n, perr := strconv.ParseInt(value, 10, 64); perr == nil && n >= 0 {
			length = int(n)
		} else {
			problem, length = fmt.Sprintf("bad Content-Length %q", value), -1
		}
	}
	if length < 0 {
		if problem == "" {
			problem = "a header block without Content-Length"
		}
		return nil, problem, nil
	}
	if length > maxMessage {
		if _, err := io.CopyN(io.Discard, r, int64(length)); err != nil {
			return nil, "", err
		}
		return nil, fmt.Sprintf("a message of %d bytes, over the limit of %d", length, maxMessage), nil
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, "", err
	}
	return body, "", nil
}
