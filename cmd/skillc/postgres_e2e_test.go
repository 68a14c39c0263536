package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/postgres/pgtest"
)

// These tests run two real `skillc serve --http` processes on one
// PostgreSQL database, as replicas would, and drive them with the MCP Go
// SDK client over streamable HTTP. Names carry a pgE2E prefix so they do
// not collide with other tests in package main.

const (
	pgE2ETokenAlice = "alice-token-0123456789abcdef"
	pgE2ETokenBob   = "bob-token-0123456789abcdef00"
)

// pgE2EBinary is the skillc binary the servers run: this test binary,
// which TestMain puts on $PATH as skillc (no go build).
func pgE2EBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts servers")
	}
	return skillcOnPath(t)
}

var pgE2EServing = regexp.MustCompile(`serving MCP on (http://\S+)`)

// pgE2EServe starts `skillc serve --http` on a free loopback port and
// returns its endpoint URL once it accepts connections. The server gets
// SIGTERM when the test ends and must exit cleanly.
func pgE2EServe(t *testing.T, bin, storeDSN, tokens string, extra ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--http", "127.0.0.1:0", "--tokens", tokens, "--store", storeDSN}, extra...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SKILLC_USER=") && !strings.HasPrefix(kv, "SKILLC_SESSION=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu  sync.Mutex
		log strings.Builder
	)
	found := make(chan string, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := pgE2EServing.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	exited := make(chan error, 1)
	go func() { <-drained; exited <- cmd.Wait() }()
	stderrText := func() string { mu.Lock(); defer mu.Unlock(); return log.String() }
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("server exited with %v after SIGTERM; stderr:\n%s", err, stderrText())
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Errorf("server did not stop within 30s of SIGTERM; stderr:\n%s", stderrText())
		}
	})
	select {
	case url := <-found:
		return url
	case err := <-exited:
		t.Fatalf("server exited before serving (%v); stderr:\n%s", err, stderrText())
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start within 60s; stderr:\n%s", stderrText())
	}
	return ""
}

