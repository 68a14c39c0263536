// Package sqlite is the default plan store: one SQLite file on the local
// machine, through the pure-Go driver modernc.org/sqlite (no cgo).
//
// The file runs in WAL mode so readers never wait for the writer. Writes go
// through a pool of exactly one connection: SQLite allows one writer at a
// time anyway, and queueing writers in Go instead of in SQLite's busy
// handler keeps latency even and means no SQLITE_BUSY from this process.
// Other processes on the same file (two `skillc plan` commands at once) are
// waited for by busy_timeout. Explicit transactions begin IMMEDIATE, taking
// the write lock up front instead of failing to upgrade later. Saves that
// queue for the writer are written together, in one transaction (group
// commit, commit.go).
//
// synchronous=NORMAL: in WAL mode a commit survives the process being
// killed at any point; only a power cut can lose the last commits, which
// for a plan with a one-day TTL is the right trade for a write that does
// not wait for fsync.
package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// BusyTimeout is how long a statement waits for another process holding
// the write lock before it fails.
const BusyTimeout = 10 * time.Second

// sweepBatch bounds how many rows one DELETE of Sweep removes, so a sweep
// of a large backlog does not hold the write lock for long.
const sweepBatch = 1000

// migrations are applied in order; PRAGMA user_version counts how many a
// file has had. Append, never edit.
var migrations = []string{
	// A rowid table rather than WITHOUT ROWID: a plan's JSON (1-2 KB for a
	// typical plan) then fits in its leaf page instead of spilling into
	// overflow pages, so an update writes fewer pages to the WAL.
	`CREATE TABLE plans (
		id         INTEGER PRIMARY KEY,
		user_id    TEXT    NOT NULL,
		session_id TEXT    NOT NULL,
		version    INTEGER NOT NULL,
		expires_at INTEGER NOT NULL, -- Unix nanoseconds
		plan       TEXT    NOT NULL, -- the plan as JSON
		UNIQUE (user_id, session_id)
	);
	CREATE INDEX plans_expires_at ON plans (expires_at);`,
	// A plan's history: one row per event, keyed by the plan's version.
	// The foreign key deletes it with its plan (Sweep); Save clears it when
	// a plan starts over. WITHOUT ROWID: the rows are read in key order.
	`CREATE TABLE plan_events (
		user_id    TEXT    NOT NULL,
		session_id TEXT    NOT NULL,
		version    INTEGER NOT NULL,
		event      TEXT    NOT NULL, -- the plan.Event as JSON
		PRIMARY KEY (user_id, session_id, version),
		FOREIGN KEY (user_id, session_id) REFERENCES plans (user_id, session_id) ON DELETE CASCADE
	) WITHOUT ROWID;`,
	// The plan's ID beside its version, so compare-and-swap can tell a
	// plan made after another expired (version 1 again) from the old one.
	`ALTER TABLE plans ADD COLUMN plan_id TEXT NOT NULL DEFAULT '';
	UPDATE plans SET plan_id = coalesce(json_extract(plan, '$.id'), '');`,
}

// Store is a store.Store on one SQLite file. Safe for concurrent use, and
// for several processes on one file.
type Store struct {
	opts  store.Options
	path  string
	read  *sql.DB
	write *sql.DB

	load, insert, update                       *sql.Stmt
	history, addEvent, clearEvents, trimEvents *sql.Stmt
	list, versions                             *sql.Stmt

	// decoded spares Load decoding the JSON this process last wrote.
	decoded store.PlanCache
	// group gathers the Saves made at the same time into one transaction.
	group group
}

var (
	_ store.Store       = (*Store)(nil)
	_ store.Remembering = (*Store)(nil)
)

// DefaultPath is $XDG_STATE_HOME/skillc/plans.db, or
// ~/.local/state/skillc/plans.db when XDG_STATE_HOME is unset (the XDG
// Base Directory default).
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "skillc", "plans.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the state directory for the plan store: %w (set XDG_STATE_HOME or use --store sqlite:PATH)", err)
	}
	return filepath.Join(home, ".local", "state", "skillc", "plans.db"), nil
}

