package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/internal/wire"
	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/tools"
)

// ServeOptions are the flags of `skillc serve`.
type ServeOptions struct {
	IO *IOStreams
	// Ctx ends the server when done; serveRun also ends it on SIGINT/SIGTERM.
	Ctx context.Context

	Store     string
	TTL       time.Duration
	User      string
	Session   string
	SkillDirs []string
	// ConfigPath is --config; empty means .skillc.yaml found upward.
	ConfigPath string

	HTTP         string
	Tokens       string
	MaxBodyBytes int64
	Stateless    bool
	// SessionIdle closes an idle MCP session (HTTP); 0 is the server's
	// default.
	SessionIdle time.Duration
	// MetricsAddr serves /metrics on an address of its own instead of
	// the main one (HTTP only).
	MetricsAddr string
	// Upstreams is --upstreams: an mcpServers JSON file of servers whose
	// tools are offered beside the plan tools. Gate is --gate.
	Upstreams string
	Gate      string

	// Getenv reads SKILLC_USER and SKILLC_SESSION; tests replace it.
	Getenv func(string) string
	// Ready, when set, receives the HTTP listener's address once it
	// accepts connections (tests listen on port 0).
	Ready func(addr string)
	// MetricsReady, when set, receives the metrics listener's address.
	MetricsReady func(addr string)
}

// NewCmdServe builds `skillc serve`.
func NewCmdServe(ios *IOStreams, runF func(*ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{IO: ios, Getenv: os.Getenv}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the plan tools to agents over MCP (stdio or streamable HTTP)",
		Long: `Serve the four plan tools (make_plan, view_plan, update_plan, close_plan) as an
MCP server, with the plan skill as the server's instructions and the workflow
skills as resources (skill://NAME) that make_plan can seed from.

Over stdio (the default) the server acts for one user in one conversation:
--user and --session, or SKILLC_USER and SKILLC_SESSION.

Over streamable HTTP (--http ADDR, endpoint /mcp), --tokens FILE maps bearer
tokens to users, one "TOKEN USER" per line; the conversation is the
X-Conversation-Id header, else the MCP session. Bound beyond loopback the
server refuses to start without --tokens. The same address serves a web
view of the user's plans at /ui/, live as they change: sign in there with
the same token (on loopback without tokens: --user's plans). Plans live in
the store only, so several servers can share one (--store postgres://...).

Over HTTP, GET /metrics serves Prometheus metrics (tool calls by tool and
outcome, their latency, store conflicts and errors, plans created and
closed), behind the bearer tokens when there are --tokens, like everything
but GET /healthz. --metrics-addr ADDR serves them on ADDR instead, without
authentication, for a scraper on a private network; the main address then
has no /metrics.

With --upstreams FILE (the mcpServers JSON that MCP hosts use) the server
also offers the tools of those servers, and --gate decides what an agent
with an active plan sees: list (the default) shows the plan tools and the
tools of the steps in progress, and sends tools/list_changed when that set
changes; enforce also refuses calls outside it; off shows everything. See
docs/gateway.md.`,
		Example: `  # stdio, as an MCP client launches it
  SKILLC_USER=alice SKILLC_SESSION=chat-42 skillc serve

  # with your own workflow skills, on a chosen store
  skillc serve --user alice --session chat-42 --skills ./skills --store sqlite:/tmp/plans.db

  # streamable HTTP for a team, with bearer tokens
  skillc serve --http 0.0.0.0:8080 --tokens /etc/skillc/tokens --store postgres://skillc@db/skillc

  # HTTP on loopback for yourself, no tokens
  skillc serve --http 127.0.0.1:8080 --user alice

  # metrics for a Prometheus on the private network, apart from the MCP port
  skillc serve --http 0.0.0.0:8080 --tokens /etc/skillc/tokens --metrics-addr 10.0.0.5:9090

  # in front of other MCP servers, refusing tools the step does not need
  skillc serve --user alice --session chat-42 --upstreams upstreams.json --gate enforce`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return serveRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Store, "store", "", storeSpecHelp())
	f.DurationVar(&opts.TTL, "ttl", store.DefaultTTL, "how long a plan lives after its last change")
	f.StringVar(&opts.User, "user", "", "the user plans belong to (default $SKILLC_USER); over HTTP only without --tokens")
	f.StringVar(&opts.Session, "session", "", "the conversation, stdio only (default $SKILLC_SESSION)")
	f.StringArrayVar(&opts.SkillDirs, "skills", nil, "a folder walked for SKILL.md workflow skills, as skillc lint walks it (repeatable); they override shipped ones of the same name")
	f.StringVarP(&opts.ConfigPath, "config", "c", "", "lint config `FILE` the skills are judged by (default: .skillc.yaml found upward from the working folder)")
	f.StringVar(&opts.HTTP, "http", "", "serve streamable HTTP on ADDR (host:port) at /mcp instead of stdio")
	f.StringVar(&opts.Tokens, "tokens", "", `bearer tokens file for --http: lines "TOKEN USER"`)
	f.Int64Var(&opts.MaxBodyBytes, "max-body", server.DefaultMaxBodyBytes, "largest request accepted, in bytes (an HTTP body or a stdio line)")
	f.BoolVar(&opts.Stateless, "stateless", false, "HTTP without MCP sessions, for replicas behind a load balancer; clients must send X-Conversation-Id")
	f.StringVar(&opts.MetricsAddr, "metrics-addr", "", "serve Prometheus metrics at /metrics on `ADDR` (host:port), without authentication, instead of on the --http address")
	f.StringVar(&opts.Upstreams, "upstreams", "", "offer the tools of the MCP servers in `FILE` (the mcpServers JSON hosts use) beside the plan tools, gated by the plan (docs/gateway.md)")
	f.StringVar(&opts.Gate, "gate", "", "with --upstreams: off (every tool always), list (tools/list shows the plan tools and the steps in progress' tools) or enforce (list, and calls outside that set are refused); default list")
	f.DurationVar(&opts.SessionIdle, "session-idle", server.DefaultSessionIdle, "close an HTTP MCP session after this long without a request (not --ttl: a closed session is a transport error for its client)")
	return cmd
}

