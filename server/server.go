// Package server is skillc's MCP server: the four plan tools (make_plan,
// view_plan, update_plan, close_plan) over a store, the plan skill as the
// server's instructions, and workflow skills as resources that make_plan
// can seed from. It serves stdio or streamable HTTP.
//
// The server holds no plan state: every call loads from and writes to the
// store, keyed by (user, conversation). Identity comes from the transport
// (fixed for stdio, a bearer token and a header for HTTP), never from a tool
// argument the model writes.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/gateway"
	"github.com/skillc/skillc/skills"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/tools"
)

// Options configure a Server.
type Options struct {
	// Planner runs the four operations over the store. Required.
	Planner *tools.Planner
	// Catalog holds the workflow skills; nil offers none.
	Catalog *Catalog
	// User and Session fix the identity for every call (stdio). Over HTTP
	// Session is empty: the conversation header or the MCP session names
	// it, and a bearer token, when configured, names the user.
	User, Session string
	// Logger receives recovered panics and transport errors; nil discards.
	Logger *slog.Logger
	// Version is reported to clients as the server's version.
	Version string
	// Upstreams, when set, are MCP servers whose tools the server offers
	// beside the plan tools, gated by Gate (docs/gateway.md).
	Upstreams *gateway.Pool
	// Gate is how upstream tools follow the plan; "" means GateList.
	Gate Gate
}

// Server is the MCP server. One Server answers any number of sessions.
type Server struct {
	mcp     *mcp.Server
	planner *tools.Planner
	catalog *Catalog
	user    string
	session string
	logger  *slog.Logger
	// stopping is closed when Serve shuts down, to end the web view's
	// event streams, which no request context would.
	stopping chan struct{}
	stopOnce sync.Once
	metrics  *metrics
	gate     *gate
	// impl is what the server says it is, to clients.
	impl *mcp.Implementation
}

// New builds the server: tools, instructions and resources.
func New(opts Options) (*Server, error) {
	if opts.Planner == nil {
		return nil, errors.New("server: no planner")
	}
	if opts.Catalog == nil {
		opts.Catalog = &Catalog{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// Refused here, at start, rather than at the first call the store
	// cannot key.
	if opts.User != "" {
		if err := checkIdentity("the user", opts.User); err != nil {
			return nil, err
		}
	}
	if opts.Session != "" {
		if err := checkIdentity("the session", opts.Session); err != nil {
			return nil, err
		}
	}
	instructions, err := Instructions()
	if err != nil {
		return nil, err
	}
	m := newMetrics()
	// The planner's store, counted: failures, conflicts, latency.
	pl := *opts.Planner
	pl.Store = meteredStore{Store: pl.Store, m: m}
	if opts.Upstreams != nil && opts.Gate != GateOff {
		instructions += "\n\n" + gateInstructions
	}
	s := &Server{
		planner: &pl,
		metrics: m,
		catalog: opts.Catalog,
		user:    opts.User,
		session: opts.Session,
		logger:  opts.Logger,

		stopping: make(chan struct{}),
	}
	s.impl = &mcp.Implementation{Name: "skillc", Title: "skillc plans", Version: opts.Version}
	s.mcp = mcp.NewServer(s.impl, &mcp.ServerOptions{Instructions: instructions, Logger: opts.Logger})
	s.addTools()
	if err := s.addResources(); err != nil {
		return nil, err
	}
	s.addGateway(opts)
	return s, nil
}

// MCP returns the underlying SDK server, to connect a transport to it or,
// in tests and benchmarks, to add a tool.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client over t (stdio, or an in-memory transport in
// tests) until the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	st, ok := t.(*stdioTransport)
	if !ok || s.gate == nil {
		return s.mcp.Run(ctx, t)
	}
	// A gateway over StdioTransport: as mcp.Server.Run, with the
	// connection's forwarder told its session.
	fst := *st
	fst.fwd = s.gate.newForwarder(s.impl)
	ss, err := s.mcp.Connect(ctx, &fst, nil)
	if err != nil {
		return err
	}
	fst.fwd.ss.Store(ss)
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-closed
		return ctx.Err()
	case err := <-closed:
		return err
	}
}

// Instructions is the plan skill's body (its markdown without the
// frontmatter): the general way to use the four tools, which MCP clients
// put in front of the model.
func Instructions() (string, error) {
	src, _, err := skills.Read(skills.PlanSkill)
	if err != nil {
		return "", fmt.Errorf("read the plan skill: %w", err)
	}
	return strings.TrimSpace(stripFrontmatter(string(src))), nil
}

// stripFrontmatter drops a leading `---` ... `---` block. The plan skill is
// ours and its frontmatter is plain, so finding the closing line is enough;
// compiling it would need a full skill with steps.
func stripFrontmatter(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return s
	}
	rest := s[len("---\n"):]
	for off := 0; off < len(rest); {
		nl := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		if strings.TrimRight(line, " \t") == "---" {
			if nl < 0 {
				return ""
			}
			return rest[off+nl+1:]
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	return s
}

// MaxConversationID bounds the conversation header.
const MaxConversationID = 256

// checkIdentity refuses a user or conversation name the stores cannot key
// by: empty, longer than MaxConversationID bytes, not valid UTF-8
// (PostgreSQL refuses such text, so it must be refused before it gets
// there), or with a character that does not print. what names the source
// in the message.
func checkIdentity(what, s string) error {
	switch {
	case s == "" || len(s) > MaxConversationID:
		return fmt.Errorf("%s must be 1-%d bytes of printable UTF-8, got %d bytes", what, MaxConversationID, len(s))
	case !utf8.ValidString(s):
		return fmt.Errorf("%s is not valid UTF-8 (%q); send 1-%d printable UTF-8 characters", what, s, MaxConversationID)
	case strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		return fmt.Errorf("%s has a character that does not print (%q); send 1-%d printable UTF-8 characters", what, s, MaxConversationID)
	}
	return nil
}

// key is the (user, conversation) a call acts on. Over stdio both are fixed
// at start. Over HTTP the user is the bearer token's (or the fixed one on
// an unauthenticated loopback server) and the conversation is the header,
// else the MCP session.
func (s *Server) key(req *mcp.CallToolRequest) (store.Key, error) {
	if req == nil {
		return s.keyOf(nil, nil)
	}
	return s.keyOf(req.Session, req.Extra)
}

// keyOf is key for any request: a tool call's, or a resource read's
// (plan://current).
func (s *Server) keyOf(session *mcp.ServerSession, extra *mcp.RequestExtra) (store.Key, error) {
	k := store.Key{User: s.user, Session: s.session}
	if extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
		k.User = extra.TokenInfo.UserID
	}
	if k.Session == "" && extra != nil {
		if conv := extra.Header.Get(ConversationHeader); conv != "" {
			if err := checkIdentity("the "+ConversationHeader+" header", conv); err != nil {
				return k, err
			}
			k.Session = conv
		}
	}
	if k.Session == "" && session != nil {
		k.Session = session.ID()
	}
	if k.User == "" {
		return k, errors.New("the server does not know who you are: it was started without a user (stdio: --user or SKILLC_USER; HTTP: --tokens)")
	}
	if k.Session == "" {
		return k, fmt.Errorf("the server cannot tell which conversation this is: send the %s header (a stateless server has no MCP session to fall back on)", ConversationHeader)
	}
	return k, nil
}
