package termsafe

import (
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"List ACAT transfers.", "List ACAT transfers."},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"a\x1b[31mred", `a\x1b[31mred`},
		{"cr\rover", `cr\x0dover`},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`},
		{"c1 \u009b2J and \u0085", `c1 \u009b2J and \u0085`},
		{"not utf-8 \xff\xa0", `not utf-8 \xff\xa0`},
		{"real \ufffd and é 日本", "real \ufffd and é 日本"},
		{"no-break\u00a0space", "no-break\u00a0space"},
	}
	for _, tc := range tests {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzEscape: the result is valid UTF-8 and holds no character a terminal
// acts on, whatever the input.
func FuzzEscape(f *testing.F) {
	f.Add("\x1b]0;pwned\x07")
	f.Add("\u009b\xff\tok\n")
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, got)
		}
		for i, r := range got {
			if acts(r, utf8.RuneLen(r)) {
				t.Fatalf("Escape(%q) = %q: %U at %d", s, got, r, i)
			}
		}
	})
}
