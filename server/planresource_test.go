package server_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/sqlite"
)

// readCurrent reads plan://current over the client and returns its text.
func readCurrent(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: server.CurrentPlanURI})
	if err != nil {
		t.Fatalf("read %s: %v", server.CurrentPlanURI, err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].URI != server.CurrentPlanURI || rr.Contents[0].MIMEType != "text/plain" {
		t.Fatalf("read %s: contents %+v", server.CurrentPlanURI, rr.Contents)
	}
	return rr.Contents[0].Text
}

// TestCurrentPlanResource: plan://current is listed, and over streamable
// HTTP with bearer tokens on a real SQLite file it is the caller's own
// checklist: what view_plan returns, for the token's user and the
// conversation header's conversation, never another user's in the same
// conversation, and a plain text when there is no plan.
func TestCurrentPlanResource(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "plans.db"), store.Options{Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := newEnv(t, st)
	ts := newHTTP(t, e, server.HTTPOptions{Tokens: testTokens(t)}, "")
	alice := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "conv-7"})
	bob := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + bobToken, server.ConversationHeader: "conv-7"})

	res, err := alice.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed *mcp.Resource
	for _, r := range res.Resources {
		if r.URI == server.CurrentPlanURI {
			listed = r
		}
	}
	if listed == nil || listed.MIMEType != "text/plain" || !strings.Contains(listed.Description, "compaction") {
		t.Fatalf("%s is not listed as a text resource about compaction: %+v", server.CurrentPlanURI, listed)
	}

	if got := readCurrent(t, alice); !strings.HasPrefix(got, "There is no plan in this conversation yet") {
		t.Errorf("no plan yet: %q", got)
	}
	ok(t, alice, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	_, checklist := ok(t, alice, "update_plan", map[string]any{"fail": []string{"1"}})
	got := readCurrent(t, alice)
	if got != checklist || !strings.Contains(got, "[!] 1") || !strings.Contains(got, "[>] 2") {
		t.Errorf("plan://current after update_plan:\n%s\nwant update_plan's checklist:\n%s", got, checklist)
	}
	if _, view := ok(t, alice, "view_plan", nil); view != got {
		t.Errorf("plan://current differs from view_plan:\n%s\n%s", got, view)
	}
	// Bob's token in alice's conversation: his own (no) plan.
	if got := readCurrent(t, bob); strings.Contains(got, "ACAT") {
		t.Errorf("bob reads alice's plan: %q", got)
	}
	// A new connection of alice's, as after a restart of the host, reads
	// the plan back.
	again := httpClient(t, ts.URL, map[string]string{"Authorization": "Bearer " + aliceToken, server.ConversationHeader: "conv-7"})
	if got := readCurrent(t, again); got != checklist {
		t.Errorf("plan://current on a new connection:\n%s", got)
	}
	ok(t, alice, "close_plan", map[string]any{"note": "asked the user", "status": "cancelled"})
	if got := readCurrent(t, alice); !strings.Contains(got, "cancelled") || !strings.Contains(got, "note: asked the user") {
		t.Errorf("plan://current after close_plan: %q", got)
	}
}

// TestCurrentPlanResourceStdio: over stdio's fixed identity, and without
// one a clear error rather than someone's plan.
func TestCurrentPlanResourceStdio(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	ok(t, cs, "make_plan", map[string]any{"title": "Refund", "steps": []map[string]any{{"goal": "Find both charges."}}})
	if got := readCurrent(t, cs); !strings.HasPrefix(got, "Refund · active · 0/1 done\n[>] 1  Find both charges.") {
		t.Errorf("plan://current: %q", got)
	}
	nobody := e.client("", "chat-1")
	_, err := nobody.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: server.CurrentPlanURI})
	if err == nil || !strings.Contains(err.Error(), "does not know who you are") {
		t.Errorf("plan://current without a user: %v", err)
	}
}
