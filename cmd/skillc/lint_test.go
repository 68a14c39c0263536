package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/lint"
)

var _ = golden.Update

func testIO() (*IOStreams, *bytes.Buffer, *bytes.Buffer) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: strings.NewReader(""), Out: out, ErrOut: errOut}, out, errOut
}

// exitCode maps a command's error to the process exit status, as run does.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitUsage
}

func TestNewCmdLintFlags(t *testing.T) {
	tests := []struct {
		args    string
		want    LintOptions
		wantErr string
	}{
		{args: "", want: LintOptions{Format: "text", FailOn: "error"}},
		{args: "skills a.md", want: LintOptions{Paths: []string{"skills", "a.md"}, Format: "text", FailOn: "error"}},
		{args: "--format sarif --fail-on warning --config c.yaml --no-color x", want: LintOptions{Paths: []string{"x"}, Format: "sarif", FailOn: "warning", ConfigPath: "c.yaml", NoColor: true}},
		{args: "-f github -c c.yaml", want: LintOptions{Format: "github", FailOn: "error", ConfigPath: "c.yaml"}},
		{args: "--format xml", wantErr: `unknown format "xml"`},
		{args: "--fail-on fatal", wantErr: `--fail-on: unknown severity "fatal"`},
		{args: "--select cycle,unknown-target --select unknown-tool --ignore goal-too-long -o r.txt x",
			want: LintOptions{Paths: []string{"x"}, Format: "text", FailOn: "error", Output: "r.txt",
				Select: []string{"cycle", "unknown-target", "unknown-tool"}, Ignore: []string{"goal-too-long"}}},
		{args: "--stdin-filename skills/a/SKILL.md -", want: LintOptions{Paths: []string{"-"}, Format: "text", FailOn: "error", StdinFilename: "skills/a/SKILL.md"}},
		{args: "--select cycel", wantErr: `--select: unknown rule "cycel"; did you mean "cycle"?`},
		{args: "--ignore invalid-config", wantErr: `rule "invalid-config" is reported by skillc itself`},
		{args: "- a.md", wantErr: "must be the only path"},
		{args: "--stdin-filename a.md a.md", wantErr: "give the path -"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			io, _, _ := testIO()
			var got *LintOptions
			cmd := NewCmdLint(io, func(o *LintOptions) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.args))
			cmd.SetOut(io.Out)
			cmd.SetErr(io.ErrOut)
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != exitUsage {
					t.Fatalf("err = %v, want usage error %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Format != tt.want.Format || got.FailOn != tt.want.FailOn || got.ConfigPath != tt.want.ConfigPath ||
				got.NoColor != tt.want.NoColor || strings.Join(got.Paths, " ") != strings.Join(tt.want.Paths, " ") ||
				got.Output != tt.want.Output || got.StdinFilename != tt.want.StdinFilename ||
				strings.Join(got.Select, ",") != strings.Join(tt.want.Select, ",") || strings.Join(got.Ignore, ",") != strings.Join(tt.want.Ignore, ",") {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
			if got.Color {
				t.Error("colour on a buffer")
			}
		})
	}
}

const formatDir = "../../testdata/lint/format"

func TestLintRun(t *testing.T) {
	tests := []struct {
		name     string
		opts     LintOptions
		code     int
		golden   string // stdout golden under testdata/lint/cli, or ""
		inStdout string
		inStderr string
	}{
		{name: "text", opts: LintOptions{Paths: []string{"skills", "bare.md"}, Format: "text", FailOn: "error"}, code: 1, golden: "text.out"},
		{name: "clean", opts: LintOptions{Paths: []string{"skills/clean"}, Format: "text", FailOn: "info"}, code: 0, inStdout: "no problems in 1 file\n"},
		{name: "fail on error, only warnings", opts: LintOptions{Paths: []string{"bare.md"}, Format: "text", FailOn: "error"}, code: 0, inStdout: "warning"},
		{name: "fail on warning", opts: LintOptions{Paths: []string{"bare.md"}, Format: "json", FailOn: "warning"}, code: 1, inStdout: `"version": 1`},
		{name: "github", opts: LintOptions{Paths: []string{"skills"}, Format: "github", FailOn: "error"}, code: 1, inStdout: "::error file=skills/acat-broken/SKILL.md,"},
		{name: "sarif", opts: LintOptions{Paths: []string{"skills"}, Format: "sarif", FailOn: "error"}, code: 1, inStdout: `"version": "2.1.0"`},
		{name: "unreadable", opts: LintOptions{Paths: []string{"nope.md", "skills/clean"}, Format: "text", FailOn: "error"}, code: 2, inStdout: `nope.md: error: cannot be read: no such file or directory [unreadable]`},
		{name: "bad config", opts: LintOptions{Paths: []string{"skills/clean"}, Format: "text", FailOn: "error", ConfigPath: "../cli/bad.skillc.yaml"}, code: 2,
			inStderr: `../cli/bad.skillc.yaml:2:3: error: unknown rule "prose-branches"; did you mean "prose-branch"?`},
		{name: "config found upward", opts: LintOptions{Paths: []string{"bare.md"}, Format: "text", FailOn: "warning", WorkDir: "."}, code: 0, inStdout: "no problems"},
		{name: "missing config", opts: LintOptions{Paths: []string{"bare.md"}, Format: "text", FailOn: "error", ConfigPath: "nope.yaml"}, code: 2, inStderr: `cannot read config "nope.yaml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(formatDir)
			if tt.name == "config found upward" {
				// A config in a parent folder turns the warnings off.
				dir := t.TempDir()
				os.WriteFile(filepath.Join(dir, ".skillc.yaml"), []byte("rules:\n  missing-frontmatter: off\n  missing-when-to-use: off\n  question-without-branch: off\n"), 0o644)
				sub := filepath.Join(dir, "a", "b")
				os.MkdirAll(sub, 0o755)
				src, _ := os.ReadFile("bare.md")
				os.WriteFile(filepath.Join(sub, "bare.md"), src, 0o644)
				t.Chdir(sub)
			}
			io, out, errOut := testIO()
			opts := tt.opts
			opts.IO = io
			if opts.MaxSize == 0 {
				opts.MaxSize = 10 << 20
			}
			err := lintRun(&opts)
			if code := exitCode(err); code != tt.code {
				t.Errorf("exit %d, want %d (err %v)\nstdout:\n%s\nstderr:\n%s", code, tt.code, err, out, errOut)
			}
			if err != nil && !strings.Contains(err.Error(), "exit") {
				errOut.WriteString(err.Error())
			}
			if tt.golden != "" {
				golden.Check(t, filepath.Join("../cli", tt.golden), out.Bytes())
			}
			if !strings.Contains(out.String(), tt.inStdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.inStdout, out)
			}
			if !strings.Contains(errOut.String(), tt.inStderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.inStderr, errOut)
			}
		})
	}
}

// TestLintThroughRoot runs the real command line, as the binary does.
func TestLintThroughRoot(t *testing.T) {
	io, out, errOut := testIO()
	code := run([]string{"lint", "--no-color", "--fail-on", "info", formatDir + "/skills/clean"}, io)
	if code != 0 || !strings.HasSuffix(out.String(), "no problems in 1 file\n") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	io, _, errOut = testIO()
	if code := run([]string{"lint", "--format", "yaml"}, io); code != exitUsage || !strings.Contains(errOut.String(), `unknown format "yaml"`) {
		t.Errorf("exit %d, stderr %s", code, errOut)
	}
}

func TestRulesAndExplain(t *testing.T) {
	io, out, _ := testIO()
	if err := rulesRun(&RulesOptions{IO: io}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "../../testdata/lint/cli/rules.out", out.Bytes())

	io, out, _ = testIO()
	if err := explainRun(&RulesOptions{IO: io, Rule: "prose-branch"}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "../../testdata/lint/cli/explain-prose-branch.out", out.Bytes())

	io, _, _ = testIO()
	err := explainRun(&RulesOptions{IO: io, Rule: "prose-branches"})
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), `unknown rule "prose-branches"; did you mean "prose-branch"?`) {
		t.Errorf("explain typo: %v", err)
	}

	io, _, _ = testIO()
	var got *RulesOptions
	cmd := NewCmdExplain(io, func(o *RulesOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"cycle"})
	if err := cmd.Execute(); err != nil || got.Rule != "cycle" {
		t.Errorf("explain flags: %v %+v", err, got)
	}
	cmd = NewCmdExplain(io, func(o *RulesOptions) error { return nil })
	cmd.SetArgs(nil)
	cmd.SetErr(io.ErrOut)
	if err := cmd.Execute(); err == nil {
		t.Error("explain without a rule: no error")
	}
}

func TestSchemaConfig(t *testing.T) {
	io, out, _ := testIO()
	if code := run([]string{"schema", "config"}, io); code != 0 || !bytes.Equal(out.Bytes(), lint.ConfigSchema) {
		t.Errorf("skillc schema config: exit %d, %d bytes", code, out.Len())
	}
}

// TestLintCorpus runs skillc lint on the real skills in /work/shared/corpus
// (../shared/corpus from the repository root), as the binary would. What it
// reports is reviewed in testdata/lint/corpus.txt (package lint).
func TestLintCorpus(t *testing.T) {
	const dir = "../../../shared/corpus"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus at", dir)
	}
	for _, format := range []string{"text", "json", "sarif", "github"} {
		io, out, errOut := testIO()
		code := run([]string{"lint", "--format", format, "--no-color", dir}, io)
		// One finding is an error: claude-api's description is over 1024
		// characters.
		if code != exitFindings || out.Len() == 0 || errOut.Len() != 0 {
			t.Errorf("%s: exit %d, %d bytes out, stderr %q", format, code, out.Len(), errOut)
		}
	}
}

// TestSelectRules: --select and --ignore act on a copy of the config, over
// what it says; the rules skillc itself reports are left alone.
func TestSelectRules(t *testing.T) {
	cfg := lint.DefaultConfig()
	cfg.Rules = map[string]compiler.Severity{"cycle": lint.RuleOff, "unknown-tool": compiler.SeverityError}
	got := selectRules(cfg, []string{"cycle", "unknown-tool", "goal-too-long"}, []string{"goal-too-long"})
	if len(cfg.Rules) != 2 || cfg.Rules["cycle"] != lint.RuleOff {
		t.Errorf("the config was changed: %v", cfg.Rules)
	}
	for _, r := range lint.Rules {
		sev, set := got.Rules[r.ID]
		switch r.ID {
		case "cycle": // selected, the config's off undone
			if set {
				t.Errorf("cycle = %v, want its default", sev)
			}
		case "unknown-tool": // selected, the config's severity kept
			if sev != compiler.SeverityError {
				t.Errorf("unknown-tool = %v, want error", sev)
			}
		case "unreadable", "unknown-rule", "invalid-config":
			if set {
				t.Errorf("%s is set: %v", r.ID, sev)
			}
		default: // not selected, or ignored
			if sev != lint.RuleOff {
				t.Errorf("%s = %v, want off", r.ID, sev)
			}
		}
	}
	if selectRules(cfg, nil, nil) != cfg {
		t.Error("no flags: the config itself")
	}
}
