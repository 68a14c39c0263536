package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillc/skillc/server"
)

// commandTimeout bounds every command of TestCatalogPolicy: a FIFO read
// without O_NONBLOCK, or /dev/zero read without a bound, must fail the
// test, not hang it or run it out of memory.
const commandTimeout = 20 * time.Second

// TestCatalogPolicy runs every case of the file policy through the five
// commands that read skills, and checks they behave alike: lint the
// skills folder, compile and graph the skill's folder, plan make --skill
// with the folder and with the name (--skills), and serve --skills.
func TestCatalogPolicy(t *testing.T) {
	shared := t.TempDir()
	outside := filepath.Join(shared, "elsewhere.md")
	writeTestFile(t, outside, skillSrc)

	type serveWant int
	const (
		refusesToStart serveWant = iota // exit 2 with why, before serving
		seeds                           // skill://s listed, make_plan(s) works
		listsNotSeeds                   // skill://s listed, make_plan(s) refused with why
		neither                         // no skill://s, make_plan(s) refused with why
	)
	tests := []struct {
		name   string
		setup  func(t *testing.T, skill string) // skill is the folder <root>/s
		config string                           // the --config every command gets
		// lint exits lintCode; compile, graph and both plan makes exit
		// oneCode; every refusal says why (lintWhy and nameWhy where that
		// command's words differ).
		lintCode, oneCode     int
		why, lintWhy, nameWhy string
		serve                 serveWant
		serveWhy              string
		serveWarns            string // on stderr, when serve starts
	}{
		{name: "regular file", setup: func(t *testing.T, s string) { writeTestFile(t, filepath.Join(s, "SKILL.md"), skillSrc) },
			lintCode: 0, oneCode: 0, serve: seeds},
		{name: "symlink inside", setup: func(t *testing.T, s string) {
			writeTestFile(t, filepath.Join(s, "docs", "workflow.md"), skillSrc)
			symlinkTest(t, filepath.Join("docs", "workflow.md"), filepath.Join(s, "SKILL.md"))
		}, lintCode: 0, oneCode: 0, serve: seeds},
		{name: "lowercase skill.md", setup: func(t *testing.T, s string) { writeTestFile(t, filepath.Join(s, "skill.md"), skillSrc) },
			lintCode: 0, oneCode: 0, serve: seeds},
		{name: "symlink outside", setup: func(t *testing.T, s string) { symlinkTest(t, outside, filepath.Join(s, "SKILL.md")) },
			lintCode: 2, oneCode: 2, why: `it is a symlink to "` + outside + `", outside the folder`, serve: refusesToStart},
		{name: "symlink to /dev/zero", setup: func(t *testing.T, s string) { symlinkTest(t, "/dev/zero", filepath.Join(s, "SKILL.md")) },
			lintCode: 2, oneCode: 2, why: `it is a symlink to "/dev/zero", outside the folder`, serve: refusesToStart},
		{name: "FIFO named SKILL.md", setup: func(t *testing.T, s string) {
			if err := os.MkdirAll(s, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := makeFIFO(filepath.Join(s, "SKILL.md")); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}, lintCode: 2, oneCode: 2, why: "it is a named pipe (FIFO); a skill is read only from a regular file", serve: refusesToStart},
		{name: "oversized file", setup: func(t *testing.T, s string) {
			// Sparse: 2 GiB on paper, nothing on disk; only 10 MiB + 1 is read.
			p := filepath.Join(s, "SKILL.md")
			writeTestFile(t, p, "")
			if err := os.Truncate(p, 2<<30); err != nil {
				t.Fatal(err)
			}
		}, lintCode: 1, oneCode: 1, why: "file is larger than the limit of 10485760 bytes", serve: neither},
		{name: "config raises a rule", setup: func(t *testing.T, s string) {
			writeTestFile(t, filepath.Join(s, "SKILL.md"), strings.Replace(skillSrc, " Use when the user asks for a refund.", "", 1))
		}, config: "rules:\n  missing-when-to-use: error\n", lintCode: 1, oneCode: 1, why: "[missing-when-to-use]", serve: listsNotSeeds},
		{name: "folder with no skill", setup: func(t *testing.T, s string) { writeTestFile(t, filepath.Join(s, "README.md"), "# Notes\n") },
			lintCode: 2, oneCode: 2, lintWhy: "skills: error: no skill in this folder: a skill is a folder holding a SKILL.md",
			why:     `/s": a skill is a folder holding a SKILL.md (or skill.md), or a markdown file named on the command line; to start one: skillc init NAME`,
			nameWhy: `no skill named "s"`, serve: neither, serveWhy: `no workflow skill named \"s\"`,
			serveWarns: `warning: no skills found in --skills "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "skills")
			skill := filepath.Join(root, "s")
			tt.setup(t, skill)
			cfg := filepath.Join(t.TempDir(), "skillc.yaml")
			writeTestFile(t, cfg, tt.config+"ignore: []\n")
			t.Setenv("SKILLC_USER", "")
			t.Setenv("SKILLC_SESSION", "")

			check := func(args []string, wantCode int, why string) {
				t.Helper()
				// lint reports on stdout, the others on stderr.
				code, out, errOut := runWithin(t, args)
				if code != wantCode || !strings.Contains(out+errOut, why) {
					t.Errorf("skillc %s: exit %d, want %d with %q; output:\n%s%s", strings.Join(args, " "), code, wantCode, why, out, errOut)
				}
			}
			or := func(s, dflt string) string {
				if s != "" {
					return s
				}
				return dflt
			}
			who := []string{"--user", "u", "--session", "s", "--store", "memory"}
			check([]string{"lint", "--config", cfg, root}, tt.lintCode, or(tt.lintWhy, tt.why))
			check([]string{"compile", "--config", cfg, skill}, tt.oneCode, tt.why)
			check([]string{"graph", "--config", cfg, skill}, tt.oneCode, tt.why)
			check(append([]string{"plan", "make", "--config", cfg, "--skill", skill}, who...), tt.oneCode, tt.why)
			check(append([]string{"plan", "make", "--config", cfg, "--skill", "s", "--skills", root}, who...), tt.oneCode, or(tt.nameWhy, tt.why))

			// serve: over stdio, raw JSON-RPC, each answer awaited with a
			// timeout.
			srv := startServe(t, root, cfg)
			if tt.serve == refusesToStart {
				err := srv.exit()
				if err == nil || !strings.Contains(err.Error(), tt.why) || !strings.Contains(err.Error(), filepath.Join(skill, "SKILL.md")) {
					t.Errorf("serve: want a refusal to start naming the file and saying %q, got %v", tt.why, err)
				}
				return
			}
			srv.ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			srv.ask(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			list := srv.ask(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`)
			made := srv.ask(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"make_plan","arguments":{"skill":"s"}}}`)
			if err := srv.exit(); err != nil {
				t.Fatalf("serve: %v", err)
			}
			if warned := srv.errOut.String(); tt.serveWarns != "" && !strings.Contains(warned, tt.serveWarns+root) || tt.serveWarns == "" && warned != "" {
				t.Errorf("serve's stderr: want %q, got:\n%s", tt.serveWarns, warned)
			}
			listed := strings.Contains(list, `"uri":"skill://s"`)
			refused := strings.Contains(made, `"isError":true`)
			switch {
			case tt.serve == seeds && (!listed || refused || !strings.Contains(made, "Refund · active · 0/2 done")):
				t.Errorf("serve should list and seed skill s:\n%s\n%s", list, made)
			case tt.serve == listsNotSeeds && (!listed || !refused || !strings.Contains(made, or(tt.serveWhy, tt.why))):
				t.Errorf("serve should list skill s and refuse to seed from it, saying %q:\n%s\n%s", or(tt.serveWhy, tt.why), list, made)
			case tt.serve == neither && (listed || !refused || !strings.Contains(made, or(tt.serveWhy, tt.why))):
				t.Errorf("serve should not list skill s and refuse to seed from it, saying %q:\n%s\n%s", or(tt.serveWhy, tt.why), list, made)
			}
		})
	}
}

const skillSrc = "---\nname: s\ndescription: Refund a charge. Use when the user asks for a refund.\n---\n# Refund\n\n1. Find the charge.\n2. Refund it.\n"

func writeTestFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlinkTest(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// runWithin runs a command line in process, failing the test if it has
// not returned within commandTimeout.
func runWithin(t *testing.T, args []string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}) }()
	select {
	case code = <-done:
		return code, out.String(), errOut.String()
	case <-time.After(commandTimeout):
		t.Fatalf("skillc %s: still running after %s", strings.Join(args, " "), commandTimeout)
		return 0, "", ""
	}
}

// serveSession is `skillc serve` over stdio pipes, in process.
type serveSession struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	done   chan error
	errOut *bytes.Buffer
}

func startServe(t *testing.T, root, cfg string) *serveSession {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &serveSession{t: t, in: inW, lines: make(chan string, 8), done: make(chan error, 1), errOut: &bytes.Buffer{}}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	t.Cleanup(cancel)
	go func() {
		err := serveRun(&ServeOptions{
			IO:  &IOStreams{In: inR, Out: outW, ErrOut: s.errOut},
			Ctx: ctx, Store: "memory", TTL: time.Hour, MaxBodyBytes: server.DefaultMaxBodyBytes,
			SkillDirs: []string{root}, ConfigPath: cfg,
			Getenv: env(map[string]string{"SKILLC_USER": "u", "SKILLC_SESSION": "s"}),
		})
		inR.Close() // a request still being written then fails instead of blocking
		outW.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	return s
}

// ask sends one JSON-RPC message and, for a request, returns its answer.
func (s *serveSession) ask(msg string) string {
	s.t.Helper()
	wrote := make(chan error, 1)
	go func() { _, err := io.WriteString(s.in, msg+"\n"); wrote <- err }()
	select {
	case err := <-wrote:
		if err != nil {
			s.t.Fatalf("serve stopped taking requests: %v\n%s", err, s.errOut)
		}
	case <-time.After(commandTimeout):
		s.t.Fatalf("serve did not read %s within %s", msg, commandTimeout)
	}
	if !strings.Contains(msg, `"id"`) {
		return ""
	}
	select {
	case line, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("serve ended without answering %s\n%s", msg, s.errOut)
		}
		return line
	case <-time.After(commandTimeout):
		s.t.Fatalf("no answer to %s within %s", msg, commandTimeout)
	}
	return ""
}

// exit closes stdin and returns how serve ended.
func (s *serveSession) exit() error {
	s.t.Helper()
	s.in.Close()
	select {
	case err := <-s.done:
		if err != nil {
			return fmt.Errorf("%w\n%s", err, s.errOut)
		}
		return nil
	case <-time.After(commandTimeout):
		s.t.Fatalf("serve still running %s after its stdin closed", commandTimeout)
	}
	return nil
}
