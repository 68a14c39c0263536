package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
	"github.com/modelcontextprotocol/go-sdk/auth"

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

// metrics are one Server's series, in sets of its own so that two servers
// in one process (tests, benchmarks) count apart.
//
// They are github.com/VictoriaMetrics/metrics rather than Prometheus's
// client_golang: client_golang's package init builds a default registry
// with Go and process collectors (and links protobuf and procfs), which
// every skillc process paid, `skillc version` and `skillc plan` included:
// 0.6-0.8 ms of CPU per process, about a sixth of `skillc version`.
type metrics struct {
	calls, latency, storeOps, conflicts, storeErrs, created, closed *family

	conflictsTotal *vm.Counter
	createdTotal   *vm.Counter
	closedTotal    map[string]*vm.Counter // by plan status
	storeErrsTotal map[string]*vm.Counter // by store operation

	// The series of the hot path, made once: a series is found by its
	// name, labels included, and a name is a string to build.
	tools map[string]*toolSeries
	ops   map[string]*vm.PrometheusHistogram
}

// family is one metric: its series, and what the text format says of it.
type family struct {
	name, typ, help string
	set             *vm.Set
}

func newFamily(name, typ, help string) *family {
	return &family{name: name, typ: typ, help: help, set: vm.NewSet()}
}

// counter is the family's counter with these labels, made on first use.
func (f *family) counter(labels ...string) *vm.Counter {
	return f.set.GetOrCreateCounter(series(f.name, labels...))
}

// histogram is the family's histogram with these labels, made on first use.
func (f *family) histogram(labels ...string) *vm.PrometheusHistogram {
	return f.set.GetOrCreatePrometheusHistogramExt(series(f.name, labels...), latencyBuckets)
}

// series is the name of a series: the metric's name and its labels,
// `name{k1="v1",k2="v2"}`, given as key, value, key, value in key order,
// as Prometheus's own clients write them. The values are the server's
// own (tool names, outcomes, store operations, plan statuses), never a
// client's.
func series(name string, labels ...string) string {
	if len(labels) == 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name)
	for i := 0; i+1 < len(labels); i += 2 {
		if i == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%q", labels[i], labels[i+1])
	}
	b.WriteByte('}')
	return b.String()
}

// toolSeries are one tool's series.
type toolSeries struct {
	latency *vm.PrometheusHistogram
	calls   map[string]*vm.Counter // by outcome
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
	ts := &toolSeries{latency: m.latency.histogram("tool", tool), calls: map[string]*vm.Counter{}}
	for _, o := range []string{OutcomeOK, OutcomeRefused, OutcomeError, OutcomeCanceled} {
		ts.calls[o] = m.calls.counter("outcome", o, "tool", tool)
	}
	return ts
}

// latencyBuckets run from half a millisecond (a call on the memory store)
// to about 8 s (a store that hangs until its timeout).
var latencyBuckets = vm.ExponentialBuckets(0.0005, 2, 15)

