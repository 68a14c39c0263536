// Package pgtest gives a test a PostgreSQL database of its own: the server
// named by SKILLC_TEST_POSTGRES and a fresh schema that is dropped when the
// test ends, so runs and parallel tests never see each other's rows.
//
// Without SKILLC_TEST_POSTGRES the test is skipped, unless CI is set: in CI
// these tests must run, so there a missing server fails the test.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvDSN names the environment variable holding the test server's DSN,
// e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable.
const EnvDSN = "SKILLC_TEST_POSTGRES"

// DSN returns the test server's DSN, or skips (fails under CI) without one.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set; under CI the PostgreSQL tests must run", EnvDSN)
		}
		t.Skipf("%s is not set (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)", EnvDSN)
	}
	return dsn
}

// SchemaName returns a fresh schema name that does not exist yet and is
// dropped, with everything in it, when the test ends.
func SchemaName(t testing.TB, dsn string) string {
	t.Helper()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	name := "skillc_test_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := Exec(ctx, dsn, `DROP SCHEMA IF EXISTS `+pgx.Identifier{name}.Sanitize()+` CASCADE`); err != nil {
			t.Errorf("drop test schema %q: %v", name, err)
		}
	})
	return name
}

// Schema creates a fresh schema, dropped when the test ends, and returns
// its name.
func Schema(t testing.TB, dsn string) string {
	t.Helper()
	name := SchemaName(t, dsn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := Exec(ctx, dsn, `CREATE SCHEMA `+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create test schema %q: %v", name, err)
	}
	return name
}

// WithSearchPath returns dsn with its search_path set to schema, so a
// program that takes only a DSN (skillc serve --store) uses that schema.
func WithSearchPath(t testing.TB, dsn, schema string) string {
	t.Helper()
	return WithParam(t, dsn, "search_path", schema)
}

// WithParam returns dsn with one more parameter; pgx sends parameters it
// does not know itself to the server as settings (e.g. synchronous_commit).
func WithParam(t testing.TB, dsn, key, value string) string {
	t.Helper()
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatalf("parse %s: %v", EnvDSN, err)
		}
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " " + key + "=" + value
}

// Exec runs one statement on a connection of its own.
func Exec(ctx context.Context, dsn, sql string, args ...any) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql, args...)
	return err
}
