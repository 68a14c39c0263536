package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/skills"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/tools"
)

var _ = golden.Update

// fixedNow keeps timestamps, and so goldens, stable.
var fixedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// env is one store shared by any number of servers, as replicas share one.
type env struct {
	t       *testing.T
	store   store.Store
	catalog *server.Catalog
	ids     int
	mu      sync.Mutex
}

func newEnv(t *testing.T, st store.Store, skillDirs ...string) *env {
	t.Helper()
	if st == nil {
		st = memory.New(store.Options{Now: func() time.Time { return fixedNow }})
	}
	cat, err := server.LoadCatalog(skillDirs, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, store: st, catalog: cat}
}

func (e *env) planner() *tools.Planner {
	return &tools.Planner{
		Store: e.store,
		Now:   func() time.Time { return fixedNow },
		NewID: func() string {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.ids++
			return fmt.Sprintf("plan-%d", e.ids)
		},
	}
}

// server builds a server acting for user in session, as stdio does.
func (e *env) server(user, session string) *server.Server {
	e.t.Helper()
	s, err := server.New(server.Options{Planner: e.planner(), Catalog: e.catalog, User: user, Session: session, Version: "test"})
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// connect opens a client session to s over the SDK's in-memory transports.
func connect(t testing.TB, s *server.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func (e *env) client(user, session string) *mcp.ClientSession {
	return connect(e.t, e.server(user, session))
}

// call calls a tool; a protocol error fails the test, a tool error does not.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// ok calls a tool that must succeed and returns its structured plan.
func ok(t testing.TB, cs *mcp.ClientSession, tool string, args any) (server.PlanOutput, string) {
	t.Helper()
	res := call(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s(%v): unexpected tool error: %s", tool, args, text(res))
	}
	// The server does not validate its outputs at run time: every output
	// a test sees must match the output schema the tool advertises.
	if err := outputSchema(t, cs, tool).Validate(res.StructuredContent); err != nil {
		t.Errorf("%s: the structured content does not match the output schema: %v", tool, err)
	}
	var out server.PlanOutput
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: structured content is not a plan: %v\n%s", tool, err, raw)
	}
	return out, text(res)
}

// outputSchemas holds, per client session, each tool's resolved output
// schema as the server lists it.
var outputSchemas sync.Map // *mcp.ClientSession -> map[string]*jsonschema.Resolved

func outputSchema(t testing.TB, cs *mcp.ClientSession, tool string) *jsonschema.Resolved {
	t.Helper()
	if m, ok := outputSchemas.Load(cs); ok {
		return m.(map[string]*jsonschema.Resolved)[tool]
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]*jsonschema.Resolved{}
	for _, tl := range res.Tools {
		raw, err := json.Marshal(tl.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var sc jsonschema.Schema
		if err := json.Unmarshal(raw, &sc); err != nil {
			t.Fatal(err)
		}
		if m[tl.Name], err = sc.Resolve(nil); err != nil {
			t.Fatalf("%s: output schema: %v", tl.Name, err)
		}
	}
	outputSchemas.Store(cs, m)
	return m[tool]
}

// fails calls a tool that must return a tool error and returns its message.
func fails(t testing.TB, cs *mcp.ClientSession, tool string, args any) string {
	t.Helper()
	res := call(t, cs, tool, args)
	if !res.IsError {
		t.Fatalf("%s(%v): want a tool error, got:\n%s", tool, args, text(res))
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: a tool error carries structured content: %v", tool, res.StructuredContent)
	}
	return text(res)
}

func statuses(p server.PlanOutput) string {
	var b strings.Builder
	for i, s := range p.Steps {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", s.ID, s.Status)
	}
	return b.String()
}

// TestACATFlow walks the shipped ACAT skill as an agent would: seed from
// the skill, record outcomes in batches, close, view. The transcript of
// what the model reads is a golden file.
func TestACATFlow(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	var transcript strings.Builder
	step := func(tool string, args any, wantStatus, wantSteps string) {
		t.Helper()
		p, txt := ok(t, cs, tool, args)
		argJSON, _ := json.Marshal(args)
		fmt.Fprintf(&transcript, "> %s %s\n%s\n\n", tool, argJSON, txt)
		if p.Status != wantStatus {
			t.Errorf("%s: status %q, want %q", tool, p.Status, wantStatus)
		}
		if got := statuses(p); got != wantSteps {
			t.Errorf("%s: steps %s, want %s", tool, got, wantSteps)
		}
		if p.Skill != "acat-reimbursement" {
			t.Errorf("%s: skill %q, want acat-reimbursement", tool, p.Skill)
		}
	}
	step("make_plan", map[string]any{"skill": "acat-reimbursement"}, "active",
		"1=in_progress 2=pending 3=pending 4=pending")
	step("update_plan", map[string]any{"fail": []string{"1"}}, "active",
		"1=failed 2=in_progress 3=pending 4=pending")
	step("update_plan", map[string]any{"check": []string{"2"}}, "active",
		"1=failed 2=done 3=in_progress 4=pending")
	step("close_plan", map[string]any{"note": "One transfer, credited on 3 May.", "check": []string{"3"}}, "completed",
		"1=failed 2=done 3=done 4=pending")
	step("view_plan", map[string]any{}, "completed",
		"1=failed 2=done 3=done 4=pending")
	golden.Check(t, "testdata/acat-flow.golden", []byte(transcript.String()))

	p, _ := ok(t, cs, "view_plan", nil)
	if p.Note != "One transfer, credited on 3 May." || p.Version != 4 {
		t.Errorf("closed plan: note %q version %d, want the note and version 4", p.Note, p.Version)
	}
}

// TestOffPosition: over MCP, an update off the position is kept, says so
// and names the position, and the guidance keeps the tools' names; close_plan
// derives its status from the walk, not from the step that was checked.
func TestOffPosition(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	p, txt := ok(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement", "objective": "Reimburse ticket 4711."})
	if p.Objective != "Reimburse ticket 4711." || !strings.Contains(txt, "\nobjective: Reimburse ticket 4711.\n") {
		t.Errorf("make_plan objective %q:\n%s", p.Objective, txt)
	}
	if msg := fails(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement", "objective": strings.Repeat("o", 501)}); !strings.Contains(msg, "the objective is 501 characters") {
		t.Errorf("objective too long: %s", msg)
	}
	p, txt = ok(t, cs, "update_plan", map[string]any{"check": []string{"4"}})
	if strings.Contains(txt, "reached") || !strings.HasPrefix(txt, "step 4 was off the position and is kept as recorded; the position is 1 (Already credited in this thread?)\n") {
		t.Errorf("update_plan off the position:\n%s", txt)
	}
	if got := statuses(p); got != "1=in_progress 2=pending 3=pending 4=done" {
		t.Errorf("steps %s", got)
	}
	_, txt = ok(t, cs, "update_plan", map[string]any{"uncheck": []string{"1"}})
	if !strings.Contains(txt, "check, fail or skip a step with update_plan, or close the plan with close_plan") {
		t.Errorf("guidance names the tools:\n%s", txt)
	}
	p, _ = ok(t, cs, "close_plan", map[string]any{"note": "stopped"})
	if p.Status != "cancelled" {
		t.Errorf("close_plan after an off-walk check: status %s, want cancelled", p.Status)
	}
	if msg := fails(t, cs, "update_plan", map[string]any{"check": []string{"1"}}); !strings.Contains(msg, "call make_plan to start a new one") {
		t.Errorf("refusal: %s", msg)
	}
}

// TestViewHistory: view_plan carries the history in its structured result
// only when asked, and the text stays the checklist either way.
func TestViewHistory(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	ok(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	ok(t, cs, "update_plan", map[string]any{"fail": []string{"1"}})
	ok(t, cs, "update_plan", map[string]any{"check": []string{"2"}})
	ok(t, cs, "update_plan", map[string]any{"check": []string{"4"}})
	ok(t, cs, "close_plan", map[string]any{"note": "One record.", "check": []string{"3"}})
	plain, plainText := ok(t, cs, "view_plan", map[string]any{})
	if plain.History != nil {
		t.Errorf("view_plan without history carries %d events", len(plain.History))
	}
	p, txt := ok(t, cs, "view_plan", map[string]any{"history": true})
	if txt != plainText {
		t.Errorf("the text changed with history:\n%s\nwant\n%s", txt, plainText)
	}
	var got []string
	for _, ev := range p.History {
		got = append(got, fmt.Sprintf("%d %s %s [%s] off=%s", ev.Version, ev.Tool, ev.Status, strings.Join(ev.Position, ","), strings.Join(ev.OffPosition, ",")))
	}
	want := []string{
		"1 make_plan active [1] off=",
		"2 update_plan active [2] off=",
		"3 update_plan active [3] off=",
		"4 update_plan active [3] off=4",
		"5 close_plan completed [] off=",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.History[4].Note != "One record." || len(p.History[4].Check) != 1 || p.History[4].Steps[2].Status != plan.StepDone {
		t.Errorf("close event: %+v", p.History[4])
	}
	if msg := fails(t, e.client("bob", "chat-1"), "view_plan", map[string]any{"history": true}); !strings.Contains(msg, "there is no plan in this session") {
		t.Errorf("another user's history: %s", msg)
	}
}

// TestMakeFromSteps covers a plan the model writes itself, with defaults,
// and a second make_plan superseding the first.
func TestMakeFromSteps(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	first, _ := ok(t, cs, "make_plan", map[string]any{
		"title": "Refund a duplicate charge",
		"steps": []map[string]any{
			{"goal": "Find both charges.", "recommended_tools": []string{"list_charges"}, "next_on_failure": "4"},
			{"goal": "Refund the later one.", "recommended_tools": []string{"refund_charge"}},
			{"goal": "Tell the user the refund is on its way.", "next_on_success": "end"},
			{"goal": "Ask the user for the charge dates.", "recommended_tools": []string{"ask_user"}},
		},
	})
	want := []struct{ succ, fail string }{{"2", "4"}, {"3", "fail"}, {"end", "fail"}, {"end", "fail"}}
	for i, w := range want {
		s := first.Steps[i]
		if s.ID != fmt.Sprint(i+1) || s.NextOnSuccess != w.succ || s.NextOnFailure != w.fail {
			t.Errorf("step %d: id %q edges %s/%s, want %d %s/%s", i, s.ID, s.NextOnSuccess, s.NextOnFailure, i+1, w.succ, w.fail)
		}
	}
	second, txt := ok(t, cs, "make_plan", map[string]any{"skill": "acat-reimbursement", "title": "Where is my ACAT?"})
	if second.Superseded == nil || second.Superseded.ID != first.ID {
		t.Fatalf("second make_plan: superseded %+v, want plan %q", second.Superseded, first.ID)
	}
	if !strings.Contains(txt, "superseded") || !strings.Contains(txt, "Refund a duplicate charge") {
		t.Errorf("second make_plan text does not say what it superseded:\n%s", txt)
	}
	if second.Title != "Where is my ACAT?" {
		t.Errorf("title %q, want the one given", second.Title)
	}
}

// TestRetryLoop is FORMAT 6.5's walk through the MCP tools, with a skill
// from a --skills folder: step 4 goes back to step 2 on failure at most 3
// times. Each of three failures starts a round at step 2, which every
// result shows; the fourth takes fail, and close_plan derives failed.
func TestRetryLoop(t *testing.T) {
	dir := t.TempDir()
	src := "---\nname: deploy\ndescription: Deploy a release and check it. Use when a release is tagged.\n---\n# Deploy a release\n\n" +
		"1. Build the release.\n2. Deploy it.\n3. Run the smoke tests.\n4. Check the health endpoint.\n   - wait: the on-call engineer's go-ahead\n   - on failure: 2 (at most 3 times)\n5. Announce it.\n"
	if err := os.MkdirAll(filepath.Join(dir, "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "deploy", "SKILL.md"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, nil, dir)
	cs := e.client("alice", "release-7")
	p, _ := ok(t, cs, "make_plan", map[string]any{"skill": "deploy"})
	if s := p.Steps[3]; s.FailureBound != 3 || s.NextOnFailure != "2" || s.WaitFor != "the on-call engineer's go-ahead" {
		t.Fatalf("step 4: %+v", s.Step)
	}
	_, txt := ok(t, cs, "update_plan", map[string]any{"check": []string{"1", "2", "3"}})
	if !strings.Contains(txt, "waits for: the on-call engineer's go-ahead") {
		t.Errorf("step 4 in progress, the result does not say what it waits for:\n%s", txt)
	}
	for round := 1; round <= 3; round++ {
		p, txt := ok(t, cs, "update_plan", map[string]any{"fail": []string{"4"}})
		if got, want := statuses(p), "1=done 2=in_progress 3=pending 4=pending 5=pending"; got != want || p.Rounds["4:failure"] != round {
			t.Fatalf("failure %d of step 4: %s, rounds %v; want %s", round, got, p.Rounds, want)
		}
		if want := fmt.Sprintf("[>] 2  Deploy it.  (round %d of 3)", round); !strings.Contains(txt, want) {
			t.Fatalf("failure %d of step 4: the result lacks %q:\n%s", round, want, txt)
		}
		if _, txt := ok(t, cs, "view_plan", nil); !strings.Contains(txt, fmt.Sprintf("(round %d of 3)", round)) {
			t.Fatalf("view_plan does not show round %d:\n%s", round, txt)
		}
		ok(t, cs, "update_plan", map[string]any{"check": []string{"2", "3"}})
	}
	p, txt = ok(t, cs, "update_plan", map[string]any{"fail": []string{"4"}})
	if got := statuses(p); got != "1=done 2=done 3=done 4=failed 5=pending" || !strings.Contains(txt, "the path reached fail") {
		t.Fatalf("the fourth failure: %s\n%s", got, txt)
	}
	if p, _ := ok(t, cs, "close_plan", map[string]any{"note": "unhealthy after three redeploys"}); p.Status != "failed" {
		t.Fatalf("close: status %s, want failed", p.Status)
	}
}

// TestToolErrors: every refusal is a tool result with isError and a
// message that says what to do, nothing changes, and the server goes on.
func TestToolErrors(t *testing.T) {
	tooMany := make([]map[string]any, graph.DefaultLimits().MaxSteps+1)
	for i := range tooMany {
		tooMany[i] = map[string]any{"goal": fmt.Sprintf("Step %d.", i+1)}
	}
	manyTools := make([]string, graph.DefaultLimits().MaxTools+1)
	for i := range manyTools {
		manyTools[i] = fmt.Sprintf("tool_%d", i)
	}
	simple := map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A."}, {"goal": "B."}}}
	tests := []struct {
		name   string
		setup  []string // "make" makes the simple plan, "close" closes it
		tool   string
		args   any
		want   []string // substrings of the message
		noPlan bool     // after the call, the session still has no plan
	}{
		{"view without plan", nil, "view_plan", nil, []string{"no plan", "make_plan"}, true},
		{"update without plan", nil, "update_plan", map[string]any{"check": []string{"1"}}, []string{"no plan", "make_plan"}, true},
		{"close without plan", nil, "close_plan", map[string]any{"note": "n"}, []string{"no plan", "make_plan"}, true},
		{"make with nothing", nil, "make_plan", map[string]any{"title": "T"}, []string{"steps", "skill"}, true},
		{"make with both", nil, "make_plan", map[string]any{"skill": "acat-reimbursement", "steps": []map[string]any{{"goal": "A."}}}, []string{"not both"}, true},
		{"unknown skill", nil, "make_plan", map[string]any{"skill": "acat-reimbursment"}, []string{`"acat-reimbursment"`, "acat-reimbursement"}, true},
		{"unknown target", nil, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A.", "next_on_success": "9"}, {"goal": "B."}}}, []string{`"9"`}, true},
		{"duplicate id", nil, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"id": "a", "goal": "A."}, {"id": "a", "goal": "B."}}}, []string{`"a"`}, true},
		{"reserved id", nil, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"id": "end", "goal": "A."}}}, []string{`"end"`}, true},
		{"cycle", nil, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A."}, {"goal": "B.", "next_on_success": "1"}}}, []string{`step "2": next_on_success goes back to step "1", a loop with no bound: set success_bound`}, true},
		{"too many steps", nil, "make_plan", map[string]any{"title": "T", "steps": tooMany}, []string{"100"}, true},
		{"title too long", nil, "make_plan", map[string]any{"title": strings.Repeat("t", graph.DefaultLimits().MaxTitleLen+1), "steps": []map[string]any{{"goal": "A."}}}, []string{"200"}, true},
		{"goal too long", nil, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": strings.Repeat("g", graph.DefaultLimits().MaxGoalLen+1)}}}, []string{"500"}, true},
		{"too many tools", nil, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A.", "recommended_tools": manyTools}}}, []string{"16"}, true},
		{"unknown step", []string{"make"}, "update_plan", map[string]any{"check": []string{"7"}}, []string{`"7"`, `"1", "2"`}, false},
		{"id twice", []string{"make"}, "update_plan", map[string]any{"check": []string{"1"}, "fail": []string{"1"}}, []string{`"1"`}, false},
		{"nothing to update", []string{"make"}, "update_plan", map[string]any{}, []string{"check"}, false},
		{"closed plan", []string{"make", "close"}, "update_plan", map[string]any{"check": []string{"2"}}, []string{"already cancelled", "make_plan"}, false},
		{"close closed plan", []string{"make", "close"}, "close_plan", map[string]any{"note": "again"}, []string{"already cancelled"}, false},
		{"close without note", []string{"make"}, "close_plan", map[string]any{"check": []string{"1"}}, []string{"note"}, false},
		{"note too long", []string{"make"}, "close_plan", map[string]any{"note": strings.Repeat("n", plan.MaxNoteLen+1)}, []string{"2000"}, false},
		{"bad status", []string{"make"}, "close_plan", map[string]any{"note": "n", "status": "done"}, []string{"status"}, false},
		{"unknown argument", []string{"make"}, "update_plan", map[string]any{"check": []string{"1"}, "user": "bob"}, []string{"user"}, false},
		{"wrong type", []string{"make"}, "update_plan", map[string]any{"check": "1"}, []string{"check"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			cs := e.client("alice", "chat-1")
			for _, s := range tc.setup {
				switch s {
				case "make":
					ok(t, cs, "make_plan", simple)
				case "close":
					ok(t, cs, "close_plan", map[string]any{"note": "done", "status": "cancelled"})
				}
			}
			var before server.PlanOutput
			if !tc.noPlan {
				before, _ = ok(t, cs, "view_plan", nil)
			}
			msg := fails(t, cs, tc.tool, tc.args)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message does not contain %q:\n%s", w, msg)
				}
			}
			// Nothing changed, and the server still answers.
			if tc.noPlan {
				fails(t, cs, "view_plan", nil)
			} else if after, _ := ok(t, cs, "view_plan", nil); after.Version != before.Version || statuses(after) != statuses(before) {
				t.Errorf("a refused call changed the plan: version %d -> %d, %s -> %s", before.Version, after.Version, statuses(before), statuses(after))
			}
		})
	}
}

// TestUsersIsolated: two users in conversations with the same ID never see
// each other's plan.
func TestUsersIsolated(t *testing.T) {
	e := newEnv(t, nil)
	alice := e.client("alice", "same-session")
	bob := e.client("bob", "same-session")
	ap, _ := ok(t, alice, "make_plan", map[string]any{"skill": "acat-reimbursement"})
	msg := fails(t, bob, "view_plan", nil)
	if !strings.Contains(msg, "no plan") {
		t.Errorf("bob sees something of alice's session: %s", msg)
	}
	fails(t, bob, "update_plan", map[string]any{"check": []string{"1"}})
	ok(t, bob, "make_plan", map[string]any{"title": "Bob's", "steps": []map[string]any{{"goal": "B."}}})
	ok(t, bob, "close_plan", map[string]any{"note": "bob is done", "check": []string{"1"}})
	after, _ := ok(t, alice, "view_plan", nil)
	if after.ID != ap.ID || after.Status != "active" || after.Version != ap.Version || after.Superseded != nil {
		t.Errorf("alice's plan changed under bob's calls: %+v", after)
	}
}

// TestParallelUpdates: 20 update_plan calls racing on one plan all land,
// on the memory store and on a real SQLite file.
func TestParallelUpdates(t *testing.T) {
	t.Run("memory", func(t *testing.T) { testParallelUpdates(t, nil) })
	t.Run("sqlite", func(t *testing.T) {
		st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "plans.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		testParallelUpdates(t, st)
	})
}

func testParallelUpdates(t *testing.T, st store.Store) {
	e := newEnv(t, st)
	const n = 20
	steps := make([]map[string]any, n)
	for i := range steps {
		steps[i] = map[string]any{"goal": fmt.Sprintf("Step %d.", i+1)}
	}
	setup := e.client("alice", "chat-1")
	ok(t, setup, "make_plan", map[string]any{"title": "Twenty", "steps": steps})

	// Each call on its own connection, as replicas or parallel tool calls
	// would make them; all share the store.
	clients := make([]*mcp.ClientSession, n)
	for i := range clients {
		clients[i] = e.client("alice", "chat-1")
	}
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Go(func() {
			res, err := clients[i].CallTool(context.Background(), &mcp.CallToolParams{
				Name: "update_plan", Arguments: map[string]any{"check": []string{fmt.Sprint(i + 1)}}})
			if err != nil {
				errs <- err.Error()
			} else if res.IsError {
				errs <- text(res)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	p, _ := ok(t, setup, "view_plan", nil)
	for _, s := range p.Steps {
		if s.Status != "done" {
			t.Errorf("step %s is %s: an update was lost", s.ID, s.Status)
		}
	}
	if p.Version != n+1 {
		t.Errorf("version %d, want %d (one make and %d updates)", p.Version, n+1, n)
	}
}

// TestInstructions: the server's instructions are the plan skill's body.
func TestInstructions(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	got := cs.InitializeResult().Instructions
	src, _, err := skills.Read(skills.PlanSkill)
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)[strings.Index(string(src)[3:], "\n---\n")+3+5:]
	if got != strings.TrimSpace(body) {
		t.Errorf("instructions are not the plan skill's body:\n%s", got)
	}
	if strings.HasPrefix(got, "---") || !strings.HasPrefix(got, "# ") {
		t.Errorf("instructions should start at the skill's title, without frontmatter:\n%.80s", got)
	}
}

// TestToolSchemas: every input field has a description, every tool an
// output schema; the whole tools/list is a golden file to review.
func TestToolSchemas(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
		if len(tool.Description) < 80 {
			t.Errorf("%s: description too thin to guide a model: %q", tool.Name, tool.Description)
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var sc map[string]any
		json.Unmarshal(raw, &sc)
		checkDescriptions(t, tool.Name, sc)
	}
	if got := strings.Join(names, ","); got != "close_plan,make_plan,update_plan,view_plan" {
		t.Errorf("tools %s", got)
	}
	js, _ := json.MarshalIndent(res.Tools, "", "  ")
	golden.Check(t, "testdata/tools.golden.json", append(js, '\n'))
}

func checkDescriptions(t *testing.T, where string, sc map[string]any) {
	t.Helper()
	props, _ := sc["properties"].(map[string]any)
	for name, p := range props {
		pm := p.(map[string]any)
		if d, _ := pm["description"].(string); d == "" {
			t.Errorf("%s.%s: no description", where, name)
		}
		if items, ok := pm["items"].(map[string]any); ok {
			checkDescriptions(t, where+"."+name+"[]", items)
		}
	}
}

// TestResources: workflow skills are listed and readable, shipped ones and
// those under --skills, and make_plan seeds from the latter too.
func TestResources(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, dir, "team/refund", `---
name: refund
description: Refund a duplicate charge. Use when a user was charged twice.
---
# Refund

1. Find both charges.
   - tools: list_charges
2. Refund the later one.
   - tools: refund_charge
`)
	writeSkill(t, dir, "broken", `---
name: broken
description: Has a step pointing nowhere.
---
# Broken

1. Start.
   - on success: 7
`)
	e := newEnv(t, nil, dir)
	cs := e.client("alice", "chat-1")
	ctx := context.Background()
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	want := "plan://current skill://acat-reimbursement skill://acat-reimbursement/template.json skill://broken skill://refund skill://refund/template.json"
	if got := strings.Join(uris, " "); got != want {
		t.Errorf("resources:\n got %s\nwant %s", got, want)
	}

	src, _, _ := skills.Read("acat-reimbursement")
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://acat-reimbursement"})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Contents[0].Text != string(src) || rr.Contents[0].MIMEType != "text/markdown" {
		t.Errorf("skill://acat-reimbursement is not the SKILL.md")
	}
	rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://acat-reimbursement/template.json"})
	if err != nil {
		t.Fatal(err)
	}
	sk, diags := compiler.Compile("skills/acat-reimbursement/SKILL.md", src, compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got graph.Template
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &got); err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(sk.Template())
	gotJSON, _ := json.Marshal(got)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("template resource:\n got %s\nwant %s", gotJSON, wantJSON)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://nope"}); err == nil {
		t.Error("reading an unknown skill succeeded")
	}

	p, _ := ok(t, cs, "make_plan", map[string]any{"skill": "refund"})
	if p.Skill != "refund" || len(p.Steps) != 2 || p.Steps[1].RecommendedTools[0] != "refund_charge" {
		t.Errorf("plan from a --skills skill: %+v", p)
	}
	msg := fails(t, cs, "make_plan", map[string]any{"skill": "broken"})
	if !strings.Contains(msg, "does not compile") || !strings.Contains(msg, filepath.Join(dir, "broken", "SKILL.md")+":") || !strings.Contains(msg, "unknown-target") {
		t.Errorf("make_plan from a broken skill should cite file:line:col and the rule:\n%s", msg)
	}
}

func TestCatalogErrors(t *testing.T) {
	dir := t.TempDir()
	body := "---\nname: twin\ndescription: d\n---\n# T\n\n1. A.\n"
	writeSkill(t, dir, "a/twin", body)
	writeSkill(t, dir, "b/twin", body)
	if _, err := server.LoadCatalog([]string{dir}, lint.Options{}); err == nil || !strings.Contains(err.Error(), `two skills named "twin"`) {
		t.Errorf("duplicate names: %v", err)
	}
	if _, err := server.LoadCatalog([]string{filepath.Join(dir, "missing")}, lint.Options{}); err == nil {
		t.Error("a missing skills folder was accepted")
	}
	// A folder skill overrides the shipped one of the same name.
	over := t.TempDir()
	writeSkill(t, over, "acat-reimbursement", "---\nname: acat-reimbursement\ndescription: ours\n---\n# Ours\n\n1. Only step.\n")
	cat, err := server.LoadCatalog([]string{over}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sk, _ := cat.Lookup("acat-reimbursement"); sk.Skill.Description != "ours" || len(sk.Template().Steps) != 1 {
		t.Errorf("override not used: %+v", sk)
	}
}

func writeSkill(t *testing.T, dir, sub, body string) {
	t.Helper()
	p := filepath.Join(dir, sub, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// panicStore panics on Load for one user: a stand-in for a bug anywhere
// under a handler. Every other call goes to the real store.
type panicStore struct {
	store.Store
}

func (p panicStore) Load(ctx context.Context, key store.Key) (*plan.Plan, error) {
	if key.User == "boom" {
		panic("store exploded")
	}
	return p.Store.Load(ctx, key)
}

// TestPanicRecovered: a panic in a handler is a tool error, and the same
// server goes on serving.
func TestPanicRecovered(t *testing.T) {
	e := newEnv(t, panicStore{memory.New(store.Options{})})
	boom := e.client("boom", "chat-1")
	msg := fails(t, boom, "view_plan", nil)
	if !strings.Contains(msg, "internal error") {
		t.Errorf("panic message: %s", msg)
	}
	fails(t, boom, "update_plan", map[string]any{"check": []string{"1"}})
	fine := e.client("alice", "chat-1")
	ok(t, fine, "make_plan", map[string]any{"skill": "acat-reimbursement"})
}

func TestNoIdentity(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("", "")
	msg := fails(t, cs, "view_plan", nil)
	if !strings.Contains(msg, "--user") {
		t.Errorf("message: %s", msg)
	}
}
