package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PoolOptions configure a Pool.
type PoolOptions struct {
	// Logger receives connection failures and reconnects; nil discards.
	Logger *slog.Logger
	// MaxInFlight bounds the calls one upstream runs at once, for every
	// conversation together; 0 means DefaultMaxInFlight. A call over the
	// bound waits for a slot (or its context).
	MaxInFlight int
	// ConnectTimeout bounds connecting and listing tools; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// RetryEvery is the least time between two connection attempts to one
	// upstream, so a server that will not start is not started on every
	// call; 0 means DefaultRetryEvery.
	RetryEvery time.Duration
	// Version is reported to upstreams as the client's version.
	Version string
	// Stderr receives the stdio upstreams' standard error; nil discards.
	Stderr io.Writer
}

// Defaults of PoolOptions.
const (
	DefaultMaxInFlight    = 32
	DefaultConnectTimeout = 30 * time.Second
	DefaultRetryEvery     = 2 * time.Second
)

// Pool holds one client connection to each upstream, shared by every
// conversation. A connection that fails is closed and made again on the
// next call that needs it (at most once per RetryEvery), so an upstream
// that dies costs tool errors, never the gateway.
type Pool struct {
	opts  PoolOptions
	conns map[string]*conn
	names []string

	mu      sync.Mutex
	onTools func()
}

// OnTools sets f to be called, outside any lock, when an upstream's tool
// list changed: it connected, reconnected with other tools, or said so.
// The server that offers the tools sets it before Start.
func (p *Pool) OnTools(f func()) {
	p.mu.Lock()
	p.onTools = f
	p.mu.Unlock()
}

func (p *Pool) toolsChanged() {
	p.mu.Lock()
	f := p.onTools
	p.mu.Unlock()
	if f != nil {
		f()
	}
}

type conn struct {
	pool *Pool
	up   Upstream
	sem  chan struct{}
	// dial serializes connection attempts; mu guards the fields below.
	dial sync.Mutex

	mu   sync.Mutex
	sess *mcp.ClientSession
	// raw is sess's stdio connection when Forward may write to it
	// directly: a stdio upstream on a protocol before 2026-07-28 (from
	// that one on, the SDK's client adds _meta to each request and runs
	// the multi-round-trip exchange itself).
	raw     *stdioConn
	tools   []*mcp.Tool
	lastTry time.Time
	lastErr error
	closed  bool
}