// pgE2EHeaders adds fixed headers to every request.
type pgE2EHeaders struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h pgE2EHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// pgE2EConnect opens an MCP client session to url as the token's user, in
// one conversation (the X-Conversation-Id header).
func pgE2EConnect(t *testing.T, url, token, conversation string) *mcp.ClientSession {
	t.Helper()
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = 128
	hc := &http.Client{Transport: pgE2EHeaders{base: base, headers: map[string]string{
		"Authorization":     "Bearer " + token,
		"X-Conversation-Id": conversation,
	}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "postgres-e2e", Version: "1"}, nil).Connect(
		context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// pgE2EPlan is the part of a tool's structured result these tests check.
type pgE2EPlan struct {
	Title   string `json:"title"`
	Status  string `json:"status"`
	Note    string `json:"note"`
	Version int64  `json:"version"`
	Steps   []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"steps"`
}

func (p *pgE2EPlan) statuses() string {
	var b strings.Builder
	for i, s := range p.Steps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.ID + ":" + s.Status)
	}
	return b.String()
}

func (p *pgE2EPlan) count(status string) int {
	n := 0
	for _, s := range p.Steps {
		if s.Status == status {
			n++
		}
	}
	return n
}

func pgE2EText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// pgE2ECall calls a tool and returns its plan, or an error carrying the
// tool's message when it refused.
func pgE2ECall(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any) (*pgE2EPlan, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	if res.IsError {
		return nil, fmt.Errorf("%s refused: %s", tool, pgE2EText(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	p := new(pgE2EPlan)
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, fmt.Errorf("%s: structured result %s: %w", tool, raw, err)
	}
	return p, nil
}

func pgE2EMust(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *pgE2EPlan {
	t.Helper()
	p, err := pgE2ECall(context.Background(), cs, tool, args)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPostgresTwoServers: two replicas on one database act as one. A
// conversation alternates between them through the ACAT flow, then 200
// update_plan calls race over both, and every one of them lands.
func TestPostgresTwoServers(t *testing.T) {
	dsn := pgtest.DSN(t)
	bin := pgE2EBinary(t)
	schema := pgtest.Schema(t, dsn)
	storeDSN := pgtest.WithSearchPath(t, dsn, schema)
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("# test tokens\n"+pgE2ETokenAlice+" alice\n"+pgE2ETokenBob+" bob\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// Both start at once on an empty schema: they race to migrate it. The
	// second runs --stateless, as replicas behind a load balancer do; the
	// conversation header ties calls to both together.
	urls := make([]string, 2)
	var wg sync.WaitGroup
	wg.Go(func() { urls[0] = pgE2EServe(t, bin, storeDSN, tokens) })
	wg.Go(func() { urls[1] = pgE2EServe(t, bin, storeDSN, tokens, "--stateless") })
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if urls[0] == urls[1] {
		t.Fatalf("both servers on %s", urls[0])
	}

	t.Run("ACATFlowAlternating", func(t *testing.T) {
		a := pgE2EConnect(t, urls[0], pgE2ETokenAlice, "acat")
		b := pgE2EConnect(t, urls[1], pgE2ETokenAlice, "acat")
		steps := []struct {
			cs         *mcp.ClientSession
			tool       string
			args       map[string]any
			status     string
			version    int64
			stepStatus string
		}{
			{a, "make_plan", map[string]any{"skill": "acat-reimbursement"}, "active", 1,
				"1:in_progress 2:pending 3:pending 4:pending"},
			{b, "view_plan", nil, "active", 1,
				"1:in_progress 2:pending 3:pending 4:pending"},
			{a, "update_plan", map[string]any{"fail": []string{"1"}}, "active", 2,
				"1:failed 2:in_progress 3:pending 4:pending"},
			{b, "update_plan", map[string]any{"check": []string{"2"}}, "active", 3,
				"1:failed 2:done 3:in_progress 4:pending"},
			{a, "update_plan", map[string]any{"check": []string{"3"}}, "active", 4,
				"1:failed 2:done 3:done 4:pending"},
			{b, "close_plan", map[string]any{"note": "Transfer credited."}, "completed", 5,
				"1:failed 2:done 3:done 4:pending"},
			{a, "view_plan", nil, "completed", 5,
				"1:failed 2:done 3:done 4:pending"},
		}
		for i, s := range steps {
			p := pgE2EMust(t, s.cs, s.tool, s.args)
			if p.Status != s.status || p.Version != s.version || p.statuses() != s.stepStatus {
				t.Fatalf("call %d (%s): %s version %d [%s]; want %s version %d [%s]",
					i+1, s.tool, p.Status, p.Version, p.statuses(), s.status, s.version, s.stepStatus)
			}
		}
		// A closed plan refuses updates on either server.
		for _, cs := range []*mcp.ClientSession{a, b} {
			if _, err := pgE2ECall(context.Background(), cs, "update_plan", map[string]any{"uncheck": []string{"2"}}); err == nil {
				t.Error("update_plan on a closed plan succeeded")
			}
		}
		// Bob, in a conversation of the same name, sees no plan on either.
		for _, url := range urls {
			bob := pgE2EConnect(t, url, pgE2ETokenBob, "acat")
			if p, err := pgE2ECall(context.Background(), bob, "view_plan", nil); err == nil {
				t.Errorf("bob sees alice's plan on %s: %+v", url, p)
			}
		}
	})

	t.Run("ConcurrentUpdatesLoseNothing", func(t *testing.T) {
		// 200 update_plan calls at once: 4 conversations with a 50-step
		// plan each, every call checking a different step, sent
		// alternately to the two servers. Nothing lost means exactly: each
		// plan ends with all 50 steps done at version 51 (make + 50 writes).
		const conversations, steps = 4, 50
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		sessions := make([][2]*mcp.ClientSession, conversations)
		for c := range sessions {
			conv := "race-" + strconv.Itoa(c)
			for s := range 2 {
				sessions[c][s] = pgE2EConnect(t, urls[s], pgE2ETokenAlice, conv)
			}
			stepArgs := make([]map[string]any, steps)
			for i := range stepArgs {
				stepArgs[i] = map[string]any{"goal": fmt.Sprintf("Do part %d.", i+1)}
			}
			p := pgE2EMust(t, sessions[c][c%2], "make_plan", map[string]any{"title": conv, "steps": stepArgs})
			if p.Version != 1 || len(p.Steps) != steps {
				t.Fatalf("make_plan: version %d, %d steps", p.Version, len(p.Steps))
			}
		}
		start := make(chan struct{})
		errs := make(chan error, conversations*steps)
		var wg sync.WaitGroup
		for c := range conversations {
			for i := range steps {
				cs := sessions[c][(c+i)%2]
				wg.Go(func() {
					<-start
					if _, err := pgE2ECall(ctx, cs, "update_plan", map[string]any{"check": []string{strconv.Itoa(i + 1)}}); err != nil {
						errs <- fmt.Errorf("conversation %d, check %d: %w", c, i+1, err)
					}
				})
			}
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		for c := range conversations {
			for s := range 2 {
				p := pgE2EMust(t, sessions[c][s], "view_plan", nil)
				if p.count("done") != steps || p.Version != steps+1 {
					t.Errorf("conversation %d on server %d: %d of %d steps done, version %d; want all done at version %d",
						c, s, p.count("done"), steps, p.Version, steps+1)
				}
			}
		}
		// The database agrees: one row per conversation, each at version 51.
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var rows, atVersion int
		err = conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE version = $1) FROM `+
			pgx.Identifier{schema, "plans"}.Sanitize()+` WHERE user_id = 'alice' AND session_id LIKE 'race-%'`, steps+1).Scan(&rows, &atVersion)
		if err != nil {
			t.Fatal(err)
		}
		if rows != conversations || atVersion != conversations {
			t.Errorf("database: %d race rows, %d at version %d; want %d and %d", rows, atVersion, steps+1, conversations, conversations)
		}
	})
}

