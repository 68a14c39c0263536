package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/postgres"
	"github.com/skillc/skillc/store/postgres/pgtest"
	"github.com/skillc/skillc/store/storetest"
)

// The same suite as every other backend, unchanged; each subtest gets a
// fresh schema of its own.
func TestConformance(t *testing.T) {
	dsn := pgtest.DSN(t)
	storetest.Run(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) store.Store {
		s, err := postgres.Open(context.Background(), dsn, postgres.Options{
			Schema: pgtest.SchemaName(t, dsn), Now: clock, TTL: ttl,
		})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestShared: two stores on one schema stand for two servers.
func TestShared(t *testing.T) {
	dsn := pgtest.DSN(t)
	storetest.RunShared(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) (store.Store, store.Store) {
		schema := pgtest.SchemaName(t, dsn)
		var two [2]store.Store
		for i := range two {
			s, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema, Now: clock, TTL: ttl})
			if err != nil {
				t.Fatal(err)
			}
			two[i] = s
		}
		return two[0], two[1]
	})
}
