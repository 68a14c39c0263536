package compiler

import (
	"math/rand/v2"
	"testing"
)

// TestTextWriterCollapses holds textWriter to the rule it implements,
// written out byte by byte: runs of white space become one newline (when
// breaks are kept and the run has one) or one space, and nothing is left
// at either end; the text may arrive in any number of pieces.
func TestTextWriterCollapses(t *testing.T) {
	collapse := func(pieces [][]byte, keepBreaks bool) string {
		var out []byte
		space, newline := false, false
		for _, p := range pieces {
			for _, ch := range p {
				if !collapsible[ch] {
					if len(out) > 0 && newline {
						out = append(out, '\n')
					} else if len(out) > 0 && space {
						out = append(out, ' ')
					}
					space, newline = false, false
					out = append(out, ch)
				} else if ch == '\n' && keepBreaks {
					newline = true
				} else {
					space = true
				}
			}
		}
		return string(out)
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("ab  \t\n\r\f\vé.")
	for range 5000 {
		var pieces [][]byte
		for range r.IntN(4) + 1 {
			p := make([]byte, r.IntN(12))
			for i := range p {
				p[i] = alphabet[r.IntN(len(alphabet))]
			}
			pieces = append(pieces, p)
		}
		for _, keep := range []bool{false, true} {
			w := textWriter{keepBreaks: keep}
			for _, p := range pieces {
				w.write(p)
			}
			if got, want := w.String(), collapse(pieces, keep); got != want {
				t.Fatalf("write(%q) keepBreaks=%v = %q, want %q", pieces, keep, got, want)
			}
		}
	}
}
