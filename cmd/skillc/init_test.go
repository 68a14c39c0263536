package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/lint"
)

// TestInit: what init writes for each name lints clean by every rule, under
// FORMAT v1 (--strict) where the name is one; a refused name writes nothing
// and says why, with a name that would do.
func TestInit(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		name     string
		wantCode int
		wantErr  string // on stderr
		strictOK bool   // the written skill lints clean under --strict too
	}{
		{name: "refund-check", strictOK: true},
		{name: "a", strictOK: true},
		{name: "x2", strictOK: true},
		{name: long, strictOK: true},
		{name: "мой-навык"}, // version 2 reads names as skills-ref does
		{name: "技能"},
		{name: long + "a", wantCode: 2, wantErr: `is 65 characters; the limit is 64; a skill name is 1-64 lowercase letters, digits and -, without a leading or trailing - or a --. Try: skillc init ` + long},
		{name: "Refund", wantCode: 2, wantErr: `it contains 'R'; use only a-z, 0-9 and -;`},
		{name: "НАВЫК", wantCode: 2, wantErr: `it contains the uppercase 'Н'; names are lowercase;`},
		{name: "refund_check", wantCode: 2, wantErr: "Try: skillc init refund-check"},
		{name: "refund-", wantCode: 2, wantErr: `starts or ends with "-"`},
		{name: "a--b", wantCode: 2, wantErr: `contains "--"`},
		{name: "..", wantCode: 2, wantErr: `invalid skill name "..": it contains '.'`},
		{name: "a/b", wantCode: 2, wantErr: `"a/b" is a path; NAME is the skill's name, without a folder: to write ` + filepath.Join("a", "b", "SKILL.md") + `, run skillc init b --dir a`},
		{name: " a ", wantCode: 2, wantErr: `it has white space around it. Try: skillc init a`},
		{name: "", wantCode: 2, wantErr: "the skill name is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			code, out, errOut := runWithin(t, []string{"init", "--dir", dir, "--", tt.name})
			if code != tt.wantCode || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("exit %d, want %d with %q; stdout %q, stderr %q", code, tt.wantCode, tt.wantErr, out, errOut)
			}
			entries, _ := os.ReadDir(dir)
			if tt.wantCode != 0 {
				if len(entries) != 0 {
					t.Errorf("a refused init left %v in --dir", entries)
				}
				return
			}
			file := filepath.Join(dir, tt.name, "SKILL.md")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, strict := range []bool{false, true} {
				diags := lint.LintSource(file, src, lint.Options{Strict: strict})
				if strict && !tt.strictOK {
					if len(diags) != 1 || diags[0].Rule != "invalid-name" {
						t.Errorf("--strict: want only invalid-name, got %v", diags)
					}
					if !strings.Contains(out, "FORMAT version 1 (skillc lint --strict) allows only a-z, 0-9 and - in a name") {
						t.Errorf("no note on --strict names: %q", out)
					}
					continue
				}
				if len(diags) != 0 {
					t.Errorf("strict=%v: the written skill has findings: %v", strict, diags)
				}
			}
		})
	}
}

// TestNewCmdInit parses init's flags into InitOptions without running it.
func TestNewCmdInit(t *testing.T) {
	tests := []struct {
		args    []string
		want    InitOptions
		wantErr string
	}{
		{args: []string{"refund"}, want: InitOptions{Name: "refund", Dir: "."}},
		{args: []string{"refund", "--dir", "skills"}, want: InitOptions{Name: "refund", Dir: "skills"}},
		{args: []string{"--dir=skills/team", "refund"}, want: InitOptions{Name: "refund", Dir: "skills/team"}},
		{args: []string{}, wantErr: "accepts 1 arg(s), received 0"},
		{args: []string{"a", "b"}, wantErr: "accepts 1 arg(s), received 2"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var got *InitOptions
			cmd := NewCmdInit(&IOStreams{}, func(o *InitOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got == nil || got.Name != tt.want.Name || got.Dir != tt.want.Dir {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}
