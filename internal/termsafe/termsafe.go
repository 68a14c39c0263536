// Package termsafe shows text that came from input (a skill, a plan's
// title, a goal, a note) on a terminal so that the terminal displays it and
// does not obey it: a title of "\x1b]0;pwned\x07" must not retitle the
// window, nor a goal move the cursor or clear the screen.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character a terminal would act on written as
// a Go-style escape: the C0 controls other than tab and newline (ESC is
// \x1b, BEL \x07, CR \x0d), DEL (\x7f), the C1 controls U+0080-U+009F
// (\u009b, which some terminals take for CSI), and each byte that is not
// UTF-8 (\xff). Tab and newline stay, so multi-line text keeps its lines.
// Text without such characters comes back as it is, without a copy.
//
// A backslash is not escaped: the point is a terminal that is not driven,
// not text that can be read back.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if acts(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !acts(r, size):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError || r < utf8.RuneSelf:
			// One byte: a C0 control, DEL, or a byte that is not UTF-8.
			fmt.Fprintf(&b, `\x%02x`, s[i])
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// acts reports whether the character r, size bytes long, would be acted on
// rather than shown.
func acts(r rune, size int) bool {
	switch {
	case r == utf8.RuneError:
		return size == 1 // a real U+FFFD is text
	case r == '\t' || r == '\n':
		return false
	}
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f
}
