package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// MetricsPath is where the HTTP server serves its Prometheus metrics.
const MetricsPath = "/metrics"

// Outcomes of a tool call, the outcome label of skillc_tool_calls_total.
const (
	OutcomeOK       = "ok"       // the tool did what was asked
	OutcomeRefused  = "refused"  // a tool error the caller can fix: unknown step, closed plan, bad arguments, no identity
	OutcomeError    = "error"    // the server's fault: the store failed, or a handler panicked
	OutcomeCanceled = "canceled" // the caller went away first
)

// metrics are one Server's Prometheus collectors, on a registry of its own
// so that two servers in one process (tests, benchmarks) count apart.
type metrics struct {
	reg *prometheus.Registry

	calls     *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	storeOps  *prometheus.HistogramVec
	conflicts prometheus.Counter
	storeErrs *prometheus.CounterVec
	created   prometheus.Counter
	closed    *prometheus.CounterVec

	// The series of the hot path, looked up once: a label lookup hashes
	// the label values on every call.
	tools map[string]*toolSeries
	ops   map[string]prometheus.Observer
}

// toolSeries are one tool's series.
type toolSeries struct {
	latency prometheus.Observer
	calls   map[string]prometheus.Counter // by outcome
}

// series returns a tool's series, made on first use for a tool that is
// not one of the four.
func (m *metrics) series(tool string) *toolSeries {
	if ts, ok := m.tools[tool]; ok {
		return ts
	}
	return m.newSeries(tool)
}

func (m *metrics) newSeries(tool string) *toolSeries {
	ts := &toolSeries{latency: m.latency.WithLabelValues(tool), calls: map[string]prometheus.Counter{}}
	for _, o := range []string{OutcomeOK, OutcomeRefused, OutcomeError, OutcomeCanceled} {
		ts.calls[o] = m.calls.WithLabelValues(tool, o)
	}
	return ts
}

// latencyBuckets run from half a millisecond (a call on the memory store)
// to about 8 s (a store that hangs until its timeout).
var latencyBuckets = prometheus.ExponentialBuckets(0.0005, 2, 15)

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_tool_calls_total",
			Help: "Plan tool calls, by tool and outcome (ok, refused, error, canceled).",
		}, []string{"tool", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "skillc_tool_call_duration_seconds", Buckets: latencyBuckets,
			Help: "How long plan tool calls take, by tool.",
		}, []string{"tool"}),
		storeOps: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "skillc_store_operation_duration_seconds", Buckets: latencyBuckets,
			Help: "How long plan store operations take, by operation (load, save, history).",
		}, []string{"op"}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "skillc_store_conflicts_total",
			Help: "Compare-and-swap writes that lost to a concurrent change of the same plan (each is retried).",
		}),
		storeErrs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_store_errors_total",
			Help: "Plan store operations that failed, by operation; a missing plan and a conflict are not failures.",
		}, []string{"op"}),
		created: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "skillc_plans_created_total",
			Help: "Plans made by make_plan.",
		}),
		closed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillc_plans_closed_total",
			Help: "Plans closed, by status: by close_plan, or cancelled by a make_plan that superseded them.",
		}, []string{"status"}),
	}
	m.reg.MustRegister(m.calls, m.latency, m.storeOps, m.conflicts, m.storeErrs, m.created, m.closed,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Every tool and outcome is there from the start, at zero, so a rate
	// over a series that has not happened yet is 0, not absent.
	m.tools = map[string]*toolSeries{}
	for _, tool := range []string{"make_plan", "view_plan", "update_plan", "close_plan"} {
		m.tools[tool] = m.newSeries(tool)
	}
	m.ops = map[string]prometheus.Observer{}
	for _, op := range []string{"load", "save", "history"} {
		m.ops[op] = m.storeOps.WithLabelValues(op)
		m.storeErrs.WithLabelValues(op)
	}
	for _, st := range []plan.Status{plan.StatusCompleted, plan.StatusFailed, plan.StatusCancelled} {
		m.closed.WithLabelValues(string(st))
	}
	return m
}

