package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// lines are what the two decoders are compared on: requests, notifications,
// answers, and what each must refuse.
var lines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"echo","arguments":{"message":"héllo \u00e9 \"q\""}}}`,
	`{"jsonrpc":"2.0","id":2.0,"method":""}`,
	`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}`,
	`{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"bad","data":{"why":[1,2]}}}`,
	`{"jsonrpc":"2.0","id":4,"result":null}`,
	`{"jsonrpc":"2.0","id":null,"method":"ping","params":[1,"two"]}`,
	` {"method":"ping","jsonrpc":"2.0","id":5} `,
	`{"jsonrpc":"2.0","id":6,"method":null}`,
	`{"jsonrpc":"2.0","id":7,"method":7}`,
	`{"jsonrpc":"1.0","id":8,"method":"ping"}`,
	`{"id":9,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
	`{"jsonrpc":"2.0","result":{}}`,
	`{"jsonrpc":"2.0"}`,
	`{"jsonrpc":2,"id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"error":"no"}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	`"just a string"`,
	`{"jsonrpc":"2.0","id":1,"method":"ping"`,
	`not json`,
	``,
	nested(maxDepth),     // as deep as the SDK lets a message nest,
	nested(maxDepth + 1), // and one deeper
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"[[[\\"[["}}`,
	// More '[' than maxDepth, in a string: past checkDepth's count, to
	// its scan, which finds the message only 2 deep.
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"` + strings.Repeat("[", maxDepth+1) + `"}}`,
	// Deeper than maxDepth with objects and arrays mixed.
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat(`{"a":[`, maxDepth/2) + strings.Repeat(`]}`, maxDepth/2) + `}`,
}

// nested is a request whose params nest to depth (arrays, with the
// message's own object).
func nested(depth int) string {
	return `{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
}

// TestDecodeMessageAsTheSDK: on every line, DecodeMessage gives the
// message the SDK's decoder gives, or refuses the line as it does.
func TestDecodeMessageAsTheSDK(t *testing.T) {
	for _, line := range lines {
		want, wantErr := jsonrpc.DecodeMessage([]byte(line))
		got, err := DecodeMessage([]byte(line))
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%s: error %v, the SDK's %v", line, err, wantErr)
			continue
		}
		if !reflect.DeepEqual(normal(got), normal(want)) {
			t.Errorf("%s:\n got %#v\nwant %#v", line, got, want)
		}
	}
}

// normal makes an empty raw value and a missing one alike: the SDK keeps
// the bytes it was given for both, as encoding/json does.
func normal(m jsonrpc.Message) jsonrpc.Message {
	switch m := m.(type) {
	case *jsonrpc.Request:
		c := *m
		if len(c.Params) == 0 {
			c.Params = nil
		}
		return &c
	case *jsonrpc.Response:
		c := *m
		if len(c.Result) == 0 {
			c.Result = nil
		}
		return &c
	}
	return m
}

// FuzzDecodeMessage holds the two decoders to the same answers on any
// input (go test -fuzz FuzzDecodeMessage ./internal/wire).
func FuzzDecodeMessage(f *testing.F) {
	for _, line := range lines {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := jsonrpc.DecodeMessage(data)
		got, err := DecodeMessage(data)
		// Stricter only where data is not one JSON value.
		if (err != nil) != (wantErr != nil) && !(err != nil && !json.Valid(data)) {
			t.Fatalf("%q: error %v, the SDK's %v", data, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(normal(got), normal(want)) {
			t.Fatalf("%q:\n got %#v\nwant %#v", data, got, want)
		}
	})
}

func BenchmarkDecodeMessage(b *testing.B) {
	line := []byte(lines[2])
	b.Run("sdk", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := jsonrpc.DecodeMessage(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wire", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := DecodeMessage(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
