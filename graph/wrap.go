package graph

import (
	"strings"
	"unicode/utf8"
)

// wrapWidth is how many characters a node's line holds before it wraps: a
// box about as wide as a short sentence, so long goals grow down, not out.
const wrapWidth = 28

// minSplit is the least room a line must have left to take the start of a
// word too long for any line.
const minSplit = 8

// wrap breaks text into lines of at most width characters at spaces; a word
// longer than a line (a URL, a long tool name) is cut into line-sized parts.
// Hand-written: the standard library has no word wrap and the text is tiny.
func wrap(text string, width int) []string {
	var lines []string
	var line strings.Builder
	n := 0 // characters on line
	for _, word := range strings.Fields(text) {
		for utf8.RuneCountInString(word) > width {
			// A word too long for any line starts on the current one when
			// a fair part of it fits ("tools: search_customer_re"), so a
			// short lead word is not left alone on its line.
			room := width
			if n > 0 {
				room = width - n - 1
				if room < minSplit {
					lines = append(lines, line.String())
					line.Reset()
					n, room = 0, width
				} else {
					line.WriteByte(' ')
				}
			}
			cut := 0
			for i := 0; i < room; i++ {
				_, size := utf8.DecodeRuneInString(word[cut:])
				cut += size
			}
			line.WriteString(word[:cut])
			lines = append(lines, line.String())
			line.Reset()
			n = 0
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
