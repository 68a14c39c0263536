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
// so it knows when to send list_changed, and so enforce can check a call
// without reading the store while that set is known to be current; the
// plan itself stays in the store, as for every other tool.
type gate struct {
	s    *Server
	pool *gateway.Pool
	mode Gate

	names atomic.Pointer[gateway.Names]
	// routes are the upstream tools registered with the SDK, by offered
	// name, for the forwarder (forward.go).
	routes atomic.Pointer[map[string]route]

	syncMu sync.Mutex
	// registered is each offered tool's definition as JSON, so a sync
	// that finds the same tools changes nothing and notifies no one.
	registered map[string]string

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*shown
	// watches follow, per user with a remembered session, the store's
	// change feed, so a plan written elsewhere (the CLI, another replica)
	// reaches that user's sessions.
	watches map[string]*userWatch
	// send is the SDK's sending handler, captured by a sending
	// middleware: the SDK has no call to notify one session of a list
	// change, only all of them.
	send mcp.MethodHandler
}

// shown is what one MCP session was last shown.
type shown struct {
	key store.Key
	set gateway.Set
	// current is true while set is the conversation's set as far as this
	// server can know: worked out from a plan this server loaded, or a
	// plan tool of this server returned, since the last write the
	// store's change feed reported, with that feed open. Enforce checks
	// a call against a current set without reading the store.
	current bool
	// expires is when the plan the set comes from expires (zero: no
	// plan); after it the set is no longer current.
	expires time.Time
	// planID and version are that plan's, so that of two plan calls
	// finishing out of order the older result does not win.
	planID  string
	version int64
}

// userWatch is one user's change feed, shared by the user's sessions.
type userWatch struct {
	sessions int
	// live is true while the feed is open: a write elsewhere will be
	// reported. A set may be current only while it is.
	live bool
	// gen counts what may make a load stale: a reported write, a plan
	// call, the feed opening or closing, the upstream tools changing. A
	// load that began under another gen does not make a set current.
	gen uint64
	// convs are the user's conversations' sets, each worked out from a
	// plan loaded under gen: a set outlives the sessions it was shown
	// to, so that on a stateless server, whose sessions last one
	// request, enforce does not read the store on every call. Emptied
	// whenever gen moves (bump), so it holds only current sets.
	convs map[store.Key]kept
	stop  context.CancelFunc
	// idle stops the feed a while after the user's last session ended,
	// so a stateless server, whose sessions last one request, does not
	// open a feed per request.
	idle *time.Timer
}

// kept is a conversation's set and when the plan it comes from expires
// (zero: no plan).
type kept struct {
	set     gateway.Set
	expires time.Time
}

// bump moves the user's feed generation: a reported write, a plan call or
// the feed opening or closing may make any set worked out before it stale.
// g.mu is held.
func (w *userWatch) bump() {
	w.gen++
	clear(w.convs)
}

// watchLinger is how long a user's change feed stays open after the last
// session of the user ended.
const watchLinger = time.Minute

// watchRetry is how long the gate waits before opening a change feed
// again after it failed or closed.
const watchRetry = 2 * time.Second

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
	g := &gate{s: s, pool: opts.Upstreams, mode: mode, sessions: map[*mcp.ServerSession]*shown{}, watches: map[string]*userWatch{}}
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
	g.namesChanged()
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
	routes := make(map[string]route, len(now))
	for name := range now {
		o, _ := names.Lookup(name)
		routes[name] = route{upstream: o.Upstream, tool: o.Tool.Name}
	}
	g.routes.Store(&routes)
}

// namesChanged forgets that the sessions' sets, and those of loads under
// way, are current: they were worked out with the upstream tools as they
// were.
func (g *gate) namesChanged() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, sh := range g.sessions {
		sh.current = false
	}
	for _, w := range g.watches {
		w.bump()
	}
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
	// Always from the store, not the session's set: listing is rare, and
	// it is where a client that missed a change catches up.
	set, _, err := g.load(ctx, ss, key)
	if err != nil {
		// Listing everything beats listing nothing; enforce still
		// refuses calls while the store is down.
		g.s.logger.Warn("gate: load the plan for tools/list", "err", err)
		return res, nil
	}
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
	set, current := g.currentSet(req.Session, key)
	if !current || !set.Has(name) {
		// No set known to be current, or a refusal: read the store. A
		// refusal never rests on a set that a write elsewhere (another
		// replica) may have made stale before the feed said so.
		var changed bool
		set, changed, err = g.load(ctx, req.Session, key)
		if err != nil {
			g.s.logger.Error("gate: load the plan", "err", err)
			return toolError(fmt.Errorf("the plan store failed (%v), so the server cannot tell whether %q is allowed at this step; try again", err, name)), nil
		}
		if changed {
			g.notify(ctx, req.Session)
		}
	}
	if !set.Has(name) {
		return toolError(errors.New(set.Refusal(name))), nil
	}
	return next(ctx, method, req)
}

