package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjson "github.com/segmentio/encoding/json"

	"github.com/skillc/skillc/gateway"
)

// forwarder takes the common forwarded call off the SDK's path, on one
// stdio connection: a tools/call of an upstream tool that the gate allows
// without reading the store goes from the line read straight to the
// upstream (gateway.Pool.Forward), and the upstream's result straight
// back, with the client's ID. Through the SDK the same call was decoded
// and dispatched by the SDK's server, encoded and sent by its client,
// decoded into a *mcp.CallToolResult and encoded again, across six
// goroutine hand-offs: BenchmarkGatewayForward measured it at 1.7-1.8
// times the latency of calling the upstream directly (docs/gateway.md,
// Speed). Every other message, and every call that does not fit (see
// take), goes through the SDK as before, so refusals, plan tools,
// progress, batches and errors keep their one implementation there.
type forwarder struct {
	g *gate
	// ss is the SDK's session of the connection, once connected.
	ss atomic.Pointer[mcp.ServerSession]
	// serverInfo is the _meta the SDK's server adds to a result on the
	// 2026-07-28 protocol, with the server's Implementation as it
	// encodes it.
	serverInfo []byte
	// ctx ends the calls in flight when the connection closes.
	ctx    context.Context
	cancel context.CancelFunc

	mu sync.Mutex
	// calls are the calls in flight here, by the client's ID, to cancel
	// on notifications/cancelled.
	calls map[jsonrpc.ID]context.CancelFunc
	// metas are request _meta values (as written) the SDK has accepted,
	// and probes the ones sent to it, by request ID, until it answers.
	// The SDK checks a 2026-07-28 request's _meta (protocol version,
	// client info and capabilities) with code of its own; a _meta it
	// answered once without an error is valid, and a client sends the
	// same one on every request, so a call with a _meta seen accepted
	// before may go past the SDK.
	metas  map[string]bool
	probes map[jsonrpc.ID]string

	// work hands a call to a worker waiting for one (see worker).
	work chan *fastCall
}

// Bounds on forwarder.metas and forwarder.probes: a client sends one
// _meta; one that sends more only keeps more calls on the SDK's path.
const (
	maxMetas  = 4
	maxProbes = 16
)

// newProtocol is the first protocol version whose requests carry their
// session's state in _meta (SEP-2575), and whose results the SDK marks
// with serverInfo and resultType.
const newProtocol = "2026-07-28"

// Keys of a request's or a result's _meta.
const (
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaServerInfo      = "io.modelcontextprotocol/serverInfo"
)

func (g *gate) newForwarder(impl *mcp.Implementation) *forwarder {
	info, _ := encodeJSON(map[string]*mcp.Implementation{metaServerInfo: impl})
	ctx, cancel := context.WithCancel(context.Background())
	return &forwarder{g: g, serverInfo: info, ctx: ctx, cancel: cancel,
		calls: map[jsonrpc.ID]context.CancelFunc{}, metas: map[string]bool{}, probes: map[jsonrpc.ID]string{},
		work: make(chan *fastCall)}
}

// route is where an offered tool's calls go.
type route struct{ upstream, tool string }

// fastCall is one call past the SDK.
type fastCall struct {
	id             jsonrpc.ID
	idJSON         []byte
	upstream, tool string
	args           json.RawMessage
	// The result is marked as the SDK marks it: with serverInfo when the
	// request had an accepted 2026-07-28 _meta, with resultType when the
	// session's protocol (the first request's) is 2026-07-28.
	serverInfo, resultType bool
	ctx                    context.Context
	cancel                 context.CancelFunc
}

// intercept takes msg, read from the client, off the SDK's path when it is
// a call this forwarder makes, or the cancellation of one; it reports
// whether it did. It runs on the reading goroutine, before msg could
// reach the SDK.
func (f *forwarder) intercept(c *stdioConn, msg jsonrpc.Message) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return false
	}
	switch req.Method {
	case "tools/call":
		fc := f.take(req)
		if fc == nil {
			return false
		}
		// Counted before it can be answered, as for the SDK's calls.
		c.pending.add(req.ID)
		select {
		case f.work <- fc:
		default:
			go f.worker(c, fc)
		}
		// The call's goroutine is ready; let it write the call to the
		// upstream now, before this one reads stdin again: that read
		// finds nothing (the client waits for the answer) and only then
		// would this goroutine yield. On a stdio gateway's one
		// processor (oneProcessorForStdioGateway) that is a syscall and
		// a scheduling round off every forwarded call's way.
		runtime.Gosched()
		return true
	case "notifications/cancelled":
		return f.cancelled(req)
	}
	return false
}