// Open opens the store at path, creating the file (0600) and its folder
// (0700) on first use and migrating the schema.
func Open(ctx context.Context, path string, opts store.Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("the sqlite store needs a file path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite store: %w", err)
	}
	// Create the file ourselves so plans are private to the user; SQLite
	// gives its -wal and -shm files the same mode.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: %w", err)
	}
	f.Close()

	s := &Store{opts: opts.WithDefaults(), path: abs}
	base := "file:" + (&url.URL{Path: abs}).EscapedPath() + "?" + url.Values{
		"_pragma": {
			fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()),
			"journal_mode(WAL)",
			"synchronous(NORMAL)",
			// The history's rows go with their plan's (ON DELETE CASCADE).
			"foreign_keys(1)",
		},
		"_txlock": {"immediate"},
	}.Encode()
	if s.write, err = sql.Open("sqlite", base); err != nil {
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	s.write.SetMaxOpenConns(1)
	s.write.SetMaxIdleConns(1)
	s.write.SetConnMaxLifetime(0)
	s.write.SetConnMaxIdleTime(0)
	if err := s.migrate(ctx); err != nil {
		s.write.Close()
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	if s.read, err = sql.Open("sqlite", base+"&_pragma=query_only(1)"); err != nil {
		s.write.Close()
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	s.read.SetMaxOpenConns(8)
	s.read.SetMaxIdleConns(8)
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite store %q: %w", path, err)
	}
	return s, nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// migrate brings the schema to the latest version in one IMMEDIATE
// transaction, so two processes opening a new file at once do not both
// create the table.
func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return err
	}
	if have > len(migrations) {
		return fmt.Errorf("the database schema is version %d, newer than this skillc knows (%d): upgrade skillc", have, len(migrations))
	}
	if have == len(migrations) {
		return nil
	}
	for i := have; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
	}
	// PRAGMA takes no bound parameters; the value is our own integer.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Store) prepare(ctx context.Context) error {
	var err error
	if s.load, err = s.read.PrepareContext(ctx,
		`SELECT version, expires_at, plan FROM plans WHERE user_id = ?1 AND session_id = ?2 AND expires_at > ?3`); err != nil {
		return err
	}
	// The zero Expect: there must be no live plan; an expired row counts as none.
	if s.insert, err = s.write.PrepareContext(ctx,
		`INSERT INTO plans (user_id, session_id, version, expires_at, plan, plan_id) VALUES (?1, ?2, 1, ?3, ?4, ?6)
		 ON CONFLICT (user_id, session_id) DO UPDATE
		 SET version = 1, expires_at = excluded.expires_at, plan = excluded.plan, plan_id = excluded.plan_id
		 WHERE plans.expires_at <= ?5`); err != nil {
		return err
	}
	if s.update, err = s.write.PrepareContext(ctx,
		`UPDATE plans SET version = ?1, expires_at = ?2, plan = ?3, plan_id = ?8
		 WHERE user_id = ?4 AND session_id = ?5 AND version = ?6 AND expires_at > ?7 AND plan_id = ?9`); err != nil {
		return err
	}
	// One statement, so the plan row and its events are one snapshot: the
	// LEFT JOIN tells a plan without events (one row, NULL) from no plan
	// (no row).
	if s.history, err = s.read.PrepareContext(ctx,
		`SELECT e.event FROM plans p
		 LEFT JOIN plan_events e ON e.user_id = p.user_id AND e.session_id = p.session_id
		   AND e.version <= p.version AND e.version > p.version - ?4
		 WHERE p.user_id = ?1 AND p.session_id = ?2 AND p.expires_at > ?3
		 ORDER BY e.version`); err != nil {
		return err
	}
	// The expiry is the write time plus the TTL: the latest write expires
	// last. UNIQUE (user_id, session_id) is the index for both.
	if s.list, err = s.read.PrepareContext(ctx,
		`SELECT session_id, version, expires_at, plan FROM plans WHERE user_id = ?1 AND expires_at > ?2
		 ORDER BY expires_at DESC, session_id LIMIT ?3`); err != nil {
		return err
	}
	if s.versions, err = s.read.PrepareContext(ctx,
		`SELECT session_id, plan_id, version FROM plans WHERE user_id = ?1 AND expires_at > ?2 ORDER BY session_id`); err != nil {
		return err
	}
	if s.addEvent, err = s.write.PrepareContext(ctx,
		`INSERT INTO plan_events (user_id, session_id, version, event) VALUES (?1, ?2, ?3, ?4)`); err != nil {
		return err
	}
	if s.clearEvents, err = s.write.PrepareContext(ctx,
		`DELETE FROM plan_events WHERE user_id = ?1 AND session_id = ?2`); err != nil {
		return err
	}
	if s.trimEvents, err = s.write.PrepareContext(ctx,
		`DELETE FROM plan_events WHERE user_id = ?1 AND session_id = ?2 AND version <= ?3`); err != nil {
		return err
	}
	return nil
}

