package memory_test

import (
	"testing"
	"time"

	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/storetest"
)

var _ = golden.Update

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock func() time.Time, ttl time.Duration) store.Store {
		return memory.New(store.Options{TTL: ttl, Now: clock})
	})
}
