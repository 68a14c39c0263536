package postgres

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/jackc/pgx/v5"
)

// tables are the store's sanitized, schema-qualified table names.
type tables struct {
	schema     string // sanitized schema name, "" for the search_path
	plans      string
	events     string
	migrations string
}

func newTables(schema string) tables {
	qualify := func(name string) string {
		if schema == "" {
			return pgx.Identifier{name}.Sanitize()
		}
		return pgx.Identifier{schema, name}.Sanitize()
	}
	t := tables{plans: qualify("plans"), events: qualify("plan_events"), migrations: qualify("schema_migrations")}
	if schema != "" {
		t.schema = pgx.Identifier{schema}.Sanitize()
	}
	return t
}

// migrations, in order: migration i brings the schema to version i+1.
// Never edit one that has shipped; append a new one. Each runs in the
// transaction that holds the migration lock, so a failure leaves the
// schema at the previous version.
var migrations = []struct {
	name string
	sql  func(t tables) string
}{
	{"create plans", func(t tables) string {
		// plan is json, not jsonb: jsonb refuses \u0000, which a goal
		// written by a model may contain, and nothing queries inside it.
		// expires_at is indexed for reads that skip expired rows and for
		// the sweeper.
		return fmt.Sprintf(`
CREATE TABLE %[1]s (
	user_id    text        NOT NULL,
	session_id text        NOT NULL,
	version    bigint      NOT NULL CHECK (version > 0),
	plan       json        NOT NULL,
	updated_at timestamptz NOT NULL,
	expires_at timestamptz NOT NULL,
	PRIMARY KEY (user_id, session_id)
);
CREATE INDEX plans_expires_at_idx ON %[1]s (expires_at);
`, t.plans)
	}},
	{"create plan_events", func(t tables) string {
		// A plan's history, one row per event keyed by the version it
		// wrote. The foreign key deletes it with its plan (the sweeper);
		// Save clears it when a plan starts over. json, as for plans.
		return fmt.Sprintf(`
CREATE TABLE %[1]s (
	user_id    text   NOT NULL,
	session_id text   NOT NULL,
	version    bigint NOT NULL,
	event      json   NOT NULL,
	PRIMARY KEY (user_id, session_id, version),
	FOREIGN KEY (user_id, session_id) REFERENCES %[2]s (user_id, session_id) ON DELETE CASCADE
);
`, t.events, t.plans)
	}},
	{"plans.plan_id", func(t tables) string {
		// The plan's ID beside its version, so compare-and-swap can tell
		// a plan made after another expired (version 1 again) from the
		// old one.
		return fmt.Sprintf(`
ALTER TABLE %[1]s ADD COLUMN plan_id text NOT NULL DEFAULT '';
UPDATE %[1]s SET plan_id = coalesce(plan->>'id', '');
`, t.plans)
	}},
}

// SchemaVersion is the schema version this build migrates to.
var SchemaVersion = len(migrations)

// lockKey is the advisory lock that serializes migrations of one schema
// across every process sharing the database.
func lockKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("skillc/store/postgres migrate " + schema))
	return int64(h.Sum64())
}

// migrate creates the schema or brings it up to SchemaVersion. Several
// servers may start at once: pg_advisory_xact_lock makes them take turns,
// and each one after the first finds the work done. When the schema is
// already current it needs no CREATE privilege, so a server can run as a
// role that only reads and writes rows.
func (s *Store) migrate(ctx context.Context) error {
	t := s.q.tables
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(s.opts.Schema)); err != nil {
			return fmt.Errorf("take the migration lock: %w", err)
		}
		if s.opts.Schema != "" {
			var exists bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, s.opts.Schema).Scan(&exists); err != nil {
				return fmt.Errorf("look up schema %q: %w", s.opts.Schema, err)
			}
			if !exists {
				if _, err := tx.Exec(ctx, `CREATE SCHEMA `+t.schema); err != nil {
					return fmt.Errorf("create schema %q: %w", s.opts.Schema, err)
				}
			}
		} else {
			// Unqualified names go to the first schema of search_path
			// that exists; say so plainly when there is none.
			var cur *string
			if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&cur); err != nil {
				return fmt.Errorf("look up the current schema: %w", err)
			}
			if cur == nil {
				var path string
				if err := tx.QueryRow(ctx, `SHOW search_path`).Scan(&path); err != nil {
					return fmt.Errorf("look up search_path: %w", err)
				}
				return fmt.Errorf("no schema in search_path %q exists: create it (CREATE SCHEMA name) or set search_path in the DSN to one that does", path)
			}
		}
		var found *string
		if err := tx.QueryRow(ctx, `SELECT to_regclass($1)::text`, t.migrations).Scan(&found); err != nil {
			return fmt.Errorf("look up the migrations table: %w", err)
		}
		if found == nil {
			if _, err := tx.Exec(ctx, fmt.Sprintf(`
CREATE TABLE %s (
	version    integer     PRIMARY KEY,
	name       text        NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`, t.migrations)); err != nil {
				return fmt.Errorf("create the migrations table: %w", err)
			}
		}
		var current int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM `+t.migrations).Scan(&current); err != nil {
			return fmt.Errorf("read the schema version: %w", err)
		}
		if current > len(migrations) {
			return fmt.Errorf("the database schema is at version %d, newer than this skillc knows (%d): upgrade skillc", current, len(migrations))
		}
		for v := current + 1; v <= len(migrations); v++ {
			m := migrations[v-1]
			if _, err := tx.Exec(ctx, m.sql(t)); err != nil {
				return fmt.Errorf("migration %d (%s): %w", v, m.name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO `+t.migrations+` (version, name) VALUES ($1, $2)`, v, m.name); err != nil {
				return fmt.Errorf("record migration %d: %w", v, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: migrate schema: %w", err)
	}
	return nil
}

