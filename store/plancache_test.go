package store

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
)

func TestPlanCache(t *testing.T) {
	key := Key{User: "u", Session: "s"}
	written := &plan.Plan{ID: "p1", Title: "Written", Version: 3, Steps: []plan.Step{{Step: graph.Step{ID: "1", Goal: "A.", RecommendedTools: []string{"a"}}}}}
	data, err := json.Marshal(written)
	if err != nil {
		t.Fatal(err)
	}
	var c PlanCache

	// What was written comes back for the same bytes: mark the cached plan
	// so the test can tell a copy of it from a fresh decode.
	marked := written.Clone()
	marked.Title = "from the cache"
	c.Wrote(key, data, marked)
	marked.Steps[0].RecommendedTools[0] = "changed after Wrote"
	got, err := c.Decode(key, data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "from the cache" || got.Steps[0].RecommendedTools[0] != "a" {
		t.Fatalf("same bytes: got %q with tools %q, want the copy Wrote took", got.Title, got.Steps[0].RecommendedTools)
	}
	// Each Decode hands out a copy of its own.
	got.Steps[0].RecommendedTools[0] = "changed by a caller"
	if again, _ := c.Decode(key, data); again.Steps[0].RecommendedTools[0] != "a" {
		t.Fatalf("a caller's change reached the cache: %q", again.Steps[0].RecommendedTools)
	}

	// Other bytes under the key are decoded, and then cached in turn.
	other := written.Clone()
	other.Title = "Written elsewhere"
	otherData, _ := json.Marshal(other)
	if got, err := c.Decode(key, otherData); err != nil || got.Title != "Written elsewhere" {
		t.Fatalf("other bytes: got %v, %v; want them decoded", got, err)
	}
	if got, _ := c.Decode(key, data); got.Title != "Written" {
		t.Fatalf("the first bytes again: got %q, want them decoded (the cache moved on)", got.Title)
	}
	if _, err := c.Decode(Key{User: "u", Session: "bad"}, []byte(`{"id":`)); err == nil {
		t.Fatal("invalid JSON decoded without an error")
	}

	// The cache holds at most maxCachedBytes of JSON, and counts them right.
	fit := maxCachedBytes / len(data)
	for i := range fit + 10 {
		c.Wrote(Key{User: "u", Session: fmt.Sprint(i)}, data, written)
	}
	total := 0
	for _, e := range c.plans {
		total += len(e.data)
	}
	if len(c.plans) != fit || c.bytes != total || total > maxCachedBytes {
		t.Fatalf("%d plans of %d bytes cached, counted as %d bytes; want %d plans, at most %d bytes", len(c.plans), total, c.bytes, fit, maxCachedBytes)
	}
	// A plan too large for the cache is decoded every time, and leaves the
	// others be.
	c.Wrote(key, data, written)
	huge := make([]byte, maxCachedBytes+1)
	c.Wrote(key, huge, written)
	if _, ok := c.plans[key]; ok || len(c.plans) != fit-1 {
		t.Fatalf("a plan over the bound was cached (%v), or evicted others (%d plans left, want %d)", ok, len(c.plans), fit-1)
	}
}
