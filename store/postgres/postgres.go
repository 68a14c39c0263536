// Package postgres is the PostgreSQL plan store: several skillc servers, on
// one machine or many, share one database and see the same plans. It uses
// pgx's connection pool, creates and migrates its schema on start (safe when
// several servers start at once), and does compare-and-swap with a version
// column so racing writes from different servers both land through
// store.Update's retry.
package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// Defaults for the zero Options.
const (
	// DefaultTimeout bounds one store operation when the caller's context
	// has no earlier deadline, so a stuck database cannot hang a tool call.
	DefaultTimeout = 10 * time.Second
	// DefaultSweepBatch is how many expired rows one DELETE removes: small
	// enough that a sweep never holds many row locks or bloats one
	// transaction, large enough that a backlog clears in few round trips.
	DefaultSweepBatch = 1000
	// cancelGrace is how long a cancelled statement may take to stop on
	// the server before the connection is dropped.
	cancelGrace = 2 * time.Second
)

// Options configure a Store. The zero value is usable.
type Options struct {
	// TTL is how long a plan lives after its last write (default
	// store.DefaultTTL).
	TTL time.Duration
	// Now is the clock (default time.Now). Every time the store compares
	// or writes comes from it, never from the database's now(), so an
	// injected clock and the expiry rules agree.
	Now func() time.Time
	// Schema holds the store's tables; it is created if missing. Empty
	// means the connection's search_path (usually "public"), which the DSN
	// can set with search_path=NAME.
	Schema string
	// MaxConns caps the connection pool. 0 keeps the DSN's pool_max_conns,
	// or DefaultMaxConns.
	MaxConns int32
	// Timeout bounds each operation (default DefaultTimeout).
	Timeout time.Duration
	// SweepEvery starts a background sweeper that deletes expired plans at
	// this interval until Close. 0: no background sweeper; call Sweep.
	SweepEvery time.Duration
	// SweepBatch is the most rows one DELETE removes (default
	// DefaultSweepBatch); Sweep repeats until a batch comes back short.
	// Rows another session has locked are skipped, left for the next sweep.
	SweepBatch int
	// Logger receives background sweeper failures (default: discarded).
	Logger *slog.Logger
}

// DefaultMaxConns is the pool's cap when neither Options.MaxConns nor the
// DSN's pool_max_conns sets one: 4 per CPU the process may use, at least
// 16. A call holds a connection while the database commits (an fsync, not
// CPU), so pgx's default of one per CPU (at least 4) left 16 sessions
// queueing for 4 connections while the database waited on the disk; with
// more connections in flight its commits share one fsync. The pool opens
// connections only as calls need them.
func DefaultMaxConns() int32 {
	return int32(max(16, 4*runtime.GOMAXPROCS(0)))
}

// Store is a store.Store on PostgreSQL. It is safe for concurrent use, and
// any number of Stores, in any number of processes, may share one schema.
type Store struct {
	pool  *pgxpool.Pool
	opts  Options
	q     queries
	stop  chan struct{}
	done  chan struct{}
	close sync.Once

	// The change feed: one LISTEN connection per Store, started by the
	// first Watch, fanned out to every watcher in this process.
	watchers   store.Notifier
	listenMu   sync.Mutex
	listenStop context.CancelFunc
	listenDone chan struct{}
	closed     bool

	// decoded spares Load decoding the JSON this process last wrote.
	decoded store.PlanCache
}

var (
	_ store.Store       = (*Store)(nil)
	_ store.Remembering = (*Store)(nil)
)