// currentSet is the set ss was last shown, and whether it is current for
// key (see shown.current).
func (g *gate) currentSet(ss *mcp.ServerSession, key store.Key) (gateway.Set, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if sh := g.sessions[ss]; sh != nil && sh.key == key && sh.current && g.unexpired(sh.expires) {
		return sh.set, true
	}
	// A session not shown a current set (on a stateless server, every
	// session) may still be in a conversation whose set is known.
	if w := g.watches[key.User]; w != nil && w.live {
		if k, ok := w.convs[key]; ok && g.unexpired(k.expires) {
			return k.set, true
		}
	}
	return gateway.Set{}, false
}

// unexpired is whether a plan that expires at t (zero: no plan) has not.
func (g *gate) unexpired(t time.Time) bool { return t.IsZero() || g.now().Before(t) }

// load reads the conversation's plan, works out its set and records it as
// what ss is shown. It reports whether that changes what ss was shown (for
// a session not seen before: whether anything is gated).
func (g *gate) load(ctx context.Context, ss *mcp.ServerSession, key store.Key) (gateway.Set, bool, error) {
	gen := g.gen(key.User)
	p, err := g.s.planner.Store.Load(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		p, err = nil, nil
	}
	if err != nil {
		return gateway.Set{}, false, err
	}
	set := gateway.SetFor(p, g.names.Load(), g.s.allowedTools)
	g.mu.Lock()
	defer g.mu.Unlock()
	w := g.watches[key.User]
	current := w != nil && w.live && w.gen == gen
	if current {
		if w.convs == nil {
			w.convs = map[store.Key]kept{}
		}
		k := kept{set: set}
		if p != nil {
			k.expires = p.ExpiresAt
		}
		w.convs[key] = k
	}
	if ss == nil {
		return set, false, nil
	}
	sh, known := g.sessions[ss]
	if !known {
		sh = g.rememberLocked(ss, key)
	}
	changed := !sh.set.Same(set)
	if !known {
		changed = !set.All
	}
	g.show(sh, key, set, p, current)
	return set, changed, nil
}

// gen is the user's feed generation, taken before a load.
func (g *gate) gen(user string) uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if w := g.watches[user]; w != nil {
		return w.gen
	}
	return 0
}

// show records set, worked out from p (nil: no plan), as what sh is
// shown. g.mu is held.
func (g *gate) show(sh *shown, key store.Key, set gateway.Set, p *plan.Plan, current bool) {
	sh.key, sh.set, sh.current = key, set, current
	sh.expires, sh.planID, sh.version = time.Time{}, "", 0
	if p != nil {
		sh.expires, sh.planID, sh.version = p.ExpiresAt, p.ID, p.Version
	}
}

