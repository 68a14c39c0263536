package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
)

const compileTestdata = "../../testdata/compile"

func TestNewCmdCompileFlags(t *testing.T) {
	tests := []struct {
		args    string
		want    CompileOptions
		wantErr bool
	}{
		{args: "x.md", want: CompileOptions{File: "x.md", Format: "json", MaxSize: compiler.DefaultMaxSize, MaxBlocks: compiler.DefaultMaxBlocks}},
		{args: "--format yaml x.md", want: CompileOptions{File: "x.md", Format: "yaml", MaxSize: compiler.DefaultMaxSize, MaxBlocks: compiler.DefaultMaxBlocks}},
		{args: "-f yaml -o out.yaml --max-size 100 dir", want: CompileOptions{File: "dir", Format: "yaml", Output: "out.yaml", MaxSize: 100, MaxBlocks: compiler.DefaultMaxBlocks}},
		{args: "--max-size -1 --output t.json x.md", want: CompileOptions{File: "x.md", Format: "json", Output: "t.json", MaxSize: -1, MaxBlocks: compiler.DefaultMaxBlocks}},
		{args: "--max-blocks -1 x.md", want: CompileOptions{File: "x.md", Format: "json", MaxSize: compiler.DefaultMaxSize, MaxBlocks: -1}},
		{args: "--max-blocks many x.md", wantErr: true},
		{args: "", wantErr: true},
		{args: "a.md b.md", wantErr: true},
		{args: "--max-size ten x.md", wantErr: true},
		{args: "--pretty x.md", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			io, _, _ := testIO()
			var got *CompileOptions
			cmd := NewCmdCompile(io, func(o *CompileOptions) error { got = o; return nil })
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
			got.IO = nil
			if *got != tt.want {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestCompileRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	acat := compileTestdata + "/acat-reimbursement/SKILL.md"
	acatJSON, err := os.ReadFile(compileTestdata + "/acat-reimbursement/SKILL.json")
	if err != nil {
		t.Fatal(err)
	}
	noSteps := write("advice.md", "# Advice\n\nBe kind.\n")
	bad := write("bad.md", "# Bad\n\n1. Go.\n   - no: clarfy\n2. Clarify. {#clarify}\n")
	existing := write("existing.json", "keep me\n")
	untitled := write("untitled.md", "# Untitled\n\n## Step 1\n\nCheck the queue.\n\n## Step 2: Report\n")

	tests := []struct {
		name       string
		opts       CompileOptions
		code       int
		stdout     []byte // nil: not checked
		stderrHas  []string
		emptyOut   bool
		outputFile string
		outputWant []byte
	}{
		{name: "json", opts: CompileOptions{File: acat}, stdout: acatJSON},
		{name: "folder", opts: CompileOptions{File: compileTestdata + "/acat-reimbursement"}, stdout: acatJSON},
		{name: "yaml", opts: CompileOptions{File: acat, Format: "yaml"}, stderrHas: nil},
		{name: "output file", opts: CompileOptions{File: acat, Output: filepath.Join(dir, "acat.json")}, emptyOut: true,
			outputFile: filepath.Join(dir, "acat.json"), outputWant: acatJSON},
		{name: "errors", opts: CompileOptions{File: bad, Output: existing}, code: exitFindings, emptyOut: true,
			stderrHas:  []string{"bad.md:4:10: error: failure edge of step \"1\" goes to \"clarfy\", which is not a step [unknown-target]", "^~~~~~", "= fix: clarify", "no template written"},
			outputFile: existing, outputWant: []byte("keep me\n")},
		{name: "no steps", opts: CompileOptions{File: noSteps}, code: exitFindings, emptyOut: true,
			stderrHas: []string{"[no-steps]", "the skill has no steps"}},
		{name: "too large", opts: CompileOptions{File: acat, MaxSize: 10}, code: exitFindings, emptyOut: true,
			stderrHas: []string{"larger than the limit of 10 bytes [file-too-large]", "--max-size"}},
		// Version 2 reads the paragraph under "## Step 1" as its goal;
		// --strict reads v1, where the step has none.
		{name: "v2 reading", opts: CompileOptions{File: untitled}, stderrHas: []string{"[inferred]"}},
		{name: "strict", opts: CompileOptions{File: untitled, Strict: true}, code: exitFindings, emptyOut: true,
			stderrHas: []string{`step "1" has no goal [empty-goal]`}},
		{name: "missing file", opts: CompileOptions{File: filepath.Join(dir, "nope.md")}, code: exitUsage, emptyOut: true},
		{name: "folder without SKILL.md", opts: CompileOptions{File: dir}, code: exitUsage, emptyOut: true},
		{name: "bad format", opts: CompileOptions{File: acat, Format: "toml"}, code: exitUsage, emptyOut: true},
		{name: "bad max size", opts: CompileOptions{File: acat, MaxSize: -5}, code: exitUsage, emptyOut: true},
		{name: "too many blocks", opts: CompileOptions{File: acat, MaxBlocks: 2}, code: exitFindings, emptyOut: true,
			stderrHas: []string{"more than 2 list items, headings and rules by this line; the limit is 2 [file-too-large]", "--max-blocks"}},
		{name: "bad max blocks", opts: CompileOptions{File: acat, MaxBlocks: -5}, code: exitUsage, emptyOut: true},
		{name: "unwritable output", opts: CompileOptions{File: acat, Output: filepath.Join(dir, "no", "such", "dir.json")}, code: exitUsage, emptyOut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := testIO()
			opts := tt.opts
			opts.IO = io
			if opts.Format == "" {
				opts.Format = "json"
			}
			if opts.MaxSize == 0 {
				opts.MaxSize = compiler.DefaultMaxSize
			}
			code := exitCode(compileRun(&opts))
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstderr:\n%s", code, tt.code, errOut)
			}
			if tt.stdout != nil && !bytes.Equal(out.Bytes(), tt.stdout) {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.stdout)
			}
			if tt.emptyOut && out.Len() != 0 {
				t.Errorf("stdout not empty:\n%s", out)
			}
			for _, want := range tt.stderrHas {
				if !strings.Contains(errOut.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if tt.outputFile != "" {
				got, err := os.ReadFile(tt.outputFile)
				if err != nil || !bytes.Equal(got, tt.outputWant) {
					t.Errorf("%s = %q, %v; want %q", tt.outputFile, got, err, tt.outputWant)
				}
			}
		})
	}
	// -o leaves no temporary files behind, whatever happened.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind %s", e.Name())
		}
	}
}

