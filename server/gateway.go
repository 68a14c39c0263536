package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/gateway"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// Gate says what a conversation with an active plan sees of the upstream
// tools (docs/gateway.md).
type Gate string

const (
	// GateOff offers every upstream tool at every step.
	GateOff Gate = "off"
	// GateList lists, while a plan is active, only the plan tools and the
	// tools of the steps in progress, and tells the client when that set
	// changes (notifications/tools/list_changed). Calls are not checked.
	GateList Gate = "list"
	// GateEnforce lists as GateList does and also refuses, with a tool
	// error, a call to an upstream tool outside the set.
	GateEnforce Gate = "enforce"
)

// gateInstructions follow the plan skill in the server's instructions when
// upstream tools are gated, so the model knows why tools come and go.
const gateInstructions = `## Tools that follow the plan

This server also offers the tools of other servers. While a plan is active, only the plan tools and the tools of the steps in progress are available; when you record a step with update_plan, the next step's tools become available (the tool list changes). A step that names no tool gets its skill's allowed tools. With no active plan, every tool is available.`

// ParseGate reads --gate.
func ParseGate(s string) (Gate, error) {
	switch g := Gate(s); g {
	case GateOff, GateList, GateEnforce:
		return g, nil
	}
	return "", fmt.Errorf("--gate %q: want off, list or enforce", s)
}

// planTools are never gated, and an upstream tool of the same name is
// offered as SERVER__name.
var planTools = []string{"make_plan", "view_plan", "update_plan", "close_plan"}

func isPlanTool(name string) bool { return slices.Contains(planTools, name) }

// gate offers the upstreams' tools through the server and filters them by
// the conversation's plan. It holds, per MCP session, the set last shown,
// so it knows when to send list_changed; the plan itself stays in the
// store, as for every other tool.
type gate struct {
	s    *Server
	pool *gateway.Pool
	mode Gate

	names atomic.Pointer[gateway.Names]

	syncMu sync.Mutex
	// registered is each offered tool's definition as JSON, so a sync
	// that finds the same tools changes nothing and notifies no one.
	registered map[string]string

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*shown
	// send is the SDK's sending handler, captured by a sending
	// middleware: the SDK has no call to notify one session of a list
	// change, only all of them.
	send mcp.MethodHandler
}

// shown is what one MCP session was last shown.
type shown struct {
	key store.Key
	set gateway.Set
}

// addGateway is New's hook: it registers the upstreams' tools and the
// gating middleware when the options ask for them.
func (s *Server) addGateway(opts Options) {
	if opts.Upstreams == nil {
		return
	}
	mode := opts.Gate
	if mode == "" {
		mode = GateList
	}
	g := &gate{s: s, pool: opts.Upstreams, mode: mode, sessions: map[*mcp.ServerSession]*shown{}}
	g.names.Store(gateway.NameTools(nil, planTools))
	s.gate = g
	s.mcp.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		g.send = next
		return next
	})
	if mode != GateOff {
		s.mcp.AddReceivingMiddleware(g.middleware)
	}
	opts.Upstreams.OnTools(g.sync)
	g.sync()
}

// SyncUpstreamTools offers the upstreams' tools as the pool now knows
// them; the pool calls it on every change, and serve once after Start.
func (s *Server) SyncUpstreamTools() {
	if s.gate != nil {
		s.gate.sync()
	}
}

// sync registers the tools the upstreams offer now and removes those they
// no longer do. The SDK tells every session that the list changed.
func (g *gate) sync() {
	g.syncMu.Lock()
	defer g.syncMu.Unlock()
	names := gateway.NameTools(g.pool.Tools(), planTools)
	now := map[string]string{}
	for _, o := range names.All() {
		if !objectSchema(o.Tool.InputSchema) {
			g.s.logger.Warn("upstream tool has no object input schema; not offered", "upstream", o.Upstream, "tool", o.Tool.Name)
			continue
		}
		t := *o.Tool
		t.Name = o.Name
		b, _ := json.Marshal(&t)
		now[o.Name] = o.Upstream + "\x00" + string(b)
	}
	var gone []string
	for name := range g.registered {
		if _, ok := now[name]; !ok {
			gone = append(gone, name)
		}
	}
	g.names.Store(names)
	if len(gone) > 0 {
		g.s.mcp.RemoveTools(gone...)
	}
	for name, def := range now {
		if g.registered[name] == def {
			continue
		}
		o, _ := names.Lookup(name)
		t := *o.Tool
		t.Name = o.Name
		g.s.mcp.AddTool(&t, g.forward(o.Upstream, o.Tool.Name))
	}
	g.registered = now
}

// objectSchema is what the SDK's AddTool asks of an input schema (it
// panics otherwise): a JSON object whose type is "object".
func objectSchema(sc any) bool {
	b, err := json.Marshal(sc)
	if err != nil {
		return false
	}
	var m struct {
		Type any `json:"type"`
	}
	return json.Unmarshal(b, &m) == nil && m.Type == "object"
}

// forward calls the tool on its upstream and returns the upstream's result
// as it came; a failure to reach it is a tool error.
func (g *gate) forward(upstream, tool string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := g.pool.Call(ctx, upstream, tool, req.Params.Arguments)
		if err != nil {
			r := &mcp.CallToolResult{}
			r.SetError(err)
			return r, nil
		}
		return res, nil
	}
}

