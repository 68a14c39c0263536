package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/store/storetest"
)

var _ = golden.Update

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) store.Store {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "plans.db"), store.Options{TTL: ttl, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