// TestCompileOutputs pins the YAML template and the text of diagnostics.
func TestCompileOutputs(t *testing.T) {
	io, out, _ := testIO()
	if code := run([]string{"compile", "--format", "yaml", compileTestdata + "/acat-reimbursement/SKILL.md"}, io); code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden.Check(t, compileTestdata+"/cli/acat.yaml", out.Bytes())

	io, out, errOut := testIO()
	if code := run([]string{"compile", compileTestdata + "/unknown-branch-key.md"}, io); code != exitFindings || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	golden.Check(t, compileTestdata+"/cli/unknown-branch-key.txt", errOut.Bytes())
}

func TestCompileColor(t *testing.T) {
	io, _, errOut := testIO()
	io.ColorErr = true
	opts := &CompileOptions{IO: io, File: compileTestdata + "/unknown-target.md", Format: "json", MaxSize: compiler.DefaultMaxSize}
	if code := exitCode(compileRun(opts)); code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errOut.String(), "\x1b[31merror") {
		t.Errorf("no colour:\n%q", errOut)
	}
}

func TestCompileHelp(t *testing.T) {
	for _, args := range [][]string{{"compile", "--help"}, {"schema", "--help"}} {
		io, out, _ := testIO()
		if code := run(args, io); code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		if !strings.Contains(out.String(), "Examples:") {
			t.Errorf("%v: help has no examples:\n%s", args, out)
		}
	}
}

func TestSchemaTemplate(t *testing.T) {
	io, out, _ := testIO()
	if code := run([]string{"schema", "template"}, io); code != 0 || !bytes.Equal(out.Bytes(), compiler.TemplateSchema) {
		t.Errorf("skillc schema template: exit %d, %d bytes", code, out.Len())
	}
	for _, args := range [][]string{{"schema"}, {"schema", "nope"}, {"schema", "template", "config"}} {
		io, out, errOut := testIO()
		if code := run(args, io); code != exitUsage || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
		if args[len(args)-1] == "nope" && !strings.Contains(errOut.String(), `unknown schema "nope"`) {
			t.Errorf("stderr: %s", errOut)
		}
	}
	// Flags parse into options through runF.
	io, _, _ = testIO()
	var got *SchemaOptions
	cmd := NewCmdSchema(io, func(o *SchemaOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"template"})
	if err := cmd.Execute(); err != nil || got.Name != "template" {
		t.Errorf("parsed %+v, %v", got, err)
	}
}