// MetricsHandler serves the server's metrics in Prometheus's text format,
// without authentication: Handler mounts it at /metrics behind the bearer
// tokens, and `skillc serve --metrics-addr` serves it on an address of its
// own.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// metricsBehind is MetricsHandler as the main address serves it: behind
// the bearer tokens when there are any, as everything there is but
// /healthz. Any user's token reads them: they hold no plan and no user's
// name, but the main address is the one exposed to clients, and how busy
// the server is and how its store fares are not for anyone who can reach
// it. A scraper that holds no token scrapes --metrics-addr instead.
func (s *Server) metricsBehind(tokens *Tokens) http.Handler {
	h := s.MetricsHandler()
	if tokens == nil {
		return h
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		user, ok := tokens.User(token)
		if !ok {
			return nil, fmt.Errorf("unknown bearer token: %w", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: user}, nil
	}
	return bearerChallenge(auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h))
}

// callKey keys a tool call's state in its context, for the store wrapper.
type callKey struct{}

// callState is what the store wrapper and guard tell the call they serve:
// that it failed by the server's fault.
type callState struct{ failed bool }

// serverFault marks the tool call of ctx as failed by the server's fault
// (a store failure, a panic), for its outcome.
func serverFault(ctx context.Context) {
	if cs, ok := ctx.Value(callKey{}).(*callState); ok {
		cs.failed = true
	}
}

// begin starts timing a tool call; done counts it with its outcome, and
// the plans it created or closed (out is the handler's *PlanOutput).
func (m *metrics) begin(ctx context.Context, tool string) (context.Context, func(out any, err error)) {
	start := time.Now()
	cs := &callState{}
	ts := m.series(tool)
	return context.WithValue(ctx, callKey{}, cs), func(out any, err error) {
		ts.latency.Observe(time.Since(start).Seconds())
		ts.calls[outcome(ctx, cs, err)].Inc()
		po, ok := out.(*PlanOutput)
		if err != nil || !ok {
			return
		}
		switch tool {
		case "make_plan":
			m.created.Inc()
			if po.Superseded != nil {
				m.closed.WithLabelValues(string(plan.StatusCancelled)).Inc()
			}
		case "close_plan":
			m.closed.WithLabelValues(po.Status).Inc()
		}
	}
}

// outcome classifies a finished call.
func outcome(ctx context.Context, cs *callState, err error) string {
	var pe *plan.Error
	switch {
	case err == nil:
		return OutcomeOK
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return OutcomeCanceled
	case errors.As(err, &pe):
		return OutcomeRefused
	case cs.failed:
		return OutcomeError
	}
	// The handlers' own refusals (both steps and skill, no identity, an
	// unknown skill) are plain errors the caller can fix.
	return OutcomeRefused
}

// meteredStore counts a store's operations, failures and conflicts, and
// tells the tool call it serves that the store failed.
type meteredStore struct {
	store.Store
	m *metrics
}

// Unwrap returns the store underneath, for code that needs more than
// store.Store of it (a backend's own interface).
func (ms meteredStore) Unwrap() store.Store { return ms.Store }

func (ms meteredStore) observe(ctx context.Context, op string, start time.Time, err error) {
	ms.m.ops[op].Observe(time.Since(start).Seconds())
	switch {
	case err == nil, errors.Is(err, store.ErrNotFound), errors.Is(err, context.Canceled):
	case errors.Is(err, store.ErrConflict):
		ms.m.conflicts.Inc()
	default:
		ms.m.storeErrs.WithLabelValues(op).Inc()
		serverFault(ctx)
	}
}

func (ms meteredStore) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	start := time.Now()
	p, err := ms.Store.Load(ctx, key)
	ms.observe(ctx, "load", start, err)
	return p, err
}

func (ms meteredStore) Save(ctx context.Context, key store.Key, p *plan.Plan, expect store.Expect, events ...plan.Event) error {
	start := time.Now()
	err := ms.Store.Save(ctx, key, p, expect, events...)
	ms.observe(ctx, "save", start, err)
	return err
}

func (ms meteredStore) History(ctx context.Context, key store.Key) ([]plan.Event, error) {
	start := time.Now()
	h, err := ms.Store.History(ctx, key)
	ms.observe(ctx, "history", start, err)
	return h, err
}