// NewPool makes a pool for ups; nothing connects until Start or a call.
func NewPool(ups []Upstream, opts PoolOptions) *Pool {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.RetryEvery <= 0 {
		opts.RetryEvery = DefaultRetryEvery
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	p := &Pool{opts: opts, conns: map[string]*conn{}}
	for _, u := range ups {
		p.conns[u.Name] = &conn{pool: p, up: u, sem: make(chan struct{}, opts.MaxInFlight)}
		p.names = append(p.names, u.Name)
	}
	sort.Strings(p.names)
	return p
}

// Start connects to every upstream at once and lists its tools. It returns
// the upstreams that could not be reached, by name; they are tried again
// on the first call to one of their tools, or by Retry.
func (p *Pool) Start(ctx context.Context) map[string]error {
	var mu sync.Mutex
	failed := map[string]error{}
	var wg sync.WaitGroup
	for _, name := range p.names {
		c := p.conns[name]
		wg.Go(func() {
			if _, err := c.session(ctx, true); err != nil {
				mu.Lock()
				failed[name] = err
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return failed
}

// Retry connects, in the background until ctx is done, to each upstream
// that has no connection, every RetryEvery: an upstream that was down at
// start then offers its tools as soon as it is up.
func (p *Pool) Retry(ctx context.Context) {
	t := time.NewTicker(p.opts.RetryEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, name := range p.names {
			c := p.conns[name]
			c.mu.Lock()
			down := c.sess == nil && !c.closed
			c.mu.Unlock()
			if down {
				_, _ = c.session(ctx, false)
			}
		}
	}
}

// Upstreams lists the upstreams' names, sorted.
func (p *Pool) Upstreams() []string { return p.names }

// Tools returns each connected upstream's tools (as last listed), by name.
func (p *Pool) Tools() map[string][]*mcp.Tool {
	out := map[string][]*mcp.Tool{}
	for name, c := range p.conns {
		c.mu.Lock()
		if c.tools != nil {
			out[name] = c.tools
		}
		c.mu.Unlock()
	}
	return out
}

// Err returns why an upstream has no connection, or nil.
func (p *Pool) Err(name string) error {
	c, ok := p.conns[name]
	if !ok {
		return fmt.Errorf("no upstream named %q", name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess != nil {
		return nil
	}
	return c.lastErr
}

// Call runs tool (the upstream's own name) on the upstream server with
// args as they came from the client. A result the upstream marks as an
// error comes back as is. An error return is the gateway's to report as a
// tool error: the upstream is down, or refused the request.
func (p *Pool) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	c, ok := p.conns[server]
	if !ok {
		return nil, fmt.Errorf("no upstream named %q", server)
	}
	sess, release, err := c.slot(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	params := &mcp.CallToolParams{Name: tool}
	if len(args) > 0 {
		params.Arguments = args
	}
	res, err := sess.CallTool(ctx, params)
	if err == nil {
		return res, nil
	}
	return nil, c.failed(ctx, sess, err)
}

// slot waits for one of the upstream's call slots (the bound on calls in
// flight) and its session, connecting if there is none; release gives the
// slot back.
func (c *conn) slot(ctx context.Context) (sess *mcp.ClientSession, release func(), err error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	release = func() { <-c.sem }
	if sess, err = c.session(ctx, false); err != nil {
		release()
		return nil, nil, err
	}
	return sess, release, nil
}

// failed is the error of a call on sess that failed with err.
func (c *conn) failed(ctx context.Context, sess *mcp.ClientSession, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		// The upstream answered, with a refusal: the connection is fine.
		return fmt.Errorf("upstream %q refused the call: %s", c.up.Name, rpcErr.Message)
	}
	// Anything else is the connection: drop it, so the next call makes a
	// new one. This call is not sent again, since it may have run.
	c.drop(sess, err)
	return fmt.Errorf("upstream %q failed during the call (%v); it is being reconnected, and the call may or may not have run: check before calling it again", c.up.Name, err)
}

// ErrNotForwardable is Forward's answer, before it sent anything, when
// the upstream's connection has no raw path: make the call with Call.
var ErrNotForwardable = errors.New("gateway: the upstream's connection cannot forward a raw call")

// Forwardable reports whether Forward would now write a call to server's
// connection directly: it is connected, over stdio, on a protocol before
// 2026-07-28. The server asks before it takes a request off the SDK's
// path; Forward can still find the connection changed and answer
// ErrNotForwardable.
func (p *Pool) Forwardable(server string) bool {
	c, ok := p.conns[server]
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.raw != nil
}

// Forward is Call at the JSON-RPC level: it writes tools/call for tool
// (the upstream's own name) with args (the client's JSON object, nil for
// none) straight to the upstream's stdio connection and returns the
// upstream's result as it came, without the SDK's client decoding it into
// a *mcp.CallToolResult that the server then encodes again: on a
// forwarded call that pair of steps, with the goroutine hand-offs around
// them, was most of the gateway's time (docs/gateway.md, Speed). All else
// is Call's: the bound on calls in flight, connecting when there is no
// connection, the errors (a refusal by the upstream, a connection that
// failed and is dropped), ctx ending the call (the upstream is told).
// It returns ErrNotForwardable, having sent nothing, when the
// connection it finds is not one Forwardable describes.
func (p *Pool) Forward(ctx context.Context, server, tool string, args json.RawMessage) (json.RawMessage, error) {
	c, ok := p.conns[server]
	if !ok {
		return nil, fmt.Errorf("no upstream named %q", server)
	}
	args, err := rawArgs(args)
	if err != nil {
		return nil, err
	}
	sess, release, err := c.slot(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	c.mu.Lock()
	raw := c.raw
	if c.sess != sess {
		raw = nil // dropped meanwhile: Call reconnects, or says why not
	}
	c.mu.Unlock()
	if raw == nil {
		return nil, ErrNotForwardable
	}
	res, err := raw.rawCall(ctx, tool, args)
	if err == nil {
		return res, nil
	}
	return nil, c.failed(ctx, sess, err)
}

// Close closes every connection at once; stdio upstreams are stopped.
func (p *Pool) Close() error {
	errs := make([]error, len(p.names))
	var wg sync.WaitGroup
	for i, name := range p.names {
		c := p.conns[name]
		c.mu.Lock()
		c.closed = true
		sess := c.sess
		c.sess, c.raw = nil, nil
		c.mu.Unlock()
		if sess == nil {
			continue
		}
		wg.Go(func() {
			if err := sess.Close(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
				errs[i] = fmt.Errorf("upstream %q: %w", name, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// session returns the upstream's connection, connecting when there is
// none. force skips the RetryEvery wait (the first attempt at start).
func (c *conn) session(ctx context.Context, force bool) (*mcp.ClientSession, error) {
	if sess := c.current(); sess != nil {
		return sess, nil
	}
	// One attempt at a time: calls that find no connection wait for it
	// rather than each starting a server. mu is not held meanwhile, so
	// Tools and Err answer while an upstream is slow to connect.
	c.dial.Lock()
	defer c.dial.Unlock()
	c.mu.Lock()
	switch {
	case c.sess != nil:
		defer c.mu.Unlock()
		return c.sess, nil
	case c.closed:
		c.mu.Unlock()
		return nil, fmt.Errorf("upstream %q: the gateway is shutting down", c.up.Name)
	case !force && !c.lastTry.IsZero() && time.Since(c.lastTry) < c.pool.opts.RetryEvery:
		defer c.mu.Unlock()
		return nil, fmt.Errorf("upstream %q is unavailable (%v); try again in a few seconds", c.up.Name, c.lastErr)
	}
	c.lastTry = time.Now()
	c.mu.Unlock()

	sess, raw, tools, err := c.connect(ctx)

	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.lastErr = err
		c.pool.opts.Logger.Warn("upstream unavailable", "upstream", c.up.Name, "err", err)
		return nil, fmt.Errorf("upstream %q is unavailable (%v); try again in a few seconds", c.up.Name, err)
	}
	if c.closed { // Close ran while we connected
		go sess.Close()
		return nil, fmt.Errorf("upstream %q: the gateway is shutting down", c.up.Name)
	}
	changed := !sameTools(c.tools, tools)
	c.sess, c.raw, c.tools, c.lastErr = sess, raw, tools, nil
	go c.watch(sess)
	if changed {
		go c.pool.toolsChanged()
	}
	return sess, nil
}

func (c *conn) current() *mcp.ClientSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

// watch drops the connection when it ends (a stdio server that exits),
// so the next call reconnects at once instead of failing first.
func (c *conn) watch(sess *mcp.ClientSession) {
	err := sess.Wait()
	if err == nil {
		err = errors.New("the connection closed")
	}
	c.drop(sess, err)
}

func (c *conn) drop(sess *mcp.ClientSession, why error) {
	c.mu.Lock()
	if c.sess != sess {
		c.mu.Unlock()
		return
	}
	c.sess, c.raw = nil, nil
	c.lastErr = why
	// The next call may reconnect at once: the wait is for failed
	// attempts, not for a connection that worked.
	c.lastTry = time.Time{}
	closed := c.closed
	c.mu.Unlock()
	if !closed {
		c.pool.opts.Logger.Warn("upstream connection lost; reconnecting on the next call", "upstream", c.up.Name, "err", why)
	}
	_ = sess.Close()
}

func (c *conn) connect(ctx context.Context) (*mcp.ClientSession, *stdioConn, []*mcp.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.pool.opts.ConnectTimeout)
	defer cancel()
	var t mcp.Transport
	var st *stdioTransport
	switch c.up.Type {
	case "stdio":
		// Not CommandContext: the server outlives the call that started it.
		cmd := exec.Command(c.up.Command, c.up.Args...)
		cmd.Env = os.Environ()
		for k, v := range c.up.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Dir = c.up.Cwd
		cmd.Stderr = c.pool.opts.Stderr
		dieWithParent(cmd)
		// A server that has not exited a second after its stdin closed
		// is sent SIGTERM: shutting down must stay within what a host
		// waits for before it kills skillc.
		st = &stdioTransport{cmd: cmd, terminate: time.Second}
		t = st
	case "sse":
		t = &mcp.SSEClientTransport{Endpoint: c.up.URL, HTTPClient: headerClient(c.up.Headers)}
	default:
		t = &mcp.StreamableClientTransport{Endpoint: c.up.URL, HTTPClient: headerClient(c.up.Headers)}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "skillc-gateway", Version: c.pool.opts.Version}, &mcp.ClientOptions{
		Logger: c.pool.opts.Logger,
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			go c.relist()
		},
	})
	sess, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	tools, err := listTools(ctx, sess)
	if err != nil {
		sess.Close()
		return nil, nil, nil, fmt.Errorf("tools/list: %w", err)
	}
	var raw *stdioConn
	if st != nil && st.conn != nil {
		if res := sess.InitializeResult(); res != nil && res.ProtocolVersion < rawProtocolBefore {
			raw = st.conn
		}
	}
	return sess, raw, tools, nil
}

// rawProtocolBefore is the first protocol version on which Forward leaves
// the calls to the SDK's client (see conn.raw).
const rawProtocolBefore = "2026-07-28"

// relist reads the tools again after the upstream said they changed.
func (c *conn) relist() {
	c.mu.Lock()
	sess := c.sess
	c.mu.Unlock()
	if sess == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.pool.opts.ConnectTimeout)
	defer cancel()
	tools, err := listTools(ctx, sess)
	if err != nil {
		c.pool.opts.Logger.Warn("upstream tools/list after list_changed", "upstream", c.up.Name, "err", err)
		return
	}
	c.mu.Lock()
	changed := c.sess == sess && !sameTools(c.tools, tools)
	if changed {
		c.tools = tools
	}
	c.mu.Unlock()
	if changed {
		c.pool.toolsChanged()
	}
}

func listTools(ctx context.Context, sess *mcp.ClientSession) ([]*mcp.Tool, error) {
	tools := []*mcp.Tool{}
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// sameTools compares two tool lists by JSON: a reconnected server that
// offers the same tools changes nothing.
func sameTools(a, b []*mcp.Tool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && slices.Equal(ja, jb)
}

// headerClient is an HTTP client that adds the configured headers (an
// Authorization header, usually) to every request.
func headerClient(headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return nil
	}
	return &http.Client{Transport: headerTransport{headers: headers, next: http.DefaultTransport}}
}

type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.next.RoundTrip(r)
}

// Registry connects to every upstream, lists its tools and disconnects:
// the names a skill may write for them, each plain name and each
// SERVER__name, sorted. It fails, naming them, when an upstream cannot be
// reached: a registry with a server missing would report its tools as
// unknown.
func Registry(ctx context.Context, ups []Upstream, opts PoolOptions) ([]string, error) {
	p := NewPool(ups, opts)
	defer p.Close()
	if failed := p.Start(ctx); len(failed) > 0 {
		var errs []error
		for _, name := range p.names {
			if err, ok := failed[name]; ok {
				errs = append(errs, fmt.Errorf("upstream %q (%s): %v", name, p.conns[name].up.Pos, err))
			}
		}
		return nil, errors.Join(errs...)
	}
	seen := map[string]bool{}
	for server, tools := range p.Tools() {
		for _, t := range tools {
			seen[t.Name] = true
			seen[server+Sep+t.Name] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}
