// Package wire is what skillc's own MCP stdio connections (the server's
// stdin, the gateway's stdio upstreams) share: reading a line, decoding it
// into JSON-RPC messages, and handing them to the SDK's Read.
package wire

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// DecodeMessage is jsonrpc.DecodeMessage with encoding/json: the same wire
// form, the same checks, keys matched exactly as the SDK matches them. It
// is stricter in one way: the whole of data must be one JSON value (the
// SDK's ignores what follows the first). The SDK's decodes through a
// decoder that allocates a 32 KiB buffer per Unmarshal, twice per
// message: on a tools/call line it took about 25 µs and 66 KB here, this
// about 3 µs and 1.5 KB (BenchmarkDecodeMessage), and a call forwarded
// through the gateway decodes two such lines. FuzzDecodeMessage holds the
// two to the same answers.
func DecodeMessage(data []byte) (jsonrpc.Message, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	var version string
	var id any
	for key, dst := range map[string]any{"jsonrpc": &version, "id": &id} {
		if raw, ok := fields[key]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
			}
		}
	}
	if version != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", version, "2.0")
	}
	rid, err := jsonrpc.MakeID(id)
	if err != nil {
		return nil, err
	}
	if raw, ok := fields["method"]; ok {
		// The "method" key was there (its value may be ""): a request.
		var method string
		if err := json.Unmarshal(raw, &method); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		return &jsonrpc.Request{ID: rid, Method: method, Params: fields["params"]}, nil
	}
	if !rid.IsValid() {
		// The SDK's jsonrpc2.ErrInvalidRequest, which is not exported.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request"}
	}
	resp := &jsonrpc.Response{ID: rid, Result: fields["result"]}
	if raw, ok := fields["error"]; ok {
		e, err := decodeError(raw)
		if err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		if e != nil {
			resp.Error = e
		}
	}
	return resp, nil
}

// decodeError decodes an answer's error object (nil for null), its keys
// matched exactly.
func decodeError(raw json.RawMessage) (*jsonrpc.Error, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, err
	}
	e := &jsonrpc.Error{Data: fields["data"]}
	for key, dst := range map[string]any{"code": &e.Code, "message": &e.Message} {
		if raw, ok := fields[key]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}