// Load implements store.Store.
func (s *Store) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	var (
		version, expires int64
		data             []byte
	)
	err := s.load.QueryRowContext(ctx, key.User, key.Session, s.opts.Now().UnixNano()).Scan(&version, &expires, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load plan: %w", err)
	}
	p, err := s.decoded.Decode(key, data)
	if err != nil {
		return nil, fmt.Errorf("load plan: the stored plan is not valid JSON: %w", err)
	}
	// The columns are the truth; the JSON copy is for people reading the file.
	p.Version = version
	p.ExpiresAt = time.Unix(0, expires).UTC()
	return p, nil
}

// LastWritten implements store.Remembering: the plan this process last
// wrote for key, unless it has expired since.
func (s *Store) LastWritten(key store.Key) (*plan.Plan, bool) {
	return s.decoded.LastWritten(key, s.opts.Now())
}

// Save implements store.Store. Saves made at the same time share one
// transaction (see commit.go); a Save alone that does not touch the
// history is a single statement.
func (s *Store) Save(ctx context.Context, key store.Key, p *plan.Plan, expect store.Expect, events ...plan.Event) error {
	now := s.opts.Now()
	c := *p
	c.Version = expect.Version + 1
	c.ExpiresAt = now.Add(s.opts.TTL).UTC()
	data, err := json.Marshal(&c)
	if err != nil {
		return fmt.Errorf("save plan: %w", err)
	}
	w := &write{ctx: ctx, key: key, plan: &c, data: data, expect: expect, now: now,
		starts: store.HistoryStarts(expect, events)}
	for _, ev := range events {
		ev.Version = c.Version
		b, err := json.Marshal(&ev)
		if err != nil {
			return fmt.Errorf("save plan: %w", err)
		}
		w.events = append(w.events, b)
	}
	if err := s.group.commit(s, w); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return err
		}
		return fmt.Errorf("save plan: %w", err)
	}
	p.Version, p.ExpiresAt = c.Version, c.ExpiresAt
	return nil
}

// exec runs w's INSERT or UPDATE of its plan row, then its history, on tx
// (nil: w alone, with no history to write), and says store.ErrConflict if
// the live plan is not the one w expects.
func (s *Store) exec(ctx context.Context, tx *sql.Tx, w *write) error {
	stmt := func(st *sql.Stmt) *sql.Stmt { return st }
	if tx != nil {
		stmt = func(st *sql.Stmt) *sql.Stmt { return tx.StmtContext(ctx, st) }
	}
	c := w.plan
	var (
		res sql.Result
		err error
	)
	if w.expect.None() {
		res, err = stmt(s.insert).ExecContext(ctx, w.key.User, w.key.Session, c.ExpiresAt.UnixNano(), w.data, w.now.UnixNano(), c.ID)
	} else {
		res, err = stmt(s.update).ExecContext(ctx, c.Version, c.ExpiresAt.UnixNano(), w.data, w.key.User, w.key.Session, w.expect.Version, w.now.UnixNano(), c.ID, w.expect.ID)
	}
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrConflict
	}
	if tx == nil {
		return nil
	}
	return s.writeEvents(ctx, tx, w.key, c.Version, w.starts, w.events)
}

// writeEvents clears the history of a plan that starts, appends events at
// version, and drops what fell past plan.MaxEvents (in batches:
// store.HistoryTrim).
func (s *Store) writeEvents(ctx context.Context, tx *sql.Tx, key store.Key, version int64, starts bool, events [][]byte) error {
	if starts {
		if _, err := tx.StmtContext(ctx, s.clearEvents).ExecContext(ctx, key.User, key.Session); err != nil {
			return err
		}
	}
	for _, ev := range events {
		if _, err := tx.StmtContext(ctx, s.addEvent).ExecContext(ctx, key.User, key.Session, version, ev); err != nil {
			return err
		}
	}
	if upTo, trim := store.HistoryTrim(version); trim && !starts {
		if _, err := tx.StmtContext(ctx, s.trimEvents).ExecContext(ctx, key.User, key.Session, upTo); err != nil {
			return err
		}
	}
	return nil
}

