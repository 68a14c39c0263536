package main

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
)

const graphTestdata = "../../testdata/graph"

func TestNewCmdGraphFlags(t *testing.T) {
	tests := []struct {
		args    string
		want    GraphOptions
		wantErr bool
	}{
		{args: "x.md", want: GraphOptions{File: "x.md", Format: "dot", MaxSize: compiler.DefaultMaxSize, Scale: 2}},
		{args: "--format mermaid x.md", want: GraphOptions{File: "x.md", Format: "mermaid", MaxSize: compiler.DefaultMaxSize, Scale: 2}},
		{args: "-f png -o out.png dir", want: GraphOptions{File: "dir", Format: "png", Output: "out.png", MaxSize: compiler.DefaultMaxSize, Scale: 2}},
		{args: "--max-size -1 x.md", want: GraphOptions{File: "x.md", Format: "dot", MaxSize: -1, Scale: 2}},
		{args: "--max-size 100 x.md", want: GraphOptions{File: "x.md", Format: "dot", MaxSize: 100, Scale: 2}},
		{args: "-f png --scale 1.5 x.md", want: GraphOptions{File: "x.md", Format: "png", MaxSize: compiler.DefaultMaxSize, Scale: 1.5}},
		{args: "--max-size ten x.md", wantErr: true},
		{args: "-f png --scale 0 x.md", wantErr: true},
		{args: "-f png --scale 0.4 x.md", wantErr: true},
		{args: "-f png --scale 8.5 x.md", wantErr: true},
		{args: "-f png --scale big x.md", wantErr: true},
		{args: "", wantErr: true},
		{args: "a.md b.md", wantErr: true},
		{args: "--colour x.md", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			io, _, _ := testIO()
			var got *GraphOptions
			cmd := NewCmdGraph(io, func(o *GraphOptions) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.args))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.wantErr {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.File != tt.want.File || got.Format != tt.want.Format || got.Output != tt.want.Output || got.MaxSize != tt.want.MaxSize || got.Scale != tt.want.Scale {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestGraphRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unknown := write("unknown.md", "# Unknown\n\n1. Start.\n   - yes: 7\n2. Stop.\n")
	noSteps := write("none.md", "# Nothing\n\nJust prose.\n")
	acat := "../../skills/acat-reimbursement/SKILL.md"

	tests := []struct {
		name       string
		opts       GraphOptions
		terminal   bool
		code       int
		golden     string // stdout equals this file under testdata/graph
		stdout     func(t *testing.T, b []byte)
		stderrHas  string
		noStdout   bool
		wantOutput bool // opts.Output exists afterwards
	}{
		{name: "dot", opts: GraphOptions{File: acat, Format: "dot"}, golden: "acat-reimbursement.dot"},
		{name: "folder", opts: GraphOptions{File: "../../skills/acat-reimbursement", Format: "dot"}, golden: "acat-reimbursement.dot"},
		{name: "mermaid", opts: GraphOptions{File: acat, Format: "mermaid"}, golden: "acat-reimbursement.mmd"},
		{name: "svg to a pipe", opts: GraphOptions{File: acat, Format: "svg"}, stdout: checkSVGOut},
		{name: "png to a terminal", opts: GraphOptions{File: acat, Format: "png"}, terminal: true, code: exitUsage,
			stderrHas: "", noStdout: true},
		{name: "png to a file", opts: GraphOptions{File: acat, Format: "png", Output: filepath.Join(dir, "acat.png")},
			terminal: true, noStdout: true, wantOutput: true},
		{name: "loop is drawn, exit 1", opts: GraphOptions{File: graphTestdata + "/cycle.md", Format: "dot"}, code: exitFindings,
			golden: "cycle.dot", stderrHas: "step 3 on success (\"then\") goes back to step 2 with no bound"},
		{name: "strict: a loop is a cycle, as in v1", opts: GraphOptions{File: graphTestdata + "/cycle.md", Format: "dot", Strict: true}, code: exitFindings,
			golden: "cycle.dot", stderrHas: "steps 2 -> 3 -> 2 form a loop"},
		{name: "unknown target is not drawn", opts: GraphOptions{File: unknown, Format: "dot", Output: filepath.Join(dir, "u.dot")},
			code: exitFindings, noStdout: true, stderrHas: "no graph drawn"},
		{name: "no steps", opts: GraphOptions{File: noSteps, Format: "mermaid"}, code: exitFindings, noStdout: true, stderrHas: "no graph drawn"},
		{name: "unknown format", opts: GraphOptions{File: acat, Format: "gif"}, code: exitUsage, noStdout: true},
		{name: "too large", opts: GraphOptions{File: acat, Format: "svg", MaxSize: 10}, code: exitFindings, noStdout: true,
			stderrHas: "larger than the limit of 10 bytes [file-too-large]"},
		{name: "too large says why not drawn", opts: GraphOptions{File: acat, Format: "dot", MaxSize: 10}, code: exitFindings, noStdout: true,
			stderrHas: "no graph drawn: fix the errors above first"},
		{name: "no limit", opts: GraphOptions{File: acat, Format: "dot", MaxSize: -1}, golden: "acat-reimbursement.dot"},
		{name: "bad scale", opts: GraphOptions{File: acat, Format: "png", Scale: 9, Output: filepath.Join(dir, "big.png")}, code: exitUsage, noStdout: true},
		{name: "bad max size", opts: GraphOptions{File: acat, Format: "dot", MaxSize: -5}, code: exitUsage, noStdout: true},
		{name: "missing file", opts: GraphOptions{File: filepath.Join(dir, "nope.md"), Format: "dot"}, code: exitUsage, noStdout: true},
		{name: "unwritable output", opts: GraphOptions{File: acat, Format: "dot", Output: filepath.Join(dir, "no/such/dir/x.dot")},
			code: exitUsage, noStdout: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := testIO()
			opts := tt.opts
			opts.IO = io
			opts.OutIsTerminal = func() bool { return tt.terminal }
			if opts.MaxSize == 0 {
				opts.MaxSize = compiler.DefaultMaxSize
			}
			err := graphRun(&opts)
			if got := exitCode(err); got != tt.code {
				t.Fatalf("exit %d, want %d (err %v)\nstderr:\n%s", got, tt.code, err, errOut)
			}
			if tt.golden != "" {
				golden.Check(t, filepath.Join(graphTestdata, tt.golden), out.Bytes())
			}
			if tt.stdout != nil {
				tt.stdout(t, out.Bytes())
			}
			if tt.noStdout && out.Len() > 0 {
				t.Errorf("stdout should be empty, got %d bytes", out.Len())
			}
			if tt.stderrHas != "" && !strings.Contains(errOut.String(), tt.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderrHas, errOut)
			}
			if opts.Output != "" {
				_, statErr := os.Stat(opts.Output)
				if tt.wantOutput != (statErr == nil) {
					t.Errorf("output file exists: %v, want %v", statErr == nil, tt.wantOutput)
				}
			}
		})
	}

	f, err := os.Open(filepath.Join(dir, "acat.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("png does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("png is %dx%d", b.Dx(), b.Dy())
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func checkSVGOut(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false
	var root struct{ XMLName xml.Name }
	if err := dec.Decode(&root); err != nil || root.XMLName.Local != "svg" {
		t.Fatalf("not an svg document: root %q, err %v", root.XMLName.Local, err)
	}
}

func TestGraphThroughRoot(t *testing.T) {
	io, out, errOut := testIO()
	code := run([]string{"graph", "--format", "mermaid", "../../skills/acat-reimbursement/SKILL.md"}, io)
	if code != 0 || !strings.HasPrefix(out.String(), "---\ntitle: \"ACAT reimbursement\"\n---\nflowchart TD\n") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestCompileRefusesGraphErrors: `skillc compile` runs the graph checks too
// (checkSkill), so errors in the graph stop the template; under --strict a
// loop is one, as in v1.
func TestCompileRefusesGraphErrors(t *testing.T) {
	for _, strict := range []bool{false, true} {
		io, out, errOut := testIO()
		args := []string{"compile", graphTestdata + "/cycle.md"}
		wants := []string{"[unbounded-loop]", "[unreachable-step]", "[entry-cannot-end]", "no template written"}
		if strict {
			// v1: every loop is a cycle.
			args = append(args, "--strict")
			wants = []string{"steps 2 -> 3 -> 2 form a loop", "[cycle]", "[unreachable-step]", "[entry-cannot-end]", "no template written"}
		}
		code := run(args, io)
		if code != exitFindings || out.Len() != 0 {
			t.Fatalf("strict %v: exit %d, %d bytes on stdout; want exit 1 and no template\n%s", strict, code, out.Len(), errOut)
		}
		for _, want := range wants {
			if !strings.Contains(errOut.String(), want) {
				t.Errorf("strict %v: stderr lacks %q:\n%s", strict, want, errOut)
			}
		}
	}
	io, out, errOut := testIO()
	if code := run([]string{"compile", "../../skills/acat-reimbursement"}, io); code != 0 || out.Len() == 0 {
		t.Errorf("acat: exit %d\n%s", code, errOut)
	}
}

// TestGraphWithoutDrawProgram: with skillc-draw neither beside skillc nor on
// $PATH, svg and png are a clear error with exit 2, and dot still works.
func TestGraphWithoutDrawProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	acat := "../../skills/acat-reimbursement/SKILL.md"
	io, out, errOut := testIO()
	err := graphRun(&GraphOptions{IO: io, File: acat, Format: "svg", MaxSize: compiler.DefaultMaxSize})
	if code := exitCode(err); code != exitUsage || out.Len() != 0 {
		t.Fatalf("exit %d with %d bytes out, want exit 2 and nothing (err %v)", code, out.Len(), err)
	}
	if !strings.Contains(err.Error(), "cannot draw the svg") || !strings.Contains(err.Error(), "go install github.com/skillc/skillc/cmd/skillc-draw") {
		t.Errorf("error does not say what to install: %v\n%s", err, errOut)
	}
	io, out, _ = testIO()
	if err := graphRun(&GraphOptions{IO: io, File: acat, Format: "dot", MaxSize: compiler.DefaultMaxSize}); err != nil || out.Len() == 0 {
		t.Errorf("dot without skillc-draw: %v, %d bytes", err, out.Len())
	}
}

// TestSkillcDoesNotLinkGraphviz: go-graphviz starts in a package init (36
// ms and 4.4 MB per process), so skillc must not link it, only skillc-draw.
func TestSkillcDoesNotLinkGraphviz(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies")
	}
	for _, tc := range []struct {
		pkg  string
		want bool
	}{{".", false}, {"../skillc-draw", true}} {
		deps, err := exec.Command(goBin, "list", "-deps", tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tc.pkg, err)
		}
		for _, banned := range []string{"github.com/goccy/go-graphviz", "github.com/tetratelabs/wazero"} {
			if got := strings.Contains(string(deps), banned+"\n"); got != tc.want {
				t.Errorf("%s links %s: %v, want %v", tc.pkg, banned, got, tc.want)
			}
		}
	}
}

// TestGraphDrawProgramFails: a skillc-draw that fails (here a script on
// $PATH) is exit 2 with its message, and no picture is written.
func TestGraphDrawProgramFails(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for a stand-in skillc-draw")
	}
	bin := t.TempDir()
	script := "#!/bin/sh\necho 'graphviz cannot draw: out of memory' >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(bin, "skillc-draw"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out := filepath.Join(t.TempDir(), "acat.png")
	io, stdout, _ := testIO()
	err := graphRun(&GraphOptions{IO: io, File: "../../skills/acat-reimbursement/SKILL.md", Format: "png", Output: out, MaxSize: compiler.DefaultMaxSize})
	if code := exitCode(err); code != exitUsage || stdout.Len() != 0 {
		t.Fatalf("exit %d, %d bytes out; want exit 2 and nothing (err %v)", code, stdout.Len(), err)
	}
	if !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("error lacks the program's message: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a picture was written although the drawing failed")
	}
}
