package graph

import (
	"strings"
	"unicode/utf8"
)

// wrapWidth is how many characters a node's line holds before it wraps: a
// box about as wide as a short sentence, so long goals grow down, not out.
const wrapWidth = 28

// wrap breaks text into lines of at most width characters at spaces; a word
// longer than a line (a URL, a long tool name) is cut into line-sized parts.
// Hand-written: the standard library has no word wrap and the text is tiny.
func wrap(text string, width int) []string {
	var lines []string
	var line strings.Builder
	n := 0 // characters on line
	for _, word := range strings.Fields(text) {
		for utf8.RuneCountInString(word) > width {
			if n > 0 {
				lines = append(lines, line.String())
				line.Reset()
				n = 0
			}
			cut := 0
			for i := 0; i < width; i++ {
				_, size := utf8.DecodeRuneInString(word[cut:])
				cut += size
			}
			lines = append(lines, word[:cut])
			word = word[cut:]
		}
		w := utf8.RuneCountInString(word)
		if w == 0 {
			continue
		}
		if n > 0 && n+1+w > width {
			lines = append(lines, line.String())
			line.Reset()
			n = 0
		}
		if n > 0 {
			line.WriteByte(' ')
			n++
		}
		line.WriteString(word)
		n += w
	}
	if n > 0 {
		lines = append(lines, line.String())
	}
	return lines
}
