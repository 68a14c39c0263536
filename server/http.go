package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
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

// DefaultBodyTimeout bounds the time to receive a request body once its
// headers are in: a body at the size limit takes a few seconds on a slow
// link, and a client that trickles one byte at a time must not hold a
// connection (and a file descriptor) for as long as it likes.
const DefaultBodyTimeout = 30 * time.Second

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
	// It is not the plan TTL: a client whose session was closed gets a
	// transport error ("session not found"), not a tool result, so it must
	// outlast the pauses of a conversation, however short plans live.
	// 0 means DefaultSessionIdle.
	SessionIdle time.Duration
	// BodyTimeout bounds the time to receive a request body, counted from
	// the end of its headers; 0 means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// PlanPicture draws a plan for the web view (UIPath); nil means
	// DrawPlan.
	PlanPicture PlanPicture
	// NoMetrics leaves GET /metrics out, for a server that serves
	// MetricsHandler on an address of its own (--metrics-addr).
	NoMetrics bool
}

// DefaultSessionIdle is how long an idle MCP session stays open: as long as
// a plan lives by default, so a plan keyed by its MCP session (no
// conversation header) stays reachable as long as it exists.
const DefaultSessionIdle = store.DefaultTTL

// Handler returns the HTTP handler: MCP at /mcp (bearer auth when Tokens is
// set), an unauthenticated GET /healthz for load balancers, and GET
// /metrics (behind the tokens too) unless NoMetrics.
func (s *Server) Handler(opts HTTPOptions) http.Handler {
	limit := opts.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	idle := opts.SessionIdle
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	bodyTimeout := opts.BodyTimeout
	if bodyTimeout <= 0 {
		bodyTimeout = DefaultBodyTimeout
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{
			Stateless:           opts.Stateless,
			MaxRequestBodyBytes: limit,
			SessionTimeout:      idle,
			Logger:              s.logger,
		})
	h = readBody(h, limit, bodyTimeout)
	h = checkConversationHeader(h)
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
	s.mountUI(mux, opts)
	if !opts.NoMetrics {
		mux.Handle("GET "+MetricsPath, s.metricsBehind(opts.Tokens)) // metrics.go
	}
	return bodyDeadline(mux, bodyTimeout)
}

// bodyDeadline gives every request that has a body until timeout to send
// it, on every path: even a 404 reads (and discards) a small body before
// answering, so without a deadline a slow client holds its connection.
//
// A read deadline on the connection, not http.Server.ReadTimeout, and only
// for requests with a body: net/http clears the deadline when the body
// reaches its end, to watch the connection for a client that goes away, so
// the long-lived answers of streamable HTTP (an event stream on GET, or on
// POST while a tool runs) are never cut. A GET has no body, and its
// connection is watched from the start, which a deadline would end.
func bodyDeadline(h http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			// An error means a writer without deadlines (a test
			// recorder): nothing to bound there.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
		}
		h.ServeHTTP(w, r)
	})
}

// refuse answers with an error and hangs up.
func refuse(w http.ResponseWriter, msg string, code int) {
	hangUp(w)
	http.Error(w, msg, code)
}

// hangUp makes net/http close the connection after this response instead
// of reading the rest of the body first: to keep a connection, it reads up
// to 256 KiB of unread body, before the response and again when closing
// it, at whatever pace the client sends. "Connection: close" skips the
// first; a read deadline already past ends the second at once. A refused
// request then costs no reading and holds no connection.
func hangUp(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}

// readBody reads the whole body, at most limit bytes, before the SDK sees
// the request, so each way it can fail gets its own answer: too large
// (413), not sent in time (408, with bodyDeadline), cut off (400). The SDK
// reads the whole body too; it then reads it from memory.
func readBody(h http.Handler, limit int64, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			refuse(w, fmt.Sprintf("request body is %d bytes; the limit is %d (--max-body)", r.ContentLength, limit), http.StatusRequestEntityTooLarge)
			return
		}
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
		if err != nil {
			var tooLarge *http.MaxBytesError
			switch {
			case errors.As(err, &tooLarge):
				refuse(w, fmt.Sprintf("request body is over the limit of %d bytes (--max-body)", limit), http.StatusRequestEntityTooLarge)
			case errors.Is(err, os.ErrDeadlineExceeded):
				refuse(w, fmt.Sprintf("request body not received within %s of its headers; send it at once", timeout), http.StatusRequestTimeout)
			default:
				refuse(w, fmt.Sprintf("reading the request body: %v", err), http.StatusBadRequest)
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// checkConversationHeader refuses a conversation header the stores cannot
// key by (not valid UTF-8, too long, not printable) with a 400 that says
// why, before the request reaches the SDK, a tool or a store. An empty
// header is no header, as it always was: the MCP session is the
// conversation.
func checkConversationHeader(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if vals := r.Header.Values(ConversationHeader); len(vals) > 1 || len(vals) == 1 && vals[0] != "" {
			if len(vals) > 1 {
				refuse(w, fmt.Sprintf("%d %s headers; send one", len(vals), ConversationHeader), http.StatusBadRequest)
				return
			}
			if err := checkIdentity("the "+ConversationHeader+" header", vals[0]); err != nil {
				refuse(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
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
	if code == http.StatusUnauthorized {
		if c.Header().Get("WWW-Authenticate") == "" {
			c.Header().Set("WWW-Authenticate", `Bearer realm="skillc"`)
		}
		// The body was never read, and need not be.
		hangUp(c.ResponseWriter)
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
		s.stopOnce.Do(func() { close(s.stopping) }) // the web view's event streams
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