// now is the planner's clock, which stamps the plans' expiry.
func (g *gate) now() time.Time {
	if g.s.planner.Now != nil {
		return g.s.planner.Now()
	}
	return time.Now()
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

// rememberLocked starts remembering ss, with nothing shown yet, follows
// its user's change feed, and forgets ss when it ends. g.mu is held.
func (g *gate) rememberLocked(ss *mcp.ServerSession, key store.Key) *shown {
	sh := &shown{key: key}
	g.sessions[ss] = sh
	user := key.User
	w := g.watches[user]
	if w == nil {
		ctx, stop := context.WithCancel(context.Background())
		w = &userWatch{stop: stop}
		g.watches[user] = w
		go g.follow(ctx, user, w)
	}
	w.sessions++
	if w.idle != nil {
		w.idle.Stop()
		w.idle = nil
	}
	go func() {
		_ = ss.Wait()
		g.mu.Lock()
		defer g.mu.Unlock()
		delete(g.sessions, ss)
		if w.sessions--; w.sessions == 0 {
			w.idle = time.AfterFunc(watchLinger, func() {
				g.mu.Lock()
				defer g.mu.Unlock()
				if w.sessions == 0 && g.watches[user] == w {
					delete(g.watches, user)
					w.stop()
				}
			})
		}
	}()
	return sh
}

// follow reads the user's change feed until ctx ends and, after each write
// it reports, works the sets of the user's sessions out again. A feed that
// fails or closes is opened again after watchRetry; meanwhile no set is
// current, so enforce reads the store on every call.
func (g *gate) follow(ctx context.Context, user string, w *userWatch) {
	warned := false // once per outage, not on every attempt
	for {
		changes, err := g.s.planner.Store.Watch(ctx, user)
		if err == nil {
			warned = false
			g.feedOpen(w, true)
			for range changes {
				g.reload(ctx, user, w)
			}
		}
		g.feedOpen(w, false)
		if ctx.Err() != nil {
			return
		}
		if !warned {
			g.s.logger.Warn("gate: the plan store's change feed failed; calls read the store until it is back", "err", err)
			warned = true
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(watchRetry):
		}
	}
}

// feedOpen records that the user's feed opened or closed: a load under way
// may have missed a write, and while it is closed no set is current.
func (g *gate) feedOpen(w *userWatch, live bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w.live = live
	w.bump()
	if !live {
		for _, sh := range g.sessions {
			if g.watches[sh.key.User] == w {
				sh.current = false
			}
		}
	}
}

// reload works out, after a write the feed reported, the sets of the
// user's conversations from the store, and sends list_changed to each
// session whose set that changes: a plan changed by the CLI or another
// replica reaches the client without it listing again.
func (g *gate) reload(ctx context.Context, user string, w *userWatch) {
	g.mu.Lock()
	w.bump()
	gen := w.gen
	byKey := map[store.Key][]*mcp.ServerSession{}
	for ss, sh := range g.sessions {
		if sh.key.User == user {
			sh.current = false
			byKey[sh.key] = append(byKey[sh.key], ss)
		}
	}
	g.mu.Unlock()
	for key, list := range byKey {
		p, err := g.s.planner.Store.Load(ctx, key)
		if errors.Is(err, store.ErrNotFound) {
			p, err = nil, nil
		}
		if err != nil {
			if ctx.Err() == nil {
				g.s.logger.Warn("gate: load the plan after a change", "err", err)
			}
			continue // not current: the next call reads the store
		}
		set := gateway.SetFor(p, g.names.Load(), g.s.allowedTools)
		var changed []*mcp.ServerSession
		g.mu.Lock()
		if w.gen != gen {
			// A write or a plan call since: the reload after that
			// write, or the plan call, has the newer set.
			g.mu.Unlock()
			return
		}
		for _, ss := range list {
			sh := g.sessions[ss]
			if sh == nil || sh.key != key {
				continue
			}
			if !sh.set.Same(set) {
				changed = append(changed, ss)
			}
			g.show(sh, key, set, p, w.live)
		}
		g.mu.Unlock()
		for _, ss := range changed {
			nctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			g.notify(nctx, ss)
			cancel()
		}
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
	callerNew := false
	if req.Session != nil && g.sessions[req.Session] == nil {
		// A session not seen listing yet may hold the full list: it is
		// told below.
		g.rememberLocked(req.Session, key)
		callerNew = true
	}
	w := g.watches[key.User]
	if w != nil {
		w.bump() // a load under way may have read the plan before this write
	}
	var others []*mcp.ServerSession
	callerChanged := callerNew
	for ss, sh := range g.sessions {
		if (sh.key != key && ss != req.Session) || (sh.planID == p.ID && sh.version > p.Version) {
			// Another conversation's, or shown a newer version already
			// (two plan calls that finished out of order).
			continue
		}
		changed := !sh.set.Same(set)
		g.show(sh, key, set, &p, w != nil && w.live)
		if ss == req.Session {
			callerChanged = callerChanged || changed
		} else if changed {
			others = append(others, ss)
		}
	}
	g.mu.Unlock()
	if req.Session != nil && callerChanged {
		g.notify(ctx, req.Session)
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
