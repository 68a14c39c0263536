package lint

import (
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// TestFixesAreValid: the frontmatter a missing-frontmatter finding says to
// add, and the name line name-mismatch suggests, lint with no error the
// skill did not have; where no such fix exists, none is offered.
func TestFixesAreValid(t *testing.T) {
	const body = "# Refund check\n\n1. Look up the refund.\n"
	const fm = "---\nname: refund-check\ndescription: Checks a refund. Use when asked about one.\n---\n"
	tests := []struct {
		name, file, src, rule string
		// want is the fix offered ("" for none), applied by apply.
		want  string
		apply func(src, fix string) string
	}{
		{name: "README.md", file: "README.md", src: body, rule: "missing-frontmatter",
			want: "name: readme", apply: addFrontmatter},
		{name: "folder README.md", file: "docs/README.md", src: body, rule: "missing-frontmatter",
			want: "name: readme", apply: addFrontmatter},
		{name: "stdin", file: "<stdin>", src: body, rule: "missing-frontmatter",
			want: "name: stdin", apply: addFrontmatter},
		{name: "SKILL.md", file: "skills/refund/SKILL.md", src: body, rule: "missing-frontmatter",
			want: "name: refund", apply: addFrontmatter},
		// Any name but the folder's is name-mismatch, and the folder's is
		// not valid: there is no block to copy.
		{name: "SKILL.md in an invalid folder", file: "skills/Refund_Check/SKILL.md", src: body, rule: "missing-frontmatter"},
		{name: "mismatch", file: "skills/refund/SKILL.md", src: fm + body, rule: "name-mismatch",
			want: "name: refund", apply: func(src, fix string) string { return strings.Replace(src, "name: refund-check", fix, 1) }},
		{name: "mismatch, invalid folder", file: "skills/Refund_Check/SKILL.md", src: fm + body, rule: "name-mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := LintSource(tt.file, []byte(tt.src), Options{})
			d := findRule(diags, tt.rule)
			if d == nil {
				t.Fatalf("no %s finding in %v", tt.rule, diags)
			}
			fix := d.Suggestion
			if tt.rule == "missing-frontmatter" {
				fix = ""
				if block, ok := strings.CutPrefix(d.Detail, "add at the very top:\n"); ok {
					fix = strings.Split(block, "\n")[1]
				}
			}
			if fix != tt.want {
				t.Fatalf("fix = %q, want %q (detail %q)", fix, tt.want, d.Detail)
			}
			if fix == "" {
				return
			}
			fixed := tt.apply(tt.src, fix)
			after := LintSource(tt.file, []byte(fixed), Options{})
			before := errorsByRule(diags)
			for rule, n := range errorsByRule(after) {
				if n > before[rule] {
					t.Errorf("the fixed text has a new %s error:\n%s\n%v", rule, fixed, after)
				}
			}
			if findRule(after, tt.rule) != nil {
				t.Errorf("the fixed text still has %s:\n%s", tt.rule, fixed)
			}
		})
	}
}

func addFrontmatter(src, nameLine string) string {
	return "---\n" + nameLine + "\ndescription: What it does. Use when ...\n---\n" + src
}

func findRule(diags compiler.Diagnostics, rule string) *compiler.Diagnostic {
	for i := range diags {
		if diags[i].Rule == rule {
			return &diags[i]
		}
	}
	return nil
}