func newMetrics() *metrics {
	m := &metrics{
		calls: newFamily("skillc_tool_calls_total", "counter",
			"Plan tool calls, by tool and outcome (ok, refused, error, canceled)."),
		latency: newFamily("skillc_tool_call_duration_seconds", "histogram",
			"How long plan tool calls take, by tool."),
		storeOps: newFamily("skillc_store_operation_duration_seconds", "histogram",
			"How long plan store operations take, by operation (load, save, history)."),
		conflicts: newFamily("skillc_store_conflicts_total", "counter",
			"Compare-and-swap writes that lost to a concurrent change of the same plan (each is retried)."),
		storeErrs: newFamily("skillc_store_errors_total", "counter",
			"Plan store operations that failed, by operation; a missing plan and a conflict are not failures."),
		created: newFamily("skillc_plans_created_total", "counter",
			"Plans made by make_plan."),
		closed: newFamily("skillc_plans_closed_total", "counter",
			"Plans closed, by status: by close_plan, or cancelled by a make_plan that superseded them."),
	}
	m.conflictsTotal = m.conflicts.counter()
	m.createdTotal = m.created.counter()
	// Every tool, outcome, operation and status is there from the start,
	// at zero, so a rate over a series that has not happened yet is 0, not
	// absent.
	m.tools = map[string]*toolSeries{}
	for _, tool := range []string{"make_plan", "view_plan", "update_plan", "close_plan"} {
		m.tools[tool] = m.newSeries(tool)
	}
	m.ops = map[string]*vm.PrometheusHistogram{}
	m.storeErrsTotal = map[string]*vm.Counter{}
	for _, op := range []string{"load", "save", "history"} {
		m.ops[op] = m.storeOps.histogram("op", op)
		m.storeErrsTotal[op] = m.storeErrs.counter("op", op)
	}
	m.closedTotal = map[string]*vm.Counter{}
	for _, st := range []plan.Status{plan.StatusCompleted, plan.StatusFailed, plan.StatusCancelled} {
		m.closedTotal[string(st)] = m.closed.counter("status", string(st))
	}
	return m
}

// closedAs is the counter of plans closed with status st.
func (m *metrics) closedAs(st string) *vm.Counter {
	if c, ok := m.closedTotal[st]; ok {
		return c
	}
	return m.closed.counter("status", st)
}

// writeTo writes the metrics in Prometheus's text format, in name order
// as Prometheus's own clients do: the Go runtime's and the process's own
// (go_*, process_*, which the library writes without HELP and TYPE
// lines), then the server's, each family after its HELP and TYPE lines.
func (m *metrics) writeTo(w io.Writer) {
	vm.WriteProcessMetrics(w)
	vm.WriteFDMetrics(w)
	for _, f := range []*family{m.closed, m.created, m.conflicts, m.storeErrs, m.storeOps, m.latency, m.calls} {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", f.name, f.help, f.name, f.typ)
		f.set.WritePrometheus(w)
	}
}

// MetricsHandler serves the server's metrics in Prometheus's text format,
// without authentication: Handler mounts it at /metrics behind the bearer
// tokens, and `skillc serve --metrics-addr` serves it on an address of its
// own.
func (s *Server) MetricsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		// The text format's media type, as Prometheus's scrapers ask for it.
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		var buf bytes.Buffer
		s.metrics.writeTo(&buf)
		_, _ = w.Write(buf.Bytes()) // a scraper that went away
	})
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
		ts.latency.Update(time.Since(start).Seconds())
		ts.calls[outcome(ctx, cs, err)].Inc()
		po, ok := out.(*PlanOutput)
		if err != nil || !ok {
			return
		}
		switch tool {
		case "make_plan":
			m.createdTotal.Inc()
			if po.Superseded != nil {
				m.closedAs(string(plan.StatusCancelled)).Inc()
			}
		case "close_plan":
			m.closedAs(po.Status).Inc()
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
	ms.m.ops[op].Update(time.Since(start).Seconds())
	switch {
	case err == nil, errors.Is(err, store.ErrNotFound), errors.Is(err, context.Canceled):
	case errors.Is(err, store.ErrConflict):
		ms.m.conflictsTotal.Inc()
	default:
		ms.m.storeErrsTotal[op].Inc()
		serverFault(ctx)
	}
}

func (ms meteredStore) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	start := time.Now()
	p, err := ms.Store.Load(ctx, key)
	ms.observe(ctx, "load", start, err)
	return p, err
}

// LastWritten passes store.Remembering through when the store underneath
// has it, so that store.Change can start from the plan as last written;
// it reads nothing, so it counts as no operation.
func (ms meteredStore) LastWritten(key store.Key) (*plan.Plan, bool) {
	if r, ok := ms.Store.(store.Remembering); ok {
		return r.LastWritten(key)
	}
	return nil, false
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
