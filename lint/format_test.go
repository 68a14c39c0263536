package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
)

// lintFormatTestdata lints testdata/lint/format from inside it, so paths in
// the goldens are short and relative. The files are listed as catalog.Lint
// finds them for "skills bare.md" (sorted): these tests are about the
// formats, the walk is catalog's.
func lintFormatTestdata(t *testing.T) *Result {
	t.Helper()
	t.Chdir("../testdata/lint/format")
	res := &Result{}
	for _, p := range []string{"bare.md", "skills/acat-broken/SKILL.md", "skills/clean/SKILL.md"} {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res.Files = append(res.Files, &File{Path: p, Source: src, Diags: LintSource(p, src, Options{Config: DefaultConfig()})})
	}
	return res
}

func TestFormats(t *testing.T) {
	res := lintFormatTestdata(t)
	if len(res.Files) != 3 {
		t.Fatalf("linted %d files, want 3", len(res.Files))
	}
	var text, color, js, sarif, gh bytes.Buffer
	if err := WriteText(&text, res.Diagnostics(), res.Sources(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	WriteSummary(&text, res, TextOptions{})
	WriteText(&color, res.Diagnostics(), res.Sources(), TextOptions{Color: true})
	WriteSummary(&color, res, TextOptions{Color: true})
	if err := WriteJSON(&js, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteSARIF(&sarif, res, SARIFOptions{Version: "v1.0.0-test", BaseDir: "."}); err != nil {
		t.Fatal(err)
	}
	if err := WriteGitHub(&gh, res); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "out.txt", text.Bytes())
	golden.Check(t, "out.color.txt", color.Bytes())
	golden.Check(t, "out.json", js.Bytes())
	golden.Check(t, "out.sarif", sarif.Bytes())
	golden.Check(t, "out.github", gh.Bytes())

	var rep JSONReport
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if e, w, i := res.Count(); rep.Errors != e || rep.Warnings != w || rep.Infos != i || rep.Files != 3 || len(rep.Diagnostics) != e+w+i {
		t.Errorf("json counts %+v", rep)
	}
}

func TestSummary(t *testing.T) {
	d := func(s compiler.Severity) compiler.Diagnostic { return compiler.Diagnostic{Severity: s} }
	tests := []struct {
		files []*File
		want  string
	}{
		{nil, "no problems in 0 files"},
		{[]*File{{}}, "no problems in 1 file"},
		{[]*File{{Diags: compiler.Diagnostics{d(compiler.SeverityError), d(compiler.SeverityError), d(compiler.SeverityError), d(compiler.SeverityWarning)}}, {}}, "3 errors, 1 warning in 2 files"},
		{[]*File{{Diags: compiler.Diagnostics{d(compiler.SeverityWarning), d(compiler.SeverityInfo), d(compiler.SeverityInfo)}}}, "1 warning, 2 infos in 1 file"},
	}
	for _, tt := range tests {
		if got := Summary(&Result{Files: tt.files}, TextOptions{}); got != tt.want {
			t.Errorf("Summary = %q, want %q", got, tt.want)
		}
	}
}

func TestGitHubEscaping(t *testing.T) {
	res := &Result{Files: []*File{{Path: "a,b:c%.md", Diags: compiler.Diagnostics{{
		Severity: compiler.SeverityWarning, Rule: "goal-too-long",
		Summary: "100% wrong: a, b\r\nnext", Suggestion: "x:y",
		File: "a,b:c%.md", Range: compiler.Range{Start: compiler.Pos{Line: 3, Column: 2}, End: compiler.Pos{Line: 3, Column: 6}},
	}, {
		Severity: compiler.SeverityInfo, Rule: "prose-branch", Summary: "multi-line",
		File: "a,b:c%.md", Range: compiler.Range{Start: compiler.Pos{Line: 4, Column: 1}, End: compiler.Pos{Line: 6, Column: 1}},
	}, {
		Severity: compiler.SeverityError, Rule: "unreadable", Summary: "cannot read",
		File: "gone.md",
	}}}}}
	var b bytes.Buffer
	if err := WriteGitHub(&b, res); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=a%2Cb%3Ac%25.md,line=3,col=2,endLine=3,endColumn=5,title=goal-too-long::100%25 wrong: a, b%0D%0Anext%0Afix: x:y\n" +
		"::notice file=a%2Cb%3Ac%25.md,line=4,col=1,endLine=5,title=prose-branch::multi-line\n" +
		"::error file=gone.md,title=unreadable::cannot read\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestSARIFURI(t *testing.T) {
	for in, want := range map[string]string{
		"skills/a/SKILL.md": "skills/a/SKILL.md",
		"my skill/100%.md":  "my%20skill/100%25.md",
		"ünï.md":            "%C3%BCn%C3%AF.md",
	} {
		if got := sarifURI(in, ""); got != want {
			t.Errorf("sarifURI(%q) = %q, want %q", in, got, want)
		}
	}
	if got := sarifURI("/elsewhere/a b.md", t.TempDir()); got != "file:///elsewhere/a%20b.md" {
		t.Errorf("outside the base: %q", got)
	}
	dir := t.TempDir()
	if got := sarifURI(filepath.Join(dir, "s", "SKILL.md"), dir); got != "s/SKILL.md" {
		t.Errorf("under the base: %q", got)
	}
}

// syntheticResult covers what the formats must handle without the
// compiler: a rule outside the registry, a whole-file finding, a
// multi-line range, a range with no end, odd characters in paths.
func syntheticResult() *Result {
	r := func(l1, c1, l2, c2 int32) compiler.Range {
		return compiler.Range{Start: compiler.Pos{Line: l1, Column: c1}, End: compiler.Pos{Line: l2, Column: c2}}
	}
	const f = "dir/my skill,100%.md"
	return &Result{Files: []*File{
		{Path: f, Diags: compiler.Diagnostics{
			{File: f, Severity: compiler.SeverityError, Rule: "unknown-target", Summary: "step \"2\" goes to \"5\"", Suggestion: "4", Range: r(3, 4, 3, 5),
				Fixes: []compiler.Fix{{Title: "replace \"5\" with \"4\"", Safe: true, Edits: []compiler.Edit{{Range: r(3, 4, 3, 5), NewText: "4"}}}}},
			{File: f, Severity: compiler.SeverityWarning, Rule: "cycle", Summary: "loop", Detail: "2 -> 3 -> 2", Range: r(4, 1, 6, 1)},
			// An unsafe fix of two edits: an insertion and a deletion.
			{File: f, Severity: compiler.SeverityInfo, Rule: "prose-branch", Summary: "prose", Range: r(7, 2, 0, 0),
				Fixes: []compiler.Fix{{Title: "write the annotation", Edits: []compiler.Edit{
					{Range: r(7, 10, 7, 10), NewText: "\n   - on failure: 2"}, {Range: r(9, 1, 9, 4)}}}}},
			{File: f, Severity: compiler.SeverityError, Rule: "some-new-compiler-rule", Summary: "new", Range: r(8, 1, 8, 2)},
		}},
		{Path: "gone.md", Unreadable: true, Diags: compiler.Diagnostics{{Severity: compiler.SeverityError, Rule: "unreadable", Summary: "cannot read", File: "gone.md"}}},
	}}
}

// TestSARIFValidator runs the official SARIF validator (npm install -g
// @microsoft/sarif-multitool) on the SARIF output of a synthetic run and
// of the format testdata. It skips when the tool is missing, unless CI is
// set.
func TestSARIFValidator(t *testing.T) {
	tool, err := exec.LookPath("sarif-multitool")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("sarif-multitool is not on PATH (npm install -g @microsoft/sarif-multitool)")
		}
		t.Skip("sarif-multitool is not on PATH")
	}
	var synthetic, testdata bytes.Buffer
	if err := WriteSARIF(&synthetic, syntheticResult(), SARIFOptions{Version: "v1.0.0-test"}); err != nil {
		t.Fatal(err)
	}
	if err := WriteSARIF(&testdata, lintFormatTestdata(t), SARIFOptions{Version: "v1.0.0-test", BaseDir: "."}); err != nil {
		t.Fatal(err)
	}
	// One run of the validator for both logs: it is slow to start.
	validateSARIF(t, tool, map[string][]byte{"synthetic.sarif": synthetic.Bytes(), "testdata.sarif": testdata.Bytes()})
}