func serveRun(opts *ServeOptions) error {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	user := firstNonEmpty(opts.User, getenv("SKILLC_USER"))
	server.TuneGC()
	if opts.MaxBodyBytes <= 0 {
		return usageError("--max-body must be positive, got %d", opts.MaxBodyBytes)
	}
	if opts.TTL <= 0 {
		return usageError("--ttl must be positive, got %s", opts.TTL)
	}
	if opts.SessionIdle < 0 {
		return usageError("--session-idle must be a positive duration such as 30m or 24h, got %s", opts.SessionIdle)
	}

	var tokens *server.Tokens
	session := ""
	if opts.HTTP == "" {
		if opts.Tokens != "" || opts.Stateless {
			return usageError("--tokens and --stateless are for --http; over stdio the user and session are fixed")
		}
		if opts.MetricsAddr != "" {
			return usageError("--metrics-addr is for --http: a stdio server serves one conversation and is gone with it")
		}
		session = firstNonEmpty(opts.Session, getenv("SKILLC_SESSION"))
		if user == "" || session == "" {
			return usageError("serving over stdio needs a user and a session: pass --user and --session, or set SKILLC_USER and SKILLC_SESSION (missing: %s)", missing(user, session))
		}
	} else {
		if opts.Session != "" {
			return usageError("--session is for stdio; over HTTP the conversation is the %s header or the MCP session", server.ConversationHeader)
		}
		loopback, err := server.IsLoopback(opts.HTTP)
		if err != nil {
			return usageError("%v", err)
		}
		if opts.MetricsAddr != "" {
			if _, err := server.IsLoopback(opts.MetricsAddr); err != nil {
				return usageError("--metrics-addr: %v", err)
			}
		}
		if opts.Tokens != "" {
			if tokens, err = server.LoadTokens(opts.Tokens); err != nil {
				return usageError("%v", err)
			}
			if opts.User != "" {
				return usageError("--user and --tokens do not mix: with --tokens each token names its user")
			}
			user = "" // the token names the user; SKILLC_USER must not stand in for it
		} else {
			if !loopback {
				return usageError("refusing to serve %q without authentication: it is reachable beyond this machine; pass --tokens FILE (lines \"TOKEN USER\"), or bind to 127.0.0.1", opts.HTTP)
			}
			if user == "" {
				return usageError("serving HTTP without --tokens needs a user for every request: pass --user or set SKILLC_USER, or pass --tokens FILE")
			}
		}
	}

	cfg, err := loadConfig(opts.IO, opts.ConfigPath, ".")
	if err != nil {
		return err
	}
	offered, err := server.LoadCatalog(opts.SkillDirs, lint.Options{Config: cfg})
	if err != nil {
		return usageError("%v", err)
	}
	for _, dir := range offered.EmptyDirs() {
		fmt.Fprintf(opts.IO.ErrOut, "skillc: warning: no skills found in --skills %q: it is searched for %s (or %s) files, as skillc lint searches it\n", dir, catalog.FileName, catalog.LowerFileName)
	}
	st, err := openStore(ctx, opts.Store, store.Options{TTL: opts.TTL})
	if err != nil {
		return usageError("%v", err)
	}
	defer st.Close()

	logger := slog.New(slog.NewTextHandler(opts.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
	pool, err := upstreamPool(opts, logger)
	if err != nil {
		return err
	}
	if pool != nil {
		defer pool.Close()
	}
	gate := server.Gate("")
	if opts.Gate != "" {
		gate, _ = server.ParseGate(opts.Gate) // checked by upstreamPool
	}
	srv, err := server.New(server.Options{
		Planner: &tools.Planner{Store: st},
		Catalog: offered, User: user, Session: session,
		Logger: logger, Version: buildVersion(),
		Upstreams: pool, Gate: gate,
	})
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if pool != nil {
		startUpstreams(ctx, opts, pool, srv)
	}
	go sweepEvery(ctx, st, time.Hour, logger)

	if opts.HTTP == "" {
		if pool != nil {
			oneProcessorForStdioGateway()
		}
		// Read and written past the runtime's system-call bookkeeping
		// when they are pipes the runtime polls (wire.Pipe says why).
		in, out := pollableStdin(opts.IO.In), pollableStdout(opts.IO.Out)
		if f, ok := in.(*os.File); ok {
			in = wire.Pipe(f)
		}
		if f, ok := out.(*os.File); ok {
			out = wire.Pipe(f)
		}
		t := server.StdioTransport(in, out, int(opts.MaxBodyBytes), logger)
		if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
			return fmt.Errorf("serve stdio: %w", err)
		}
		return nil
	}
	ln, err := net.Listen("tcp", opts.HTTP)
	if err != nil {
		return usageError("listen on %s: %v", opts.HTTP, err)
	}
	var metricsDone chan error
	if opts.MetricsAddr != "" {
		mln, err := net.Listen("tcp", opts.MetricsAddr)
		if err != nil {
			ln.Close()
			return usageError("listen on --metrics-addr %s: %v", opts.MetricsAddr, err)
		}
		fmt.Fprintf(opts.IO.ErrOut, "skillc: serving metrics on http://%s%s without authentication\n", mln.Addr(), server.MetricsPath)
		if opts.MetricsReady != nil {
			opts.MetricsReady(mln.Addr().String())
		}
		metricsDone = make(chan error, 1)
		go func() { metricsDone <- serveMetrics(ctx, mln, srv.MetricsHandler(), logger) }()
	}
	addr := ln.Addr().String()
	auth := "no authentication (loopback), user " + fmt.Sprintf("%q", user)
	if tokens != nil {
		auth = fmt.Sprintf("bearer tokens (%d)", tokens.Len())
	}
	fmt.Fprintf(opts.IO.ErrOut, "skillc: serving MCP on http://%s%s with %s\n", addr, server.MCPPath, auth)
	fmt.Fprintf(opts.IO.ErrOut, "skillc: web view on http://%s%s\n", addr, server.UIPath)
	if opts.Ready != nil {
		opts.Ready(addr)
	}
	h := srv.Handler(server.HTTPOptions{Tokens: tokens, MaxBodyBytes: opts.MaxBodyBytes, Stateless: opts.Stateless, SessionIdle: opts.SessionIdle,
		NoMetrics: opts.MetricsAddr != ""})
	err = srv.Serve(ctx, ln, h)
	if metricsDone != nil {
		stop() // the main server stopped: so does the metrics one
		if merr := <-metricsDone; merr != nil && err == nil {
			err = merr
		}
	}
	if err != nil {
		return fmt.Errorf("serve http: %w", err)
	}
	fmt.Fprintln(opts.IO.ErrOut, "skillc: stopped")
	return nil
}

// serveMetrics serves h at /metrics on ln, and nothing else, until ctx is
// done.
func serveMetrics(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("GET "+server.MetricsPath, h)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve metrics: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	<-errc
	return nil
}

// sweepEvery deletes expired plans now and then. Expired plans are never
// returned anyway; this only keeps the store from growing.
func sweepEvery(ctx context.Context, st store.Store, every time.Duration, logger *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := st.Sweep(ctx); err != nil && ctx.Err() == nil {
				logger.Warn("sweep expired plans", "err", err)
			}
		}
	}
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func missing(user, session string) string {
	switch {
	case user == "" && session == "":
		return "both"
	case user == "":
		return "the user"
	}
	return "the session"
}