// History implements store.Store.
func (s *Store) History(ctx context.Context, key store.Key) ([]plan.Event, error) {
	rows, err := s.history.QueryContext(ctx, key.User, key.Session, s.opts.Now().UnixNano(), plan.MaxEvents)
	if err != nil {
		return nil, fmt.Errorf("load history: %w", err)
	}
	defer rows.Close()
	found := false
	out := []plan.Event{}
	for rows.Next() {
		found = true
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("load history: %w", err)
		}
		if data == nil {
			continue // the plan has no events
		}
		var ev plan.Event
		if err := json.Unmarshal(data, &ev); err != nil {
			return nil, fmt.Errorf("load history: a stored event is not valid JSON: %w", err)
		}
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load history: %w", err)
	}
	if !found {
		return nil, store.ErrNotFound
	}
	return out, nil
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, user string, limit int) ([]store.Listed, error) {
	rows, err := s.list.QueryContext(ctx, user, s.opts.Now().UnixNano(), store.ListLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("list plans: %w", err)
	}
	defer rows.Close()
	out := []store.Listed{}
	for rows.Next() {
		var (
			session          string
			version, expires int64
			data             []byte
		)
		if err := rows.Scan(&session, &version, &expires, &data); err != nil {
			return nil, fmt.Errorf("list plans: %w", err)
		}
		p := new(plan.Plan)
		if err := json.Unmarshal(data, p); err != nil {
			return nil, fmt.Errorf("list plans: the stored plan of conversation %q is not valid JSON: %w", session, err)
		}
		p.Version = version
		p.ExpiresAt = time.Unix(0, expires).UTC()
		out = append(out, store.Listed{Session: session, Plan: p})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list plans: %w", err)
	}
	return out, nil
}

// Watch implements store.Store by polling, every Options.Poll, the
// versions of the user's live plans: the writer may be another process
// on the same file, which nothing in SQLite tells this one about.
func (s *Store) Watch(ctx context.Context, user string) (<-chan struct{}, error) {
	last, err := s.versionsOf(ctx, user)
	if err != nil {
		return nil, err
	}
	ch := make(chan struct{}, 1)
	go func() {
		defer close(ch)
		t := time.NewTicker(s.opts.Poll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			now, err := s.versionsOf(ctx, user)
			if err != nil {
				// Closed store or ended context: the next tick or
				// ctx.Done says which; a passing error is retried.
				continue
			}
			if now != last {
				last = now
				select {
				case ch <- struct{}{}:
				default: // one is pending already
				}
			}
		}
	}()
	return ch, nil
}

// versionsOf is a digest of the user's live plans: conversation, plan and
// version of each, which every write changes.
func (s *Store) versionsOf(ctx context.Context, user string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	rows, err := s.versions.QueryContext(ctx, user, s.opts.Now().UnixNano())
	if err != nil {
		return sum, fmt.Errorf("watch plans: %w", err)
	}
	defer rows.Close()
	h := sha256.New()
	for rows.Next() {
		var (
			session, id string
			version     int64
		)
		if err := rows.Scan(&session, &id, &version); err != nil {
			return sum, fmt.Errorf("watch plans: %w", err)
		}
		// Lengths first, so no two lists digest alike by accident.
		fmt.Fprintf(h, "%d:%s%d:%s%d;", len(session), session, len(id), id, version)
	}
	if err := rows.Err(); err != nil {
		return sum, fmt.Errorf("watch plans: %w", err)
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// Sweep implements store.Store. It deletes in batches so a long backlog
// never holds the write lock for one long statement.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	now := s.opts.Now().UnixNano()
	total := 0
	for {
		res, err := s.write.ExecContext(ctx,
			`DELETE FROM plans WHERE id IN (SELECT id FROM plans WHERE expires_at <= ? LIMIT ?)`, now, sweepBatch)
		if err != nil {
			return total, fmt.Errorf("sweep: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, fmt.Errorf("sweep: %w", err)
		}
		total += int(n)
		if n < sweepBatch {
			return total, nil
		}
	}
}

// Close implements store.Store.
func (s *Store) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.load, s.insert, s.update, s.history, s.addEvent, s.clearEvents, s.trimEvents, s.list, s.versions} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	if s.read != nil {
		errs = append(errs, s.read.Close())
	}
	if s.write != nil {
		errs = append(errs, s.write.Close())
	}
	return errors.Join(errs...)
}
