package lint

import (
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// TestFrontmatterAndNameFixes: the frontmatter a missing-frontmatter fix
// adds names the skill validly (a README.md is not told name: README, which
// invalid-name refuses), the name-mismatch fix writes the folder's name,
// and where no name fits no fix is offered; every fix offered, applied,
// removes its finding and adds none.
func TestFrontmatterAndNameFixes(t *testing.T) {
	const body = "# Refund check\n\n1. Look up the refund.\n"
	const fm = "---\nname: refund-check\ndescription: Checks a refund. Use when asked about one.\n---\n"
	tests := []struct {
		name, file, src, rule string
		// want is the text the fix inserts or writes, "" for no fix.
		want string
		safe bool
	}{
		{name: "README.md", file: "README.md", src: body, rule: "missing-frontmatter",
			want: "---\nname: refund-check\ndescription: What it does. Use when ...\n---\n"},
		{name: "folder README.md", file: "docs/README.md", src: body, rule: "missing-frontmatter",
			want: "---\nname: docs\ndescription: What it does. Use when ...\n---\n"},
		{name: "README.md in a folder that is no name", file: "My Docs/README.md", src: body, rule: "missing-frontmatter",
			want: "---\nname: my-docs\ndescription: What it does. Use when ...\n---\n"},
		{name: "stdin", file: "<stdin>", src: body, rule: "missing-frontmatter",
			want: "---\nname: refund-check\ndescription: What it does. Use when ...\n---\n"},
		{name: "other file", file: "notes/Refund Check.md", src: body, rule: "missing-frontmatter",
			want: "---\nname: refund-check\ndescription: What it does. Use when ...\n---\n"},
		{name: "SKILL.md", file: "skills/refund/SKILL.md", src: body, rule: "missing-frontmatter",
			want: "---\nname: refund\ndescription: What it does. Use when ...\n---\n"},
		{name: "CRLF", file: "skills/refund/SKILL.md", src: strings.ReplaceAll(body, "\n", "\r\n"), rule: "missing-frontmatter",
			want: "---\r\nname: refund\r\ndescription: What it does. Use when ...\r\n---\r\n"},
		// Any name but the folder's is name-mismatch, and the folder's is
		// not valid: there is no block to copy.
		{name: "SKILL.md in an invalid folder", file: "skills/Refund_Check/SKILL.md", src: body, rule: "missing-frontmatter"},
		{name: "missing name in a SKILL.md", file: "skills/refund/SKILL.md", src: "---\ndescription: Checks a refund. Use when asked.\n---\n" + body, rule: "missing-name",
			want: "name: refund\n", safe: true},
		{name: "missing name elsewhere", file: "notes/refund.md", src: "---\r\ndescription: Checks a refund. Use when asked.\r\n---\r\n" + body, rule: "missing-name",
			want: "name: refund\r\n"},
		{name: "mismatch", file: "skills/refund/SKILL.md", src: fm + body, rule: "name-mismatch", want: "refund"},
		{name: "mismatch, invalid folder", file: "skills/Refund_Check/SKILL.md", src: fm + body, rule: "name-mismatch"},
		{name: "invalid name, case", file: "notes.md", src: strings.Replace(fm, "refund-check", "Refund-Check", 1) + body, rule: "invalid-name",
			want: "refund-check", safe: true},
		{name: "invalid name, slug", file: "notes.md", src: strings.Replace(fm, "refund-check", "refund_check", 1) + body, rule: "invalid-name",
			want: "refund-check"},
		{name: "invalid name in a SKILL.md: its folder's", file: "skills/refund-check/SKILL.md", src: strings.Replace(fm, "refund-check", "Refund_Check", 1) + body, rule: "invalid-name",
			want: "refund-check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := LintSource(tt.file, []byte(tt.src), Options{})
			d := findRule(diags, tt.rule)
			if d == nil {
				t.Fatalf("no %s finding in %v", tt.rule, diags)
			}
			if tt.want == "" {
				if len(d.Fixes) > 0 {
					t.Fatalf("fixes %+v offered, want none", d.Fixes)
				}
				return
			}
			if len(d.Fixes) != 1 || len(d.Fixes[0].Edits) != 1 {
				t.Fatalf("fixes = %+v, want one of one edit", d.Fixes)
			}
			f := d.Fixes[0]
			if got := f.Edits[0].NewText; got != tt.want || f.Safe != tt.safe {
				t.Errorf("fix writes %q (safe %v), want %q (safe %v)", got, f.Safe, tt.want, tt.safe)
			}
			checkFixApplied(t, tt.file, tt.src, diags, *d, f)
		})
	}
}

// checkFixApplied applies fix and checks that d is gone and nothing new
// came.
func checkFixApplied(t *testing.T, file, src string, before compiler.Diagnostics, d compiler.Diagnostic, fix compiler.Fix) {
	t.Helper()
	fixed, err := ApplyEdits([]byte(src), fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	after := LintSource(file, fixed, Options{})
	if addsFinding(before, after) {
		t.Errorf("the fixed text has a new finding:\n%s\n%v", fixed, after)
	}
	if countFindings(after)[keyOf(d.Rule, d.Summary)] >= countFindings(before)[keyOf(d.Rule, d.Summary)] {
		t.Errorf("the fixed text still has %s:\n%s", d.Rule, fixed)
	}
}

func findRule(diags compiler.Diagnostics, rule string) *compiler.Diagnostic {
	for i := range diags {
		if diags[i].Rule == rule {
			return &diags[i]
		}
	}
	return nil
}

func edit(start, end int, text string) compiler.Edit {
	return compiler.Edit{Range: compiler.Range{Start: compiler.Pos{Byte: start}, End: compiler.Pos{Byte: end}}, NewText: text}
}

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name  string
		edits []compiler.Edit
		want  string // "" with err
		err   string
	}{
		{"none", nil, "abcdef", ""},
		{"replace", []compiler.Edit{edit(1, 3, "XY")}, "aXYdef", ""},
		{"insert and delete, any order", []compiler.Edit{edit(5, 6, ""), edit(0, 0, ">")}, ">abcde", ""},
		{"adjacent", []compiler.Edit{edit(0, 2, "1"), edit(2, 4, "2")}, "12ef", ""},
		{"insert after a replacement", []compiler.Edit{edit(0, 2, "1"), edit(2, 2, "2")}, "12cdef", ""},
		{"overlap", []compiler.Edit{edit(0, 3, ""), edit(2, 4, "")}, "", "overlap"},
		{"two inserts at one place", []compiler.Edit{edit(1, 1, "x"), edit(1, 1, "y")}, "", "overlap"},
		{"past the end", []compiler.Edit{edit(4, 9, "")}, "", "outside"},
		{"backwards", []compiler.Edit{edit(3, 2, "")}, "", "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyEdits([]byte("abcdef"), tt.edits)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestFindingKey: a fix check compares findings without their places,
// and without a line number a message names, which a fix that adds lines
// moves.
func TestFindingKey(t *testing.T) {
	tests := []struct{ a, b string }{
		{"the numbered list on line 54 starts again at 1", "the numbered list on line 58 starts again at 1"},
		{"the list on line 3 is a table, not steps", "the list on line 12 is a table, not steps"},
	}
	for _, tt := range tests {
		if keyOf("r", tt.a) != keyOf("r", tt.b) {
			t.Errorf("%q and %q are different findings", tt.a, tt.b)
		}
	}
	if keyOf("r", "step \"1\" goes to \"5\"") == keyOf("r", "step \"1\" goes to \"6\"") {
		t.Error("other numbers must still tell findings apart")
	}
}
