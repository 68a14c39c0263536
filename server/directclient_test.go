package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skillc/skillc/server"
)

// directSession is one MCP session over streamable HTTP, spoken with
// net/http alone: the load generator of BenchmarkHTTPThroughputDirect. The
// SDK client costs about as much CPU per call as the server, so on a small
// machine it, not the server, bounds the rate; like wrk or hey, this one
// does little more than send the request and read the answer. It still
// checks every answer, so a benchmark cannot pass on errors.
type directSession struct {
	hc       *http.Client
	url      string
	id       string // Mcp-Session-Id, from the answer to initialize
	protocol string // the version initialize agreed on
	nextID   int64
	body     bytes.Buffer
	rd       *bufio.Reader
}

// directProtocol is the protocol version the direct client asks for.
const directProtocol = "2025-11-25"

// newDirectSession opens a session: initialize, then the initialized
// notification, as every MCP client does before its first call.
func newDirectSession(hc *http.Client, url string) (*directSession, error) {
	s := &directSession{hc: hc, url: url}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	hdr, err := s.call("initialize", map[string]any{
		"protocolVersion": directProtocol,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "bench-direct", "version": "1"},
	}, &init)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	s.id, s.protocol = hdr.Get("Mcp-Session-Id"), init.ProtocolVersion
	if s.id == "" || s.protocol == "" {
		return nil, fmt.Errorf("initialize: no session ID (%q) or protocol version (%q)", s.id, s.protocol)
	}
	resp, err := s.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		return nil, fmt.Errorf("initialized: %w", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return nil, fmt.Errorf("initialized: %s", resp.Status)
	}
	return s, nil
}

// post sends one JSON-RPC message with the session's headers.
func (s *directSession) post(msg []byte) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", s.protocol)
	}
	return s.hc.Do(req)
}

// rpcResponse is a JSON-RPC response, its result left raw.
type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends the request method(params) and decodes the result of its
// response into result: from an application/json body, or from the event
// stream the server answers on by default (notifications before the
// response are skipped). It returns the response's headers.
func (s *directSession) call(method string, params, result any) (http.Header, error) {
	s.nextID++
	s.body.Reset()
	enc := json.NewEncoder(&s.body)
	if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": s.nextID, "method": method, "params": params}); err != nil {
		return nil, err
	}
	resp, err := s.post(s.body.Bytes())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return nil, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	var rr rpcResponse
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		err = json.NewDecoder(resp.Body).Decode(&rr)
	case "text/event-stream":
		err = s.readEvent(resp.Body, &rr)
	default:
		err = fmt.Errorf("unexpected Content-Type %q", ct)
	}
	_, _ = io.Copy(io.Discard, resp.Body) // the rest of the stream, so the connection is reused
	if err != nil {
		return nil, err
	}
	if want := strconv.FormatInt(s.nextID, 10); string(rr.ID) != want {
		return nil, fmt.Errorf("response to request %s, want %s", rr.ID, want)
	}
	if rr.Error != nil {
		return nil, fmt.Errorf("JSON-RPC error %d: %s", rr.Error.Code, rr.Error.Message)
	}
	return resp.Header, json.Unmarshal(rr.Result, result)
}

// readEvent reads server-sent events until one carries a JSON-RPC
// response, and decodes it into rr. Each event's data is one message (the
// server writes it on one "data:" line).
func (s *directSession) readEvent(body io.Reader, rr *rpcResponse) error {
	if s.rd == nil {
		s.rd = bufio.NewReaderSize(body, 16<<10)
	} else {
		s.rd.Reset(body)
	}
	for {
		line, err := s.rd.ReadSlice('\n')
		if err != nil {
			return fmt.Errorf("event stream ended before the response: %w", err)
		}
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // event:, id:, retry:, a comment or the blank line between events
		}
		*rr = rpcResponse{}
		if err := json.Unmarshal(data, rr); err != nil {
			return fmt.Errorf("event data: %w", err)
		}
		if rr.ID != nil {
			return nil
		}
	}
}

// toolResult is what the direct client reads of a tool result: whether it
// is an error, its text, and the plan's version and the status of step 1.
type toolResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent struct {
		Version int64 `json:"version"`
		Steps   []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"steps"`
	} `json:"structuredContent"`
}

// callTool calls a tool and refuses a tool error.
func (s *directSession) callTool(name string, args any) (*toolResult, error) {
	var res toolResult
	if _, err := s.call("tools/call", map[string]any{"name": name, "arguments": args}, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if res.IsError {
		text := ""
		if len(res.Content) > 0 {
			text = res.Content[0].Text
		}
		return nil, fmt.Errorf("%s: tool error: %s", name, text)
	}
	return &res, nil
}

// BenchmarkHTTPThroughputDirect is BenchmarkHTTPThroughput with the direct
// client (directSession) as the load generator instead of the SDK's: what
// the server can do when the client is not the bottleneck. The server is
// the same child, serving as `skillc serve --http` does. Every answer must
// be a successful update_plan whose plan is one version on from the last
// and has step 1 in the status the call asked for.
//
//	go test ./server -run '^$' -bench HTTPThroughputDirect -benchtime 4000x -count 5
func BenchmarkHTTPThroughputDirect(b *testing.B) {
	eachHTTPStore(b, benchHTTPDirect)
}

func benchHTTPDirect(b *testing.B, url string, pid, sessions int) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * sessions}}
	b.Cleanup(hc.CloseIdleConnections)
	clients := make([]*directSession, sessions)
	versions := make([]int64, sessions)
	for i := range clients {
		s, err := newDirectSession(hc, url+server.MCPPath)
		if err != nil {
			b.Fatal(err)
		}
		res, err := s.callTool("make_plan", map[string]any{
			"title": "Bench", "steps": []map[string]any{{"goal": "A.", "recommended_tools": []string{"a"}}, {"goal": "B."}, {"goal": "C."}},
		})
		if err != nil {
			b.Fatal(err)
		}
		clients[i], versions[i] = s, res.StructuredContent.Version
	}
	// check and uncheck step 1 in turn: every call a real write.
	args := []map[string]any{{"check": []string{"1"}}, {"uncheck": []string{"1"}}}
	want := []string{"done", "pending"}
	var next atomic.Int64
	var wg sync.WaitGroup
	cpu0, self0 := cpuTime(b, pid), selfCPU()
	b.ResetTimer()
	for i, s := range clients {
		wg.Go(func() {
			for k := 0; next.Add(1) <= int64(b.N); k++ {
				res, err := s.callTool("update_plan", args[k%2])
				if err != nil {
					b.Error(err)
					return
				}
				versions[i]++
				sc := res.StructuredContent
				if sc.Version != versions[i] || len(sc.Steps) != 3 || sc.Steps[0].Status != want[k%2] {
					b.Errorf("update_plan: version %d with step 1 %+v, want version %d with step 1 %s", sc.Version, sc.Steps, versions[i], want[k%2])
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	reportHTTP(b, pid, cpu0, self0)
}