// TestPostgresStoreSpec: the store opener hands postgres:// and
// postgresql:// specs to the PostgreSQL store, and a bad one is a clear
// usage error, not a hang.
func TestPostgresStoreSpec(t *testing.T) {
	dsn := pgtest.DSN(t)
	schema := pgtest.Schema(t, dsn)
	ctx := context.Background()
	for _, spec := range []string{
		pgtest.WithSearchPath(t, dsn, schema),
		strings.Replace(pgtest.WithSearchPath(t, dsn, schema), "postgres://", "postgresql://", 1),
	} {
		st, err := openStore(ctx, spec, store.Options{})
		if err != nil {
			t.Fatalf("open %q: %v", spec, err)
		}
		st.Close()
	}
	var n int
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+pgx.Identifier{schema, "schema_migrations"}.Sanitize()).Scan(&n); err != nil || n == 0 {
		t.Errorf("the opener did not migrate schema %q: %d migrations, %v", schema, n, err)
	}
	_, err = openStore(ctx, "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=5", store.Options{})
	if err == nil || !strings.Contains(err.Error(), "postgres: connect:") {
		t.Errorf("open with nobody listening: %v", err)
	}
}

// TestPostgresPlanCLI: `skillc plan` on a postgres:// store, each command a
// fresh store connection as separate processes would be.
func TestPostgresPlanCLI(t *testing.T) {
	dsn := pgtest.DSN(t)
	spec := pgtest.WithSearchPath(t, dsn, pgtest.Schema(t, dsn))
	cli := func(stdin string, args ...string) (string, string, int) {
		var out, errOut strings.Builder
		ios := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}
		code := run(append([]string{"plan"}, append(args, "--store", spec, "--user", "alice", "--session", "cli")...), ios)
		return out.String(), errOut.String(), code
	}
	// The ACAT skill's graph, written out as steps.
	acat := `[
	  {"goal": "Already credited in this thread?", "recommended_tools": ["search_thread"], "next_on_success": "end", "next_on_failure": "2"},
	  {"goal": "List ACAT transfers.", "recommended_tools": ["list_acat_transfers"], "next_on_failure": "4"},
	  {"goal": "One or many records?", "next_on_success": "end", "next_on_failure": "4"},
	  {"goal": "Clarify with the user.", "recommended_tools": ["ask_user"]}
	]`
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{acat, []string{"make", "--title", "ACAT reimbursement", "--steps", "-"}},
		{"", []string{"update", "--fail", "1"}},
		{"", []string{"update", "--check", "2"}},
	} {
		if out, errOut, code := cli(c.stdin, c.args...); code != 0 {
			t.Fatalf("plan %s: exit %d\n%s%s", strings.Join(c.args, " "), code, out, errOut)
		}
	}
	if _, errOut, code := cli("", "update", "--check", "9"); code != 1 || !strings.Contains(errOut, "9") {
		t.Errorf("update with an unknown step: exit %d, stderr %q; want exit 1 naming the step", code, errOut)
	}
	out, errOut, code := cli("", "view", "--json")
	if code != 0 {
		t.Fatalf("plan view: exit %d: %s", code, errOut)
	}
	var p pgE2EPlan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("plan view --json: %v\n%s", err, out)
	}
	if want := "1:failed 2:done 3:in_progress 4:pending"; p.Version != 3 || p.statuses() != want {
		t.Errorf("after make, fail 1, check 2: version %d [%s]; want 3 [%s]", p.Version, p.statuses(), want)
	}
}