// take returns req as a fastCall, or nil when it must go through the SDK:
//
//   - params other than name, arguments and _meta, or arguments that are
//     not an object: the SDK's own answer;
//   - a _meta not seen accepted by the SDK (a progress token is in
//     _meta: progress is the SDK's), a session not initialized yet, or a
//     call without _meta on a 2026-07-28 session;
//   - a name that is not an upstream tool offered now (plan tools, a
//     tool the SDK would call unknown);
//   - an upstream that Pool.Forward cannot write to directly (HTTP, not
//     connected, 2026-07-28);
//   - under enforce, a call that is not allowed by the set the session
//     was last shown while that set is known to be current: refusals,
//     and calls that need the store read, are gate.call's;
//   - an ID already in flight here, or one the SDK would not echo as
//     written.
func (f *forwarder) take(req *jsonrpc.Request) *fastCall {
	ss := f.ss.Load()
	if ss == nil || !req.ID.IsValid() {
		return nil
	}
	// Exact keys, and only these: anything else (inputResponses,
	// requestState, a key in another case) is the SDK's to answer.
	var params struct {
		Meta      json.RawMessage `json:"_meta"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if _, err := sjson.Parse(req.Params, &params, sjson.DisallowUnknownFields|sjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil
	}
	if a := params.Arguments; a != nil && (len(a) == 0 || a[0] != '{') {
		return nil
	}
	name := params.Name
	fc := &fastCall{id: req.ID, args: params.Arguments}
	if meta := params.Meta; meta != nil {
		if !f.acceptedMeta(req.ID, meta) {
			return nil
		}
		fc.serverInfo = true
	}
	ip := ss.InitializeParams()
	if ip == nil {
		return nil // the SDK sets it at initialize, or from the first request
	}
	if fc.resultType = ip.ProtocolVersion >= newProtocol; fc.resultType && !fc.serverInfo {
		return nil // a call without _meta on a 2026-07-28 session: rare, the SDK's
	}
	routes := f.g.routes.Load()
	if routes == nil {
		return nil
	}
	r, ok := (*routes)[name]
	if !ok || !f.g.pool.Forwardable(r.upstream) {
		return nil
	}
	fc.upstream, fc.tool = r.upstream, r.tool
	if f.g.mode == GateEnforce {
		key, err := f.g.s.keyOf(ss, nil)
		if err != nil {
			return nil
		}
		if set, current := f.g.currentSet(ss, key); !current || !set.Has(name) {
			return nil
		}
	}
	if fc.idJSON, ok = idJSON(req.ID); !ok {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, dup := f.calls[req.ID]; dup {
		return nil
	}
	fc.ctx, fc.cancel = context.WithCancel(f.ctx)
	f.calls[req.ID] = fc.cancel
	return fc
}

// acceptedMeta reports whether meta was seen accepted by the SDK. When it
// was not, and it is a 2026-07-28 _meta without a progress token, the
// SDK's answer to id is watched for (answered).
func (f *forwarder) acceptedMeta(id jsonrpc.ID, meta json.RawMessage) bool {
	f.mu.Lock()
	ok := f.metas[string(meta)]
	room := !ok && len(f.metas) < maxMetas && len(f.probes) < maxProbes
	f.mu.Unlock()
	if ok || !room {
		return ok
	}
	var m map[string]json.RawMessage
	var version string
	if json.Unmarshal(meta, &m) != nil || json.Unmarshal(m[metaProtocolVersion], &version) != nil || version < newProtocol {
		return false
	}
	if _, progress := m["progressToken"]; progress {
		return false
	}
	f.mu.Lock()
	if _, dup := f.probes[id]; !dup {
		f.probes[id] = string(meta)
	}
	f.mu.Unlock()
	return false
}

// answered learns from the SDK's answer to a request whose _meta it
// watched: one without an error accepted that _meta.
func (f *forwarder) answered(resp *jsonrpc.Response) {
	f.mu.Lock()
	defer f.mu.Unlock()
	meta, ok := f.probes[resp.ID]
	if !ok {
		return
	}
	delete(f.probes, resp.ID)
	if resp.Error == nil && len(f.metas) < maxMetas {
		f.metas[meta] = true
	}
}

// cancelled ends the call a client's notifications/cancelled names, if it
// is one of this forwarder's; Pool.Forward tells the upstream, under its
// own ID, and the call is answered as the SDK answers a cancelled one.
func (f *forwarder) cancelled(req *jsonrpc.Request) bool {
	f.mu.Lock()
	none := len(f.calls) == 0
	f.mu.Unlock()
	if none {
		return false
	}
	var params map[string]json.RawMessage
	var raw any
	if json.Unmarshal(req.Params, &params) != nil || json.Unmarshal(params["requestId"], &raw) != nil {
		return false
	}
	id, err := jsonrpc.MakeID(raw)
	if err != nil {
		return false
	}
	f.mu.Lock()
	cancel := f.calls[id]
	f.mu.Unlock()
	if cancel == nil {
		return false
	}
	cancel()
	return true
}

// worker runs fc, then each call handed to it while it waits, until it
// has waited workerIdle or the connection closed. A worker that stays
// keeps the stack it grew: a goroutine per call grew its stack on every
// call (perf: 4% of skillc's CPU in morestack).
func (f *forwarder) worker(c *stdioConn, fc *fastCall) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f.run(c, fc)
		idle.Reset(workerIdle)
		select {
		case fc = <-f.work:
		case <-idle.C:
			return
		case <-f.ctx.Done():
			return
		}
	}
}

// workerIdle is how long a worker waits for the next call.
const workerIdle = 10 * time.Second

// run makes fc and writes its answer: the upstream's result, or a tool
// error with the text gate.forward gives.
func (f *forwarder) run(c *stdioConn, fc *fastCall) {
	defer c.pending.answered(fc.id)
	defer fc.cancel()
	res, err := f.g.pool.Forward(fc.ctx, fc.upstream, fc.tool, fc.args)
	f.mu.Lock()
	delete(f.calls, fc.id)
	f.mu.Unlock()
	if errors.Is(err, gateway.ErrNotForwardable) {
		// The connection changed between take and Forward (it came back
		// on a protocol Forward leaves to the SDK's client): make the
		// call that way, and encode its result as the SDK's server does.
		var cr *mcp.CallToolResult
		if cr, err = f.g.pool.Call(fc.ctx, fc.upstream, fc.tool, fc.args); err == nil {
			if cr.Content == nil {
				cr.Content = []mcp.Content{}
			}
			res, err = encodeJSON(cr)
		}
	}
	if err != nil {
		res, _ = encodeJSON(toolError(err))
	}
	if f.ctx.Err() != nil {
		return // the connection closed: no one to answer
	}
	if fc.serverInfo || fc.resultType {
		res = f.mark(res, fc.serverInfo, fc.resultType)
	}
	line := make([]byte, 0, len(res)+len(fc.idJSON)+40)
	line = append(line, `{"jsonrpc":"2.0","id":`...)
	line = append(line, fc.idJSON...)
	line = append(line, `,"result":`...)
	line = append(line, res...)
	line = append(line, "}\n"...)
	if _, err := c.out.Write(line); err != nil {
		c.logger.Warn("write a forwarded call's answer", "err", err)
	}
}

// mark adds to a result what the SDK's server adds on the 2026-07-28
// protocol: its serverInfo in _meta (unless there is one) and resultType
// "complete". A result without those keys (nor an escape that could spell
// one) keeps its bytes, with the two spliced around them where the SDK
// writes them, first and last; any other is decoded and encoded again.
func (f *forwarder) mark(res json.RawMessage, serverInfo, resultType bool) json.RawMessage {
	res = bytes.TrimSpace(res)
	if len(res) < 2 || res[0] != '{' || res[len(res)-1] != '}' {
		return res // Forward returns objects; this guards the slicing below
	}
	if !bytes.Contains(res, []byte(`_meta`)) && !bytes.Contains(res, []byte(`resultType`)) && !bytes.Contains(res, []byte(`\u`)) {
		inner := bytes.TrimSpace(res[1 : len(res)-1])
		out := make([]byte, 0, len(res)+len(f.serverInfo)+40)
		out = append(out, '{')
		if serverInfo {
			out = append(out, `"_meta":`...)
			out = append(out, f.serverInfo...)
			if len(inner) > 0 || resultType {
				out = append(out, ',')
			}
		}
		out = append(out, inner...)
		if resultType {
			if len(inner) > 0 {
				out = append(out, ',')
			}
			out = append(out, `"resultType":"complete"`...)
		}
		return append(out, '}')
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(res, &top) != nil || top == nil {
		return res // Forward returns objects
	}
	if serverInfo {
		var meta map[string]json.RawMessage
		if json.Unmarshal(top["_meta"], &meta) != nil || meta == nil {
			meta = map[string]json.RawMessage{}
		}
		if _, ok := meta[metaServerInfo]; !ok {
			var info map[string]json.RawMessage
			_ = json.Unmarshal(f.serverInfo, &info)
			meta[metaServerInfo] = info[metaServerInfo]
		}
		top["_meta"], _ = encodeJSON(meta)
	}
	if resultType {
		top["resultType"] = json.RawMessage(`"complete"`)
	}
	if out, err := encodeJSON(top); err == nil {
		return out
	}
	return res
}

// idJSON is a request ID as the SDK writes it in its answer.
func idJSON(id jsonrpc.ID) ([]byte, bool) {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(nil, v, 10), true
	case string:
		b, err := encodeJSON(v)
		return b, err == nil
	}
	return nil, false
}

// encodeJSON is json.Marshal without HTML escaping, as the SDK encodes
// what it sends.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