// middleware filters tools/list by the conversation's set, refuses calls
// outside it under enforce, and after a plan tool changed the plan tells
// the sessions whose set changed.
func (g *gate) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			return g.list(ctx, next, method, req)
		case "tools/call":
			if cr, ok := req.(*mcp.CallToolRequest); ok {
				return g.call(ctx, next, method, cr)
			}
		}
		return next(ctx, method, req)
	}
}

func (g *gate) list(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	lr, ok := res.(*mcp.ListToolsResult)
	if err != nil || !ok {
		return res, err
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	key, err := g.s.keyOf(ss, req.GetExtra())
	if err != nil {
		return res, nil // no conversation, no plan: everything
	}
	set, err := g.setFor(ctx, key)
	if err != nil {
		// Listing everything beats listing nothing; enforce still
		// refuses calls while the store is down.
		g.s.logger.Warn("gate: load the plan for tools/list", "err", err)
		return res, nil
	}
	g.remember(ss, key, set)
	out := *lr
	// The list is this conversation's: no cache may serve it to another.
	out.CacheScope = "private"
	if set.All {
		return &out, nil
	}
	names := g.names.Load()
	out.Tools = nil
	for _, t := range lr.Tools {
		if _, upstream := names.Lookup(t.Name); !upstream || isPlanTool(t.Name) || set.Has(t.Name) {
			out.Tools = append(out.Tools, t)
		}
	}
	return &out, nil
}

func (g *gate) call(ctx context.Context, next mcp.MethodHandler, method string, req *mcp.CallToolRequest) (mcp.Result, error) {
	name := req.Params.Name
	if isPlanTool(name) {
		res, err := next(ctx, method, req)
		if cr, ok := res.(*mcp.CallToolResult); ok && err == nil && !cr.IsError && name != "view_plan" {
			g.planChanged(ctx, req, cr)
		}
		return res, err
	}
	if _, upstream := g.names.Load().Lookup(name); !upstream || g.mode != GateEnforce {
		return next(ctx, method, req)
	}
	key, err := g.s.keyOf(req.Session, req.Extra)
	if err != nil {
		return next(ctx, method, req)
	}
	set, err := g.setFor(ctx, key)
	if err != nil {
		g.s.logger.Error("gate: load the plan", "err", err)
		return toolError(fmt.Errorf("the plan store failed (%v), so the server cannot tell whether %q is allowed at this step; try again", err, name)), nil
	}
	if !set.Has(name) {
		return toolError(errors.New(set.Refusal(name))), nil
	}
	return next(ctx, method, req)
}

// setFor loads the conversation's plan and works out its set.
func (g *gate) setFor(ctx context.Context, key store.Key) (gateway.Set, error) {
	p, err := g.s.planner.Store.Load(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		p, err = nil, nil
	}
	if err != nil {
		return gateway.Set{}, err
	}
	return gateway.SetFor(p, g.names.Load(), g.s.allowedTools), nil
}

// allowedTools answers gateway.AllowedTools from the catalog.
func (s *Server) allowedTools(skill string) ([]string, bool) {
	sk, ok := s.catalog.Lookup(skill)
	if !ok || sk.Skill.Frontmatter == nil || !sk.Skill.Frontmatter.HasAllowedTools {
		return nil, false
	}
	var names []string
	for _, ref := range sk.Skill.Frontmatter.AllowedTools {
		names = append(names, ref.Name)
	}
	return names, true
}

// remember records what a session was shown, and forgets the session when
// it ends.
func (g *gate) remember(ss *mcp.ServerSession, key store.Key, set gateway.Set) {
	if ss == nil {
		return
	}
	g.mu.Lock()
	_, known := g.sessions[ss]
	g.sessions[ss] = &shown{key: key, set: set}
	g.mu.Unlock()
	if !known {
		go func() {
			_ = ss.Wait()
			g.mu.Lock()
			delete(g.sessions, ss)
			g.mu.Unlock()
		}()
	}
}

// planChanged works out the set from the plan a plan tool returned, and
// sends list_changed to each session of the conversation whose set it
// changes: the caller on the call's own stream, before the result, so the
// client lists again before it acts on the result.
func (g *gate) planChanged(ctx context.Context, req *mcp.CallToolRequest, res *mcp.CallToolResult) {
	key, err := g.s.keyOf(req.Session, req.Extra)
	if err != nil {
		return
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return
	}
	var p plan.Plan
	if err := json.Unmarshal(raw, &p); err != nil || p.ID == "" {
		return
	}
	set := gateway.SetFor(&p, g.names.Load(), g.s.allowedTools)
	g.mu.Lock()
	var others []*mcp.ServerSession
	callerChanged := true
	for ss, sh := range g.sessions {
		if sh.key != key {
			continue
		}
		changed := !sh.set.Same(set)
		sh.set = set
		if ss == req.Session {
			callerChanged = changed
		} else if changed {
			others = append(others, ss)
		}
	}
	g.mu.Unlock()
	if req.Session != nil {
		// A session not seen listing yet may hold the full list: tell it.
		g.remember(req.Session, key, set)
		if callerChanged {
			g.notify(ctx, req.Session)
		}
	}
	for _, ss := range others {
		nctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		g.notify(nctx, ss)
		cancel()
	}
}

func (g *gate) notify(ctx context.Context, ss *mcp.ServerSession) {
	if g.send == nil {
		return
	}
	_, err := g.send(ctx, "notifications/tools/list_changed", &mcp.ServerRequest[*mcp.ToolListChangedParams]{Session: ss, Params: &mcp.ToolListChangedParams{}})
	if err != nil {
		g.s.logger.Warn("gate: send tools/list_changed", "err", err)
	}
}
