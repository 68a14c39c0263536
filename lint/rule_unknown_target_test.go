package lint

import (
	"fmt"
	"testing"
)

// TestUnknownTargetFix: a near-miss target gets one fix (safe: one edit
// away, the only candidate) that
// writes the step ID (keeping the # of #id) and clears the finding; a
// number or a target with no near miss gets none.
func TestUnknownTargetFix(t *testing.T) {
	const steps = "# T\n\n1. Look it up. {#look}\n2. Ask. {#ask}\n%s\n3. Clarify. {#clarify}\n"
	tests := []struct {
		name, bullet string
		want         string // the fixed bullet, "" for no fix
	}{
		{"bare id", "   - yes: clarfy", "   - yes: clarify"},
		{"hash id", "   - on failure: #clarfy", "   - on failure: #clarify"},
		{"non-ASCII before it", "   - yes (é → ü): clarfy", "   - yes (é → ü): clarify"},
		{"number", "   - yes: 9", ""},
		{"no near miss", "   - yes: zzzzzz", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(fmt.Sprintf(steps, tt.bullet))
			d := findRule(LintSource("t.md", src, Options{}), "unknown-target")
			if d == nil {
				t.Fatal("no unknown-target finding")
			}
			if tt.want == "" {
				if len(d.Fixes) != 0 {
					t.Fatalf("fixes = %+v, want none", d.Fixes)
				}
				return
			}
			if len(d.Fixes) != 1 || !d.Fixes[0].Safe || len(d.Fixes[0].Edits) != 1 {
				t.Fatalf("fixes = %+v, want one safe fix of one edit", d.Fixes)
			}
			e := d.Fixes[0].Edits[0]
			fixed := string(src[:e.Range.Start.Byte]) + e.NewText + string(src[e.Range.End.Byte:])
			if want := fmt.Sprintf(steps, tt.want); fixed != want {
				t.Fatalf("fixed:\n%s\nwant:\n%s", fixed, want)
			}
			if d := findRule(LintSource("t.md", []byte(fixed), Options{}), "unknown-target"); d != nil {
				t.Fatalf("still %v", d)
			}
		})
	}
}