// Open connects to the database at dsn (a postgres:// URL or a key=value
// string, as pgx takes them), creates or migrates the schema, and returns
// the store. Close it when done.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	if opts.TTL <= 0 {
		opts.TTL = store.DefaultTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.SweepBatch <= 0 {
		opts.SweepBatch = DefaultSweepBatch
	}
	if opts.MaxConns < 0 {
		return nil, fmt.Errorf("postgres: pool size %d: want a positive number, or 0 for the default", opts.MaxConns)
	}
	if opts.SweepEvery < 0 {
		return nil, fmt.Errorf("postgres: sweep interval %v: want a positive duration, or 0 for none", opts.SweepEvery)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx redacts the password from this message.
		return nil, fmt.Errorf("postgres: %w", err)
	}
	switch {
	case opts.MaxConns > 0:
		cfg.MaxConns = opts.MaxConns
	case !strings.Contains(dsn, "pool_max_conns"):
		cfg.MaxConns = DefaultMaxConns()
	}
	// pgx's default on a cancelled context only drops the connection: a
	// statement waiting on a row lock would then run, and commit, after
	// the caller was told it failed. A cancel request stops it on the
	// server too; the deadline is the fallback if the server is gone.
	cfg.ConnConfig.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelGrace}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Store{pool: pool, opts: opts, q: newQueries(opts.Schema)}
	mctx, cancel := s.bound(ctx)
	defer cancel()
	// The pool connects lazily; ping so an unreachable server is reported
	// as that, not as a failed migration.
	if err := pool.Ping(mctx); err != nil {
		pool.Close()
		if mctx.Err() != nil {
			// The pool reports only the context's error then; say where
			// it was trying to connect.
			cc := cfg.ConnConfig
			return nil, fmt.Errorf("postgres: connect: no answer from %s:%d (database %q): %w", cc.Host, cc.Port, cc.Database, mctx.Err())
		}
		// pgx's message names the host and database.
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	// The migration takes a lock and runs several statements once per
	// open: a per-operation Timeout sized for one tool call (a few hundred
	// ms, say) is no bound for it on a busy server, so it gets at least
	// DefaultTimeout; an earlier deadline on ctx still wins.
	gctx, gcancel := context.WithTimeout(ctx, max(s.opts.Timeout, DefaultTimeout))
	defer gcancel()
	if err := s.migrate(gctx); err != nil {
		pool.Close()
		return nil, err
	}
	if opts.SweepEvery > 0 {
		s.stop = make(chan struct{})
		s.done = make(chan struct{})
		go s.sweepLoop()
	}
	return s, nil
}

// bound applies the per-operation timeout; an earlier deadline on ctx wins.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opts.Timeout)
}

// fail wraps a database error. When the context ended, that is the cause
// to report (and to match with errors.Is), not the server's "canceling
// statement" or a closed connection that followed from it.
func (s *Store) fail(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("postgres: %s: %w", op, cerr)
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// checkKey rejects keys PostgreSQL text cannot hold (NUL bytes, invalid
// UTF-8) with a clear message instead of a driver error.
func checkKey(key store.Key) error {
	for _, f := range []struct{ name, v string }{{"user", key.User}, {"session", key.Session}} {
		if !utf8.ValidString(f.v) {
			return fmt.Errorf("postgres: %s id %q is not valid UTF-8", f.name, f.v)
		}
		for i := 0; i < len(f.v); i++ {
			if f.v[i] == 0 {
				return fmt.Errorf("postgres: %s id %q contains a NUL byte", f.name, f.v)
			}
		}
	}
	return nil
}

// Load returns the session's live plan, or store.ErrNotFound.
func (s *Store) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	if err := checkKey(key); err != nil {
		// No such key can have been saved.
		return nil, store.ErrNotFound
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var (
		version int64
		data    []byte
	)
	err := s.pool.QueryRow(ctx, s.q.load, key.User, key.Session, s.opts.Now()).Scan(&version, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, s.fail(ctx, "load plan", err)
	}
	p, err := s.decoded.Decode(key, data)
	if err != nil {
		return nil, fmt.Errorf("postgres: load plan: stored plan for user %q session %q is not valid: %w", key.User, key.Session, err)
	}
	// The column is the truth: it is what compare-and-swap compares.
	p.Version = version
	return p, nil
}

// LastWritten implements store.Remembering: the plan this process last
// wrote for key, unless it has expired since.
func (s *Store) LastWritten(key store.Key) (*plan.Plan, bool) {
	return s.decoded.LastWritten(key, s.opts.Now())
}

// Save writes p if the live plan is still expect's, by ID and version; the
// zero Expect means no live plan (an expired row counts as absent and is
// replaced). On success p.Version is expect.Version+1 and p.ExpiresAt is
// now plus the TTL; on
// store.ErrConflict or any error, p and the database are unchanged.
//
// The common write, a plan that goes on with one event and no history to
// trim, is one statement (updateWithEvent); a write without events too. A
// plan that starts over or a write that trims its history is one
// transaction.
func (s *Store) Save(ctx context.Context, key store.Key, p *plan.Plan, expect store.Expect, events ...plan.Event) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if p == nil {
		return errors.New("postgres: save plan: nil plan")
	}
	if expect.Version < 0 {
		return fmt.Errorf("postgres: save plan: expected version %d: want 0 (no plan) or a loaded plan's version", expect.Version)
	}
	now := s.opts.Now()
	next := *p
	next.Version = expect.Version + 1
	next.ExpiresAt = now.Add(s.opts.TTL)
	data, err := json.Marshal(&next)
	if err != nil {
		return fmt.Errorf("postgres: save plan: %w", err)
	}
	starts := store.HistoryStarts(expect, events)
	evData := make([]string, len(events))
	for i, ev := range events {
		ev.Version = next.Version
		b, err := json.Marshal(&ev)
		if err != nil {
			return fmt.Errorf("postgres: save plan: %w", err)
		}
		evData[i] = string(b)
	}
	// The plan goes as a string: in the exec and simple_protocol modes
	// (default_query_exec_mode, for PgBouncer) pgx would send []byte as
	// bytea, which a json column refuses.
	ctx, cancel := s.bound(ctx)
	defer cancel()
	// write is the compare-and-swap; its errors, and the transaction's,
	// are wrapped once below.
	write := func(db interface {
		Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
	}) error {
		var tag pgconn.CommandTag
		var err error
		if expect.None() {
			tag, err = db.Exec(ctx, s.q.insert, key.User, key.Session, string(data), now, next.ExpiresAt, next.ID)
		} else {
			tag, err = db.Exec(ctx, s.q.update, key.User, key.Session, expect.Version, string(data), now, next.ExpiresAt, next.ID, expect.ID)
		}
		if err == nil && tag.RowsAffected() == 0 {
			return store.ErrConflict
		}
		return err
	}
	_, trim := store.HistoryTrim(next.Version)
	switch {
	case !starts && len(events) == 0:
		err = write(s.pool)
	case !starts && len(events) == 1 && !trim:
		var tag pgconn.CommandTag
		tag, err = s.pool.Exec(ctx, s.q.updateWithEvent, key.User, key.Session, expect.Version, string(data), now, next.ExpiresAt, next.ID, expect.ID, evData[0], s.q.channel, watchKey(key.User))
		if err == nil && tag.RowsAffected() == 0 {
			err = store.ErrConflict
		}
	default:
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if err := write(tx); err != nil {
				return err
			}
			if starts {
				if _, err := tx.Exec(ctx, s.q.clearEvents, key.User, key.Session); err != nil {
					return err
				}
			}
			for _, ev := range evData {
				if _, err := tx.Exec(ctx, s.q.addEvent, key.User, key.Session, next.Version, ev); err != nil {
					return err
				}
			}
			if upTo, trim := store.HistoryTrim(next.Version); trim && !starts {
				if _, err := tx.Exec(ctx, s.q.trimEvents, key.User, key.Session, upTo); err != nil {
					return err
				}
			}
			// Sent on commit, and only then: watchers on every replica
			// see the write once it can be read.
			_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, s.q.channel, watchKey(key.User))
			return err
		})
	}
	if errors.Is(err, store.ErrConflict) {
		return store.ErrConflict
	}
	if err != nil {
		return s.fail(ctx, "save plan", err)
	}
	if !starts && len(events) == 0 {
		// The single-statement write is done; a notification lost here
		// (the connection broke just now) costs a watcher one refresh,
		// not the write, so its error is not the caller's.
		_, _ = s.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, s.q.channel, watchKey(key.User))
	}
	s.decoded.Wrote(key, data, &next)
	p.Version = next.Version
	p.ExpiresAt = next.ExpiresAt
	return nil
}

