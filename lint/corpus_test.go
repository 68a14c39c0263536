package lint

import (
	"bytes"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// TestBadInput: input the compiler refuses still gives findings, never a
// panic.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		max  int64
		rule string
	}{
		{"nul", []byte("# A\n\n1. Do\x00 it.\n"), 0, "invalid-encoding"},
		{"latin1", []byte("# A\n\n1. Caf\xe9.\n"), 0, "invalid-encoding"},
		{"too large", bytes.Repeat([]byte("a"), 100), 10, "file-too-large"},
		{"unclosed frontmatter", []byte("---\nname: a\n# A\n"), 0, "invalid-frontmatter"},
		{"empty", nil, 0, "no-steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := LintSource("a.md", tt.src, Options{MaxSize: tt.max})
			found := false
			for _, d := range diags {
				found = found || d.Rule == tt.rule
				if d.Severity < compiler.SeverityInfo || d.Severity > compiler.SeverityError {
					t.Errorf("bad severity: %v", d)
				}
			}
			if !found {
				t.Errorf("no %s finding: %v", tt.rule, diags)
			}
		})
	}
}
