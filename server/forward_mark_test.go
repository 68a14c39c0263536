package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzMark: whatever an upstream's result is, mark does not panic, and for
// a JSON object it returns a JSON object with every other key's value as
// it came, resultType "complete" when asked, and the server's info in
// _meta when asked (an upstream's own serverInfo kept), whether it took
// the spliced path or the decoded one.
func FuzzMark(f *testing.F) {
	for _, seed := range []string{
		`{}`, ` { } `, `{"content":[]}`, `{"content":[{"type":"text","text":"Echo: hi"}],"isError":false}`,
		`{"_meta":{"a":1},"content":[]}`, `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}}}`,
		`{"resultType":"partial","x":1}`, `{"a":"\u005fmeta"}`, `{"a":1,"a":2}`, `[]`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(seed), true, true)
	}
	fw := (&gate{}).newForwarder(&mcp.Implementation{Name: "skillc", Version: "test"})
	f.Fuzz(func(t *testing.T, res []byte, serverInfo, resultType bool) {
		out := fw.mark(json.RawMessage(res), serverInfo, resultType)
		var in map[string]any
		if json.Unmarshal(res, &in) != nil || in == nil {
			return // mark's contract is objects; it only must not panic
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil || got == nil {
			t.Fatalf("mark(%s) = %s: not a JSON object (%v)", res, out, err)
		}
		for k, v := range in {
			if k == "_meta" && serverInfo || k == "resultType" && resultType {
				continue
			}
			if !reflect.DeepEqual(got[k], v) {
				t.Errorf("mark(%s): %q is %v, want %v", res, k, got[k], v)
			}
		}
		if resultType && got["resultType"] != "complete" {
			t.Errorf("mark(%s): resultType %v, want complete", res, got["resultType"])
		}
		if serverInfo {
			meta, _ := got["_meta"].(map[string]any)
			if meta[metaServerInfo] == nil {
				t.Errorf("mark(%s): no serverInfo in _meta: %s", res, out)
			}
			if inMeta, ok := in["_meta"].(map[string]any); ok {
				for k, v := range inMeta {
					if !reflect.DeepEqual(meta[k], v) {
						t.Errorf("mark(%s): _meta %q is %v, want %v", res, k, meta[k], v)
					}
				}
			}
		}
	})
}
