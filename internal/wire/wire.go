// Package wire is what skillc's own MCP stdio connections (the server's
// stdin, the gateway's stdio upstreams) share: reading and writing their
// pipes (Pipe), reading a line, decoding it into JSON-RPC messages, and
// handing them to the SDK's Read.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sjson "github.com/segmentio/encoding/json"
)

// DecodeMessage is jsonrpc.DecodeMessage without its stream decoder: the
// same wire form, decoded by the same JSON package (segmentio's, keys
// matched exactly, nesting bounded at 1000) into the same shape, so it
// gives the same messages and refuses the same lines. It is stricter in
// one way: the whole of data must be one JSON value (the SDK's ignores
// what follows the first). The SDK's goes through a json.Decoder that
// allocates a 32 KiB buffer per message, twice per message: on a
// tools/call line it took about 20 µs and 66 KB here; encoding/json
// into a map, which this was before, about 3.9 µs and 1.5 KB; this
// about 1.8 µs and 400 B (BenchmarkDecodeMessage). A call forwarded
// through the gateway decodes two such lines. FuzzDecodeMessage holds
// the two to the same answers.
func DecodeMessage(data []byte) (jsonrpc.Message, error) {
	if err := checkDepth(data); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	var msg wireMessage
	rest, err := sjson.Parse(data, &msg, sjson.DontMatchCaseInsensitiveStructFields)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("invalid character %q after top-level value", rest[0])
	}
	if err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if msg.VersionTag != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", msg.VersionTag, "2.0")
	}
	id, err := jsonrpc.MakeID(msg.ID)
	if err != nil {
		return nil, err
	}
	if len(msg.Method) > 0 {
		// The "method" key was there (its value may be ""): a request.
		var method string
		if err := sjson.Unmarshal(msg.Method, &method); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: msg.Params}, nil
	}
	if !id.IsValid() {
		// The SDK's jsonrpc2.ErrInvalidRequest, which is not exported.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request"}
	}
	resp := &jsonrpc.Response{ID: id, Result: msg.Result}
	if msg.Error != nil {
		resp.Error = &jsonrpc.Error{Code: msg.Error.Code, Message: msg.Error.Message, Data: msg.Error.Data}
	}
	return resp, nil
}

// wireMessage is the SDK's wire form of a message as it decodes it
// (jsonrpc2.wireDecode): Method raw, so that a "method" key is seen even
// when its value is "".
type wireMessage struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *wireError      `json:"error,omitempty"`
}

// wireError is the SDK's jsonrpc2.WireError.
type wireError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// maxDepth is how deep the SDK lets a message nest.
const maxDepth = 1000

var openBrace, openBracket = []byte("{"), []byte("[")

// checkDepth refuses data that nests deeper than maxDepth, as the SDK's
// JSON package does before it decodes (a scan of its own: the decoder
// has no bound).
func checkDepth(data []byte) error {
	// The depth never passes the number of '{' and '[' in data (those in
	// strings count too, so this can only count more): nearly every
	// message has far fewer than maxDepth, and bytes.Count is many times
	// cheaper than the scan below, which was 15% of a stdio gateway's
	// instructions per forwarded call (callgrind: 8,200 of 56,000).
	if bytes.Count(data, openBrace)+bytes.Count(data, openBracket) <= maxDepth {
		return nil
	}
	depth := 0
	inString, escaped := false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > maxDepth {
				return fmt.Errorf("json: exceeded maximum nesting depth of %d", maxDepth)
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}