// History returns the live plan's history, oldest first, or
// store.ErrNotFound.
func (s *Store) History(ctx context.Context, key store.Key) ([]plan.Event, error) {
	if err := checkKey(key); err != nil {
		return nil, store.ErrNotFound
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, s.q.history, key.User, key.Session, s.opts.Now(), int64(plan.MaxEvents))
	if err != nil {
		return nil, s.fail(ctx, "load history", err)
	}
	defer rows.Close()
	found := false
	out := []plan.Event{}
	for rows.Next() {
		found = true
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, s.fail(ctx, "load history", err)
		}
		if data == nil {
			continue // the plan has no events
		}
		var ev plan.Event
		if err := json.Unmarshal(data, &ev); err != nil {
			return nil, fmt.Errorf("postgres: load history: a stored event for user %q session %q is not valid: %w", key.User, key.Session, err)
		}
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(ctx, "load history", err)
	}
	if !found {
		return nil, store.ErrNotFound
	}
	return out, nil
}

// List returns the user's live plans, the most recently written first.
func (s *Store) List(ctx context.Context, user string, limit int) ([]store.Listed, error) {
	if err := checkKey(store.Key{User: user}); err != nil {
		return []store.Listed{}, nil // no such user can have saved
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, s.q.list, user, s.opts.Now(), store.ListLimit(limit))
	if err != nil {
		return nil, s.fail(ctx, "list plans", err)
	}
	defer rows.Close()
	out := []store.Listed{}
	for rows.Next() {
		var (
			session string
			version int64
			data    []byte
		)
		if err := rows.Scan(&session, &version, &data); err != nil {
			return nil, s.fail(ctx, "list plans", err)
		}
		p := new(plan.Plan)
		if err := json.Unmarshal(data, p); err != nil {
			return nil, fmt.Errorf("postgres: list plans: stored plan for user %q session %q is not valid: %w", user, session, err)
		}
		p.Version = version
		out = append(out, store.Listed{Session: session, Plan: p})
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(ctx, "list plans", err)
	}
	return out, nil
}

