package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/catalog"
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

	// Getenv reads SKILLC_USER and SKILLC_SESSION; tests replace it.
	Getenv func(string) string
	// Ready, when set, receives the HTTP listener's address once it
	// accepts connections (tests listen on port 0).
	Ready func(addr string)
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
server refuses to start without --tokens. Plans live in the store only, so
several servers can share one (--store postgres://...).`,
		Example: `  # stdio, as an MCP client launches it
  SKILLC_USER=alice SKILLC_SESSION=chat-42 skillc serve

  # with your own workflow skills, on a chosen store
  skillc serve --user alice --session chat-42 --skills ./skills --store sqlite:/tmp/plans.db

  # streamable HTTP for a team, with bearer tokens
  skillc serve --http 0.0.0.0:8080 --tokens /etc/skillc/tokens --store postgres://skillc@db/skillc

  # HTTP on loopback for yourself, no tokens
  skillc serve --http 127.0.0.1:8080 --user alice`,
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
	srv, err := server.New(server.Options{
		Planner: &tools.Planner{Store: st},
		Catalog: offered, User: user, Session: session,
		Logger: logger, Version: buildVersion(),
	})
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go sweepEvery(ctx, st, time.Hour, logger)

	if opts.HTTP == "" {
		t := server.StdioTransport(opts.IO.In, opts.IO.Out, int(opts.MaxBodyBytes), logger)
		if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
			return fmt.Errorf("serve stdio: %w", err)
		}
		return nil
	}
	ln, err := net.Listen("tcp", opts.HTTP)
	if err != nil {
		return usageError("listen on %s: %v", opts.HTTP, err)
	}
	addr := ln.Addr().String()
	auth := "no authentication (loopback), user " + fmt.Sprintf("%q", user)
	if tokens != nil {
		auth = fmt.Sprintf("bearer tokens (%d)", tokens.Len())
	}
	fmt.Fprintf(opts.IO.ErrOut, "skillc: serving MCP on http://%s%s with %s\n", addr, server.MCPPath, auth)
	if opts.Ready != nil {
		opts.Ready(addr)
	}
	h := srv.Handler(server.HTTPOptions{Tokens: tokens, MaxBodyBytes: opts.MaxBodyBytes, Stateless: opts.Stateless, SessionIdle: opts.SessionIdle})
	if err := srv.Serve(ctx, ln, h); err != nil {
		return fmt.Errorf("serve http: %w", err)
	}
	fmt.Fprintln(opts.IO.ErrOut, "skillc: stopped")
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
