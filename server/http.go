package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/store"
)

// ConversationHeader names the conversation a request belongs to. A client
// that sends it keeps one plan per conversation across MCP sessions,
// reconnects and replicas; without it the MCP session is the conversation.
const ConversationHeader = "X-Conversation-Id"

// DefaultMaxBodyBytes bounds a request body: a make_plan at every limit
// (100 steps of 500-character goals, 16 tools each) is well under 1 MiB.
const DefaultMaxBodyBytes = 1 << 20

// MCPPath is where the streamable HTTP endpoint is mounted.
const MCPPath = "/mcp"

// HTTPOptions configure the streamable HTTP endpoint.
type HTTPOptions struct {
	// Tokens authenticates requests; nil serves everyone as the server's
	// fixed user (Options.User), which only a loopback address allows.
	Tokens *Tokens
	// MaxBodyBytes bounds a request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Stateless skips MCP sessions, so any replica can answer any request;
	// clients must then send ConversationHeader.
	Stateless bool
	// SessionIdle closes an MCP session after this long without a request,
	// so a long-running server does not keep every session it ever opened.
	// 0 means store.DefaultTTL: by then a plan keyed by that session has
	// expired anyway, so closing it loses nothing.
	SessionIdle time.Duration
}

// Handler returns the HTTP handler: MCP at /mcp (bearer auth when Tokens is
// set) and an unauthenticated GET /healthz for load balancers.
func (s *Server) Handler(opts HTTPOptions) http.Handler {
	limit := opts.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	idle := opts.SessionIdle
	if idle <= 0 {
		idle = store.DefaultTTL
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{
			Stateless:           opts.Stateless,
			MaxRequestBodyBytes: limit,
			SessionTimeout:      idle,
			Logger:              s.logger,
		})
	h = limitBody(h, limit)
	if opts.Tokens != nil {
		verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			user, ok := opts.Tokens.User(token)
			if !ok {
				return nil, fmt.Errorf("unknown bearer token: %w", auth.ErrInvalidToken)
			}
			// UserID also lets the SDK refuse a session ID presented by a
			// user other than the one who opened it.
			return &auth.TokenInfo{UserID: user}, nil
		}
		h = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
		h = bearerChallenge(h)
	}
	mux := http.NewServeMux()
	mux.Handle(MCPPath, h)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	return mux
}

// limitBody caps every request body before anything reads it, so an
// oversized request costs at most limit bytes of reading.
func limitBody(h http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			http.Error(w, fmt.Sprintf("request body is %d bytes; the limit is %d", r.ContentLength, limit), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		h.ServeHTTP(w, r)
	})
}

// bearerChallenge adds `WWW-Authenticate: Bearer` to a 401 that has none:
// the SDK's middleware only sends the header when OAuth metadata is
// configured, and RFC 6750 asks for it on every 401.
func bearerChallenge(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&challengeWriter{ResponseWriter: w}, r)
	})
}

type challengeWriter struct {
	http.ResponseWriter
}

func (c *challengeWriter) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		c.Header().Set("WWW-Authenticate", `Bearer realm="skillc"`)
	}
	c.ResponseWriter.WriteHeader(code)
}

// Flush keeps server-sent event streams working through the wrapper.
func (c *challengeWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (c *challengeWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// IsLoopback reports whether addr (host:port) listens only on a loopback
// interface. An empty host, 0.0.0.0, :: and any name other than localhost
// count as reachable from elsewhere.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %v (want HOST:PORT, e.g. 127.0.0.1:8080)", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// ShutdownGrace is how long Serve waits for requests in flight on shutdown.
const ShutdownGrace = 10 * time.Second

// Serve serves h on ln until ctx is done, then shuts down gracefully:
// requests in flight finish (up to ShutdownGrace), MCP sessions are closed
// so their event streams end, and nothing new is accepted.
func (s *Server) Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// No write timeout: event streams stay open while a call runs.
		IdleTimeout: 2 * time.Minute,
		ErrorLog:    slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Long-lived GET streams would hold Shutdown until the grace period:
	// closing the sessions ends them.
	srv.RegisterOnShutdown(func() {
		for ss := range s.mcp.Sessions() {
			ss.Close()
		}
	})
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		srv.Close()
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}