// watchKey is what a notification names: a digest of the user, of fixed
// length (a NOTIFY payload is bounded) and without the user's name in it.
func watchKey(user string) string {
	sum := sha256.Sum256([]byte(user))
	return hex.EncodeToString(sum[:])
}

// Watch implements store.Store with LISTEN/NOTIFY: every Save notifies on
// commit, so a write on any server sharing the database reaches the
// watchers of every other. It needs a session-level connection: through
// a pooler in transaction mode (PgBouncer's default) LISTEN hears nothing.
func (s *Store) Watch(ctx context.Context, user string) (<-chan struct{}, error) {
	if err := checkKey(store.Key{User: user}); err != nil {
		return nil, err
	}
	// The listener runs before the subscription exists, so any write
	// that commits after Watch returns is heard and reaches ch.
	if err := s.listen(ctx); err != nil {
		return nil, err
	}
	return s.watchers.Subscribe(ctx, watchKey(user)), nil
}

// listen starts the listener unless it runs.
func (s *Store) listen(ctx context.Context) error {
	s.listenMu.Lock()
	defer s.listenMu.Unlock()
	if s.closed {
		return errors.New("postgres: watch plans: the store is closed")
	}
	if s.listenDone != nil {
		return nil
	}
	conn, err := s.connectListener(ctx)
	if err != nil {
		return err
	}
	lctx, cancel := context.WithCancel(context.Background())
	s.listenStop, s.listenDone = cancel, make(chan struct{})
	go s.listenLoop(lctx, conn)
	return nil
}

// connectListener opens a connection of its own (not the pool's: it is
// held for as long as the store) and LISTENs on it.
func (s *Store) connectListener(ctx context.Context) (*pgx.Conn, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, s.fail(ctx, "watch plans: connect", err)
	}
	if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{s.q.channel}.Sanitize()); err != nil {
		conn.Close(context.Background())
		return nil, s.fail(ctx, "watch plans: listen", err)
	}
	return conn, nil
}

// listenLoop hands each notification to its watchers until ctx ends. A
// lost connection is reopened with backoff, and then every watcher is
// woken: writes made while it was gone sent notifications nobody heard.
func (s *Store) listenLoop(ctx context.Context, conn *pgx.Conn) {
	defer close(s.listenDone)
	defer func() {
		if conn != nil {
			cctx, cancel := context.WithTimeout(context.Background(), cancelGrace)
			defer cancel()
			conn.Close(cctx)
		}
	}()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err == nil {
			s.watchers.Notify(n.Payload)
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if s.opts.Logger != nil {
			s.opts.Logger.Warn("listening for plan changes failed; reconnecting", "err", err)
		}
		conn.Close(context.Background())
		conn = nil
		for backoff := time.Second; conn == nil; backoff = min(2*backoff, 30*time.Second) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			if conn, err = s.connectListener(ctx); err != nil && ctx.Err() == nil && s.opts.Logger != nil {
				s.opts.Logger.Warn("reconnecting the plan change listener failed", "err", err)
			}
		}
		s.watchers.NotifyAll()
	}
}

// Sweep deletes expired plans in batches of Options.SweepBatch rows, each
// its own short statement, and says how many it deleted.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	now := s.opts.Now()
	total := 0
	var cursor time.Time // the zero time is before any expiry
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		bctx, cancel := s.bound(ctx)
		var (
			n      int
			newest *time.Time
		)
		err := s.pool.QueryRow(bctx, s.q.sweep, now, s.opts.SweepBatch, cursor).Scan(&n, &newest)
		cancel()
		if err != nil {
			return total, s.fail(bctx, "sweep", err)
		}
		total += n
		if n < s.opts.SweepBatch || newest == nil {
			return total, nil
		}
		cursor = *newest
	}
}

func (s *Store) sweepLoop() {
	defer close(s.done)
	t := time.NewTicker(s.opts.SweepEvery)
	defer t.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Close interrupts a sweep in flight rather than waiting for it.
		select {
		case <-s.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil && s.opts.Logger != nil {
				s.opts.Logger.Warn("sweeping expired plans failed", "err", err)
			}
		}
	}
}

// Close stops the background sweeper and closes the pool. It is safe to
// call more than once.
func (s *Store) Close() error {
	s.close.Do(func() {
		if s.stop != nil {
			close(s.stop)
			<-s.done
		}
		s.listenMu.Lock()
		s.closed = true
		if s.listenStop != nil {
			s.listenStop()
			<-s.listenDone
		}
		s.listenMu.Unlock()
		s.pool.Close()
	})
	return nil
}

// Stat is the pool's state, for operators and tests.
func (s *Store) Stat() *pgxpool.Stat { return s.pool.Stat() }
