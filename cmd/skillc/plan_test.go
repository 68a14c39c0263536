package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
)

var _ = golden.Update

func TestPlanFlags(t *testing.T) {
	type got struct {
		cmd                  string
		store, user, session string
		ttl                  time.Duration
		json                 bool
		skill, title, steps  string
		dirs                 []string
		changes              plan.Changes
		note, status         string
	}
	tests := []struct {
		name string
		env  map[string]string
		args string
		want got
		err  string // a part of the usage error, exit 2
	}{
		{name: "make from a skill", args: "make --skill acat-reimbursement --skills a --skills b --session s --user u",
			want: got{cmd: "make", user: "u", session: "s", ttl: 24 * time.Hour, skill: "acat-reimbursement", dirs: []string{"a", "b"}}},
		{name: "make from steps with env identity", env: map[string]string{"SKILLC_USER": "eve", "SKILLC_SESSION": "conv-1"},
			args: "make --steps s.json --title T --store memory --ttl 2h --json",
			want: got{cmd: "make", store: "memory", user: "eve", session: "conv-1", ttl: 2 * time.Hour, json: true, title: "T", steps: "s.json"}},
		{name: "flags win over env", env: map[string]string{"SKILLC_USER": "eve", "SKILLC_SESSION": "conv-1"},
			args: "view --user u --session s --store sqlite:/tmp/x.db",
			want: got{cmd: "view", store: "sqlite:/tmp/x.db", user: "u", session: "s", ttl: 24 * time.Hour}},
		{name: "update lists", args: "update --session s --user u --check 1,2 --check 3 --fail 4 --skip a,b --uncheck c",
			want: got{cmd: "update", user: "u", session: "s", ttl: 24 * time.Hour,
				changes: plan.Changes{Check: []string{"1", "2", "3"}, Fail: []string{"4"}, Skip: []string{"a", "b"}, Uncheck: []string{"c"}}}},
		{name: "close", args: "close --session s --user u --note done --status failed --fail 2",
			want: got{cmd: "close", user: "u", session: "s", ttl: 24 * time.Hour, note: "done", status: "failed",
				changes: plan.Changes{Fail: []string{"2"}}}},
		{name: "no session", args: "view --user u", err: "no session: pass --session or set SKILLC_SESSION"},
		{name: "make needs a source", args: "make --session s --user u", err: "give either --skill NAME|FILE or --steps FILE.json"},
		{name: "make takes one source", args: "make --session s --user u --skill x --steps y", err: "give either"},
		{name: "update needs steps", args: "update --session s --user u", err: "name steps with --check"},
		{name: "close needs a note", args: "close --session s --user u --check 1", err: "--note is required"},
		{name: "close status", args: "close --session s --user u --note n --status done", err: `--status "done": use completed, failed or cancelled`},
		{name: "bad ttl", args: "view --session s --user u --ttl -1h", err: "--ttl must be positive"},
		{name: "no arguments", args: "view extra --session s --user u", err: `unknown command "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SKILLC_USER", tt.env["SKILLC_USER"])
			t.Setenv("SKILLC_SESSION", tt.env["SKILLC_SESSION"])
			var g got
			common := func(o *PlanOptions, cmd string) {
				g.cmd, g.store, g.user, g.session, g.ttl, g.json = cmd, o.Store, o.User, o.Session, o.TTL, o.JSON
			}
			io := &IOStreams{In: strings.NewReader(""), Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)}
			cmd := NewCmdPlan(io, &PlanRunFuncs{
				Make: func(o *PlanMakeOptions) error {
					common(o.PlanOptions, "make")
					g.skill, g.title, g.steps, g.dirs = o.Skill, o.Title, o.StepsFile, o.SkillDirs
					return nil
				},
				View:   func(o *PlanViewOptions) error { common(o.PlanOptions, "view"); return nil },
				Update: func(o *PlanUpdateOptions) error { common(o.PlanOptions, "update"); g.changes = o.Changes; return nil },
				Close: func(o *PlanCloseOptions) error {
					common(o.PlanOptions, "close")
					g.note, g.status, g.changes = o.Note, o.Status, o.Changes
					return nil
				},
			})
			cmd.SetArgs(strings.Fields(tt.args))
			cmd.SetOut(io.Out)
			cmd.SetErr(io.ErrOut)
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			err := cmd.Execute()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				var ee *exitError
				if errors.As(err, &ee) && ee.code != exitUsage {
					t.Errorf("exit code %d, want %d", ee.code, exitUsage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, tt.want) {
				t.Errorf("parsed\n got %+v\nwant %+v", g, tt.want)
			}
		})
	}
}

// planCLI runs skillc commands in process against one SQLite file and
// records a transcript: each command line, its output and exit code.
type planCLI struct {
	t      *testing.T
	store  string
	script strings.Builder
	// hideOut leaves stdout out of the transcript (JSON with times and
	// random IDs, checked in code instead).
	hideOut bool
}

func newPlanCLI(t *testing.T) *planCLI {
	t.Setenv("SKILLC_USER", "")
	t.Setenv("SKILLC_SESSION", "")
	return &planCLI{t: t, store: "sqlite:" + filepath.Join(t.TempDir(), "state", "plans.db")}
}

func (c *planCLI) run(stdin string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	var out, errOut bytes.Buffer
	io := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}
	full := append([]string{"plan"}, args...)
	if !strings.Contains(strings.Join(args, " "), "--store") {
		full = append(full, "--store", c.store)
	}
	code = run(full, io)
	shown := out.String()
	if c.hideOut {
		shown = "(stdout checked in the test)\n"
	}
	fmt.Fprintf(&c.script, "$ skillc plan %s\n%s", strings.Join(args, " "), shown)
	if errOut.Len() > 0 {
		fmt.Fprintf(&c.script, "[stderr]\n%s", errOut.String())
	}
	fmt.Fprintf(&c.script, "[exit %d]\n\n", code)
	return out.String(), errOut.String(), code
}

func (c *planCLI) must(args ...string) string {
	c.t.Helper()
	out, errOut, code := c.run("", args...)
	if code != 0 {
		c.t.Fatalf("skillc plan %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out
}

func (c *planCLI) refused(wantCode int, wantErr string, args ...string) {
	c.t.Helper()
	out, errOut, code := c.run("", args...)
	if code != wantCode || !strings.Contains(errOut, wantErr) || out != "" {
		c.t.Fatalf("skillc plan %s: exit %d, stdout %q, stderr %q; want exit %d with %q",
			strings.Join(args, " "), code, out, errOut, wantCode, wantErr)
	}
}

// TestPlanACATFlow is the ACAT flow of FORMAT.md end to end on a real
// SQLite file: make from the shipped skill, fail 1, check 2, close with 3,
// then view shows it completed.
func TestPlanACATFlow(t *testing.T) {
	c := newPlanCLI(t)
	s := []string{"--user", "ana", "--session", "ticket-1"}
	c.must(append([]string{"make", "--skill", "acat-reimbursement"}, s...)...)
	c.must(append([]string{"update", "--fail", "1"}, s...)...)
	c.must(append([]string{"update", "--check", "2"}, s...)...)
	c.must(append([]string{"close", "--check", "3", "--note", "one record: credited on 3 May"}, s...)...)
	out := c.must(append([]string{"view"}, s...)...)
	if !strings.HasPrefix(out, "ACAT reimbursement · completed · 2/4 done\n") {
		t.Fatalf("view after close:\n%s", out)
	}
	// A closed plan takes no more changes, and the refusal changes nothing.
	c.refused(1, `is already completed and takes no more changes`, append([]string{"update", "--check", "4"}, s...)...)
	c.hideOut = true
	js := c.must(append([]string{"view", "--json"}, s...)...)
	c.hideOut = false
	var p plan.Plan
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != plan.StatusCompleted || p.Version != 4 || p.Skill != "acat-reimbursement" || p.Note != "one record: credited on 3 May" {
		t.Fatalf("plan JSON: status %s version %d skill %q note %q", p.Status, p.Version, p.Skill, p.Note)
	}
	// Another user in the same session sees no plan.
	c.refused(1, "there is no plan in this session: run skillc plan make", "view", "--user", "bob", "--session", "ticket-1")
	golden.Check(t, filepath.Join("..", "..", "testdata", "plan", "cli-acat.txt"), []byte(c.script.String()))
}

// TestPlanOffPosition is issue 13's case: checking step 4 while step 1 is
// in progress is kept, said to be off the position, and never answered
// with "the path reached end"; closing then derives cancelled, not
// completed. The guidance names the CLI's commands.
func TestPlanOffPosition(t *testing.T) {
	c := newPlanCLI(t)
	s := []string{"--user", "ana", "--session", "ticket-2"}
	c.must(append([]string{"make", "--skill", "acat-reimbursement"}, s...)...)
	out := c.must(append([]string{"update", "--check", "4"}, s...)...)
	if strings.Contains(out, "reached") || !strings.HasPrefix(out, "step 4 was off the position and is kept as recorded; the position is 1 (") {
		t.Fatalf("off-position update:\n%s", out)
	}
	out = c.must(append([]string{"update", "--uncheck", "1"}, s...)...)
	if !strings.Contains(out, "--check, --fail or --skip a step with skillc plan update, or close the plan with skillc plan close") {
		t.Fatalf("guidance without a position:\n%s", out)
	}
	out = c.must(append([]string{"close", "--note", "stopped"}, s...)...)
	if !strings.HasPrefix(out, "ACAT reimbursement · cancelled") {
		t.Fatalf("close off the walk:\n%s", out)
	}
	golden.Check(t, filepath.Join("..", "..", "testdata", "plan", "cli-off-position.txt"), []byte(c.script.String()))
}

// TestPlanObjective: --objective is shown under the title, kept in the
// plan's JSON, read from a --steps object, and refused past 500 characters.
func TestPlanObjective(t *testing.T) {
	c := newPlanCLI(t)
	s := []string{"--user", "ana", "--session", "ticket-3"}
	out := c.must(append([]string{"make", "--skill", "acat-reimbursement", "--objective", "Reimburse the ACAT fee of ticket 4711."}, s...)...)
	if !strings.HasPrefix(out, "ACAT reimbursement · active · 0/4 done\nobjective: Reimburse the ACAT fee of ticket 4711.\n[>] 1") {
		t.Fatalf("make --objective:\n%s", out)
	}
	var p plan.Plan
	if err := json.Unmarshal([]byte(c.must(append([]string{"view", "--json"}, s...)...)), &p); err != nil || p.Objective != "Reimburse the ACAT fee of ticket 4711." {
		t.Fatalf("objective in the JSON: %q, %v", p.Objective, err)
	}
	stdin := `{"title": "Refund", "objective": "From the file.", "steps": [{"goal": "Refund it."}]}`
	if out, errOut, code := c.run(stdin, append([]string{"make", "--steps", "-"}, s...)...); code != 0 || !strings.Contains(out, "\nobjective: From the file.\n") {
		t.Fatalf("objective from --steps: exit %d\n%s%s", code, out, errOut)
	}
	c.refused(1, "the objective is 501 characters; at most 500 are allowed", append([]string{"make", "--skill", "acat-reimbursement", "--objective", strings.Repeat("o", 501)}, s...)...)
}

// TestPlanHistory: make, three updates and close leave five events, which
// `plan history` prints one line each and --json as the events.
func TestPlanHistory(t *testing.T) {
	c := newPlanCLI(t)
	s := []string{"--user", "ana", "--session", "ticket-4"}
	c.must(append([]string{"make", "--skill", "acat-reimbursement"}, s...)...)
	c.must(append([]string{"update", "--fail", "1"}, s...)...)
	c.must(append([]string{"update", "--check", "4"}, s...)...)
	c.must(append([]string{"update", "--check", "2"}, s...)...)
	c.must(append([]string{"close", "--check", "3", "--note", "one record"}, s...)...)
	c.script.Reset()
	c.must(append([]string{"history"}, s...)...)
	c.refused(1, "there is no plan in this session: run skillc plan make", "history", "--user", "bob", "--session", "ticket-4")
	// The times are the wall clock's.
	stamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	golden.Check(t, filepath.Join("..", "..", "testdata", "plan", "cli-history.txt"), stamp.ReplaceAll([]byte(c.script.String()), []byte("TIME")))

	var events []plan.Event
	if err := json.Unmarshal([]byte(c.must(append([]string{"history", "--json"}, s...)...)), &events); err != nil {
		t.Fatal(err)
	}
	if len(events) != 5 || events[0].Tool != plan.ToolMake || events[4].Tool != plan.ToolClose || events[4].Status != plan.StatusCompleted ||
		strings.Join(events[2].OffPosition, ",") != "4" || strings.Join(events[3].Position, ",") != "3" {
		t.Fatalf("history --json: %+v", events)
	}
}

func TestPlanStepsAndErrors(t *testing.T) {
	c := newPlanCLI(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s := []string{"--user", "ana", "--session", "s1"}
	with := func(args ...string) []string { return append(args, s...) }

	// Errors before any plan exists.
	c.refused(1, "there is no plan in this session", with("view")...)
	c.refused(1, "there is no plan in this session", with("update", "--check", "1")...)
	c.refused(2, "no session: pass --session or set SKILLC_SESSION", "view", "--user", "ana")
	c.refused(2, "no such file or directory", with("make", "--title", "t", "--steps", filepath.Join(dir, "missing.json"))...)
	c.refused(2, "bad.json:3:", with("make", "--steps", write("bad.json", "{\n  \"title\": \"t\",\n  \"steps\": [}\n"))...)
	c.refused(2, `unknown field "next_on_sucess"`, with("make", "--title", "t", "--steps",
		write("typo.json", `[{"goal": "a", "next_on_sucess": "end"}]`))...)
	c.refused(1, `step "2": next_on_failure goes back to step "1", a loop with no bound: set failure_bound on step "2"`, with("make", "--title", "loop", "--steps",
		write("loop.json", `[{"goal": "a"}, {"goal": "b", "next_on_failure": "1"}]`))...)
	c.refused(1, `next_on_success "9" names no step; valid targets: "1", "2", end, fail`, with("make", "--title", "t", "--steps",
		write("unknown.json", `[{"goal": "a", "next_on_success": "9"}, {"goal": "b"}]`))...)
	c.refused(1, "the plan needs a title", with("make", "--steps", write("untitled.json", `[{"goal": "a"}]`))...)
	c.refused(2, `no skill named "no-such-skill"`, with("make", "--skill", "no-such-skill")...)
	c.refused(2, "unknown store \"mysql://x\"", "view", "--user", "ana", "--session", "s1", "--store", "mysql://x")
	c.refused(1, "there is no plan in this session", with("view")...) // nothing was stored by the refusals

	// The plan skill's own example, as an object with a title, from stdin.
	example := `{"title": "Refund a duplicate charge", "steps": [
	  {"goal": "Find both charges.", "recommended_tools": ["list_charges"], "next_on_failure": "4"},
	  {"goal": "Refund the later one.", "recommended_tools": ["refund_charge"]},
	  {"goal": "Tell the user the refund is on its way.", "next_on_success": "end"},
	  {"goal": "Ask the user for the charge dates.", "recommended_tools": ["ask_user"]}]}`
	out, errOut, code := c.run(example, with("make", "--steps", "-")...)
	if code != 0 || !strings.HasPrefix(out, "Refund a duplicate charge · active · 0/4 done\n") {
		t.Fatalf("make from stdin: exit %d\n%s%s", code, out, errOut)
	}
	c.refused(1, `fail names "5", which is not a step of this plan; valid IDs: "1", "2", "3", "4"`, with("update", "--check", "1", "--fail", "5")...)
	c.refused(1, `step "1" is named in both --check and --skip`, with("update", "--check", "1", "--skip", "1")...)
	if out := c.must(with("view")...); !strings.Contains(out, "[>] 1") {
		t.Fatalf("a refused update changed the plan:\n%s", out)
	}
	c.must(with("update", "--check", "1,2")...)

	// A new plan supersedes the active one and says so.
	out, errOut, code = c.run("", with("make", "--title", "Second", "--steps", write("two.json", `[{"goal": "a"}, {"goal": "b"}]`))...)
	if code != 0 || !strings.HasPrefix(out, `the active plan "Refund a duplicate charge" was closed as cancelled (superseded) by this one`+"\n") {
		t.Fatalf("make over an active plan: exit %d\n%s%s", code, out, errOut)
	}
	c.refused(2, "--note is required", with("close")...)
	c.must(with("close", "--note", "not needed", "--status", "cancelled")...)
	golden.Check(t, filepath.Join("..", "..", "testdata", "plan", "cli-errors.txt"),
		[]byte(strings.ReplaceAll(c.script.String(), dir, "DIR")))
}

func TestPlanMakeFromSkillFiles(t *testing.T) {
	c := newPlanCLI(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s := []string{"--user", "ana", "--session", "s1"}
	with := func(args ...string) []string { return append(args, s...) }

	broken := write("broken.md", "# Broken\n\n1. Look it up.\n   - on failure: 7\n2. Answer.\n")
	out, errOut, code := c.run("", with("make", "--skill", broken)...)
	if code != 1 || out != "" || !strings.Contains(errOut, "broken.md:4:") || !strings.Contains(errOut, "[unknown-target]") ||
		!strings.Contains(errOut, `skill "broken" has 1 error(s)`) {
		t.Fatalf("make from a broken skill: exit %d\n%s%s", code, out, errOut)
	}
	// A loop whose bound leads back into it can never be left: an error.
	loop := write("loop/SKILL.md", "---\nname: loop\ndescription: d\n---\n# Loop\n\n1. Try.\n   - on failure: 2\n2. Retry.\n   - on failure: 1 (at most 2 times, then 1)\n")
	c.refused(1, `skill "loop" has`, with("make", "--skill", filepath.Dir(loop))...)
	c.refused(2, `no such file "`, with("make", "--skill", filepath.Join(dir, "missing.md"))...)
	c.refused(1, "there is no plan in this session", with("view")...)

	// A folder given with --skills wins over the shipped skill of that name.
	write("team/acat-reimbursement/SKILL.md", "---\nname: acat-reimbursement\ndescription: Team version.\n---\n# Team ACAT\n\n1. Ask the desk.\n   - tools: ask_desk\n")
	out = c.must(with("make", "--skill", "acat-reimbursement", "--skills", filepath.Join(dir, "team"))...)
	if !strings.HasPrefix(out, "Team ACAT · active · 0/1 done\n") {
		t.Fatalf("--skills override:\n%s", out)
	}
	out = c.must(with("make", "--skill", write("plain.md", "# Plain write-up\n\nSteps:\n\n1. One.\n2. Two.\n"), "--title", "Renamed")...)
	if !strings.Contains(out, "Renamed · active · 0/2 done\n") || !strings.Contains(out, `the active plan "Team ACAT" was closed`) {
		t.Fatalf("make from a plain file:\n%s", out)
	}
	golden.Check(t, filepath.Join("..", "..", "testdata", "plan", "cli-skill-files.txt"),
		[]byte(strings.ReplaceAll(c.script.String(), dir, "DIR")))
}

// TestPlanMakeSweeps: the CLI has no long-lived process to sweep, so make
// clears expired plans.
func TestPlanMakeSweeps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plans.db")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := filepath.Join(t.TempDir(), "steps.json")
	if err := os.WriteFile(steps, []byte(`{"title": "t", "steps": [{"goal": "a"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	mk := func(session string) {
		t.Helper()
		io := &IOStreams{In: strings.NewReader(""), Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)}
		opts := &PlanMakeOptions{PlanOptions: &PlanOptions{IO: io, Store: "sqlite:" + path, User: "u", Session: session,
			TTL: time.Hour, Now: func() time.Time { return now }}, StepsFile: steps}
		if err := opts.resolve(); err != nil {
			t.Fatal(err)
		}
		if err := planMakeRun(opts); err != nil {
			t.Fatal(err)
		}
	}
	mk("a")
	mk("b")
	now = now.Add(2 * time.Hour)
	mk("c")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var sessions string
	if err := db.QueryRow("SELECT group_concat(session_id) FROM plans").Scan(&sessions); err != nil || sessions != "c" {
		t.Fatalf("sessions left after make: %q, %v; want only c", sessions, err)
	}
}

// TestPlanRetryLoop is FORMAT 6.5's walk through the CLI on a real SQLite
// file: step 4 of the skill goes back to step 2 on failure, at most 3
// times. Three failures of step 4 each start a round at step 2, shown in
// the checklist; the fourth takes fail, and close derives failed.
func TestPlanRetryLoop(t *testing.T) {
	c := newPlanCLI(t)
	dir := t.TempDir()
	skill := filepath.Join(dir, "deploy", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
		t.Fatal(err)
	}
	src := `---
name: deploy
description: Deploy a release and check it. Use when a release is tagged.
---
# Deploy a release

1. Build the release.
   - tools: build
2. Deploy it to production.
   - tools: deploy
3. Run the smoke tests.
   - tools: smoke_test
4. Check the health endpoint.
   - tools: http_get
   - wait: the on-call engineer's go-ahead
   - on failure: 2 (at most 3 times)
5. Announce the release.
   - tools: post_message
`
	if err := os.WriteFile(skill, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	s := []string{"--user", "ana", "--session", "release-7"}
	with := func(args ...string) []string { return append(args, s...) }
	c.must(with("make", "--skill", filepath.Dir(skill))...)
	c.must(with("update", "--check", "1", "--check", "2", "--check", "3")...)
	for round := 1; round <= 3; round++ {
		out := c.must(with("update", "--fail", "4")...)
		if want := fmt.Sprintf("[>] 2  Deploy it to production.    tools: deploy  (round %d of 3)", round); !strings.Contains(out, want) {
			t.Fatalf("failure %d of step 4 does not start round %d at step 2:\n%s", round, round, out)
		}
		c.must(with("update", "--check", "2", "--check", "3")...)
	}
	out := c.must(with("update", "--fail", "4")...)
	if !strings.Contains(out, "[!] 4") || !strings.Contains(out, "the path reached fail") {
		t.Fatalf("the fourth failure of step 4 does not take fail:\n%s", out)
	}
	c.must(with("close", "--note", "unhealthy after three redeploys")...)
	c.hideOut = true
	js := c.must(with("view", "--json")...)
	c.hideOut = false
	var p plan.Plan
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != plan.StatusFailed || p.Rounds["4:failure"] != 3 {
		t.Fatalf("plan JSON: status %s, rounds %v", p.Status, p.Rounds)
	}
	golden.Check(t, filepath.Join("..", "..", "testdata", "plan", "cli-loop.txt"),
		[]byte(strings.ReplaceAll(c.script.String(), dir, "DIR")))
}