func validateSARIF(t *testing.T, tool string, logs map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	report := filepath.Join(dir, "validation.sarif")
	args := []string{"validate", "--output", report}
	for name, data := range logs {
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, in)
	}
	name := "sarif"
	cmd := exec.Command(tool, args...)
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: sarif-multitool validate: %v\n%s", name, err, msg)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID             string `json:"id"`
						MessageStrings map[string]struct {
							Text string `json:"text"`
						} `json:"messageStrings"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text      string   `json:"text"`
					ID        string   `json:"id"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	out, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("%s: no validation report: %v\n%s", name, err, msg)
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	for _, run := range log.Runs {
		for _, r := range run.Results {
			// The validator reports schema errors as errors and rule
			// breaches as errors or warnings (level defaults to warning).
			if r.Level == "note" || r.Level == "none" {
				continue
			}
			text := r.Message.Text
			for _, rule := range run.Tool.Driver.Rules {
				if rule.ID == r.RuleID && text == "" {
					text = rule.MessageStrings[r.Message.ID].Text
					for i, a := range r.Message.Arguments {
						text = strings.ReplaceAll(text, fmt.Sprintf("{%d}", i), a)
					}
				}
			}
			t.Errorf("%s: validator %s %s: %s", name, r.Level, r.RuleID, text)
		}
	}
}

func TestTextClipsLongLines(t *testing.T) {
	line := strings.Repeat("a", 300) + "BAD" + strings.Repeat("b", 300)
	d := compiler.Diagnostic{Severity: compiler.SeverityError, Rule: "x", Summary: "bad",
		File: "f.md", Range: compiler.Range{Start: compiler.Pos{Line: 1, Column: 301}, End: compiler.Pos{Line: 1, Column: 304}}}
	var b bytes.Buffer
	WriteText(&b, compiler.Diagnostics{d}, func(string) []byte { return []byte(line) }, TextOptions{})
	lines := strings.Split(b.String(), "\n")
	want := "1 | …" + strings.Repeat("a", 40) + "BAD" + strings.Repeat("b", 117) + "…"
	if lines[2] != want {
		t.Errorf("snippet:\n%q\nwant\n%q", lines[2], want)
	}
	if lines[3] != "  | "+strings.Repeat(" ", 41)+"^~~" {
		t.Errorf("caret: %q", lines[3])
	}
}
