package compiler

import (
	"strings"
	"testing"
)

// TestHasPrefixFold holds hasPrefixFold to strings.EqualFold on the
// prefixes it is given, and every rule lead to its precondition: a
// lowercase ASCII first letter that no other letter folds to.
func TestHasPrefixFold(t *testing.T) {
	prefixes := append([]string{"repeat", "loop", "iterate"}, ruleLeads...)
	for _, p := range prefixes {
		if c := p[0]; c < 'a' || c > 'z' || c == 'k' || c == 's' {
			t.Errorf("prefix %q: hasPrefixFold needs a first letter a-z other than k and s", p)
		}
	}
	texts := []string{"", "r", "Repeat", "REPEAT the loop", "repeat", "rePEAT", "Loop", "loo", "ITERATE",
		"Always ", "always check", "ALWAYS ", "Never", "never ", "DON’T ", "don’t go", "Do not ", "MUST NOT ",
		"Ｒepeat", "\u212aeep", "ſtop", "", "x", "\xff\xfe", "répeat"}
	for _, p := range prefixes {
		for _, s := range texts {
			want := len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
			if got := hasPrefixFold(s, p); got != want {
				t.Errorf("hasPrefixFold(%q, %q) = %v, want %v", s, p, got, want)
			}
		}
	}
}
