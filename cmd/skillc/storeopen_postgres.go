package main

import (
	"context"
	"strings"

	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/postgres"
)

// --store postgres://... and postgresql://... open the PostgreSQL store,
// shared by every server given the same DSN (see docs/postgres.md). Pool
// size, TLS and the schema (search_path) are DSN parameters.
func init() {
	registerStoreBackend(storeBackend{
		form: "postgres://...",
		match: func(spec string) bool {
			return strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://")
		},
		open: func(ctx context.Context, spec string, opts store.Options) (store.Store, error) {
			opts = opts.WithDefaults()
			return postgres.Open(ctx, spec, postgres.Options{TTL: opts.TTL, Now: opts.Now})
		},
	})
}