// channelName is the notification channel of a schema, a valid
// identifier whatever the schema's name.
func channelName(schema string) string {
	h := fnv.New64a()
	h.Write([]byte("skillc/store/postgres plans " + schema))
	return fmt.Sprintf("skillc_plans_%016x", h.Sum64())
}

// queries are the statements, built once per Store for its tables.
type queries struct {
	tables
	load, insert, update, sweep                string
	history, addEvent, clearEvents, trimEvents string
	list                                       string
	// channel is the LISTEN/NOTIFY channel of this schema's writes:
	// notifications are database-wide, and stores on other schemas must
	// not wake this one's watchers.
	channel         string
	updateWithEvent string
}

func newQueries(schema string) queries {
	t := newTables(schema)
	return queries{
		tables:  t,
		channel: channelName(schema),
		// The expiry is the write time plus the TTL: the latest write
		// expires last. The primary key (user_id, session_id) finds the
		// user's rows.
		list: `SELECT session_id, version, plan FROM ` + t.plans + `
WHERE user_id = $1 AND expires_at > $2 ORDER BY expires_at DESC, session_id LIMIT $3`,
		// One statement, one snapshot of the plan and its events; the LEFT
		// JOIN tells a plan without events (one row, NULL) from no plan.
		history: `SELECT e.event FROM ` + t.plans + ` p
LEFT JOIN ` + t.events + ` e ON e.user_id = p.user_id AND e.session_id = p.session_id
	AND e.version <= p.version AND e.version > p.version - $4
WHERE p.user_id = $1 AND p.session_id = $2 AND p.expires_at > $3
ORDER BY e.version`,
		addEvent:    `INSERT INTO ` + t.events + ` (user_id, session_id, version, event) VALUES ($1, $2, $3, $4)`,
		clearEvents: `DELETE FROM ` + t.events + ` WHERE user_id = $1 AND session_id = $2`,
		trimEvents:  `DELETE FROM ` + t.events + ` WHERE user_id = $1 AND session_id = $2 AND version <= $3`,
		// $3 is the injected clock's now: an expired row is invisible
		// whether or not a sweep has removed it.
		load: `SELECT version, plan FROM ` + t.plans + `
WHERE user_id = $1 AND session_id = $2 AND expires_at > $3`,
		// Version 0 means "no live plan": insert, or replace a row that
		// has expired. A live row makes the WHERE false, so nothing is
		// written and no row is reported: a conflict. ON CONFLICT also
		// settles two servers inserting at once: one wins, the other
		// re-checks the WHERE against the winner's row.
		insert: `INSERT INTO ` + t.plans + ` AS p (user_id, session_id, version, plan, updated_at, expires_at, plan_id)
VALUES ($1, $2, 1, $3, $4, $5, $6)
ON CONFLICT (user_id, session_id) DO UPDATE
SET version = 1, plan = EXCLUDED.plan, updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at, plan_id = EXCLUDED.plan_id
WHERE p.expires_at <= EXCLUDED.updated_at`,
		// Compare-and-swap: under READ COMMITTED a racing writer waits for
		// the row lock and then re-checks version against the new row, so
		// exactly one of two writers with the same expect succeeds. The
		// plan ID keeps a writer holding an expired plan off the plan made
		// after it, whose version starts again at 1.
		update: `UPDATE ` + t.plans + `
SET version = $3 + 1, plan = $4, updated_at = $5, expires_at = $6, plan_id = $7
WHERE user_id = $1 AND session_id = $2 AND version = $3 AND expires_at > $5 AND plan_id = $8`,
		// update, addEvent and the watchers' notification in one
		// statement, atomic without a transaction: the common write
		// (update_plan, close_plan) in one round trip instead of five
		// (BEGIN, UPDATE, INSERT, NOTIFY, COMMIT). The event is inserted,
		// and the notification sent on commit, only if the compare-and-swap
		// updated the row, so no row returned is a conflict, as for update.
		updateWithEvent: `WITH u AS (
	UPDATE ` + t.plans + `
	SET version = $3 + 1, plan = $4, updated_at = $5, expires_at = $6, plan_id = $7
	WHERE user_id = $1 AND session_id = $2 AND version = $3 AND expires_at > $5 AND plan_id = $8
	RETURNING version
), e AS (
	INSERT INTO ` + t.events + ` (user_id, session_id, version, event) SELECT $1, $2, version, $9::json FROM u
	RETURNING version
)
SELECT pg_notify($10, $11) FROM e`,
		// One bounded batch, oldest first, from the cursor $3 (the newest
		// expires_at the previous batch deleted). ctid = ANY(ARRAY(...))
		// plans as a TID scan; ORDER BY walks the expires_at index, and
		// the cursor starts the walk past the entries earlier batches left
		// dead, so a backlog of n rows costs O(n), not O(n^2/batch) as a
		// scan from the start (or a sequential scan) each time would.
		// SKIP LOCKED lets sweepers on several servers, and writers, pass
		// each other; the outer expires_at re-check spares a row that a
		// writer renewed after the inner select saw it.
		sweep: `WITH gone AS (
	DELETE FROM ` + t.plans + `
	WHERE ctid = ANY(ARRAY(
		SELECT ctid FROM ` + t.plans + ` WHERE expires_at >= $3 AND expires_at <= $1
		ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
	)) AND expires_at <= $1
	RETURNING expires_at
) SELECT count(*), max(expires_at) FROM gone`,
	}
}
