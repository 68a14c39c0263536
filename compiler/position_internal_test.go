package compiler

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestLineIndexColumns checks the remembered column of the previous lookup
// against a count from the start of the line, for offsets asked for in
// file order, backwards and at random, on lines with multi-byte and
// invalid UTF-8.
func TestLineIndexColumns(t *testing.T) {
	for _, src := range [][]byte{
		[]byte("héllo wörld [a](#b) ☃☃ x\n\xe2\x82 bad \xff seq é\n\nlast line ü"),
		// ASCII up to the middle of a line, where columns stop being
		// byte counts.
		[]byte("plain ascii\nstill plain, then é and \xff\nmore ü\n"),
		[]byte("all ascii\n\nlines\n"),
	} {
		testLineIndexColumns(t, src)
	}
}

func testLineIndexColumns(t *testing.T, src []byte) {
	naive := func(off int) Pos {
		line, start := 1, 0
		for i := 0; i < off; i++ {
			if src[i] == '\n' {
				line, start = line+1, i+1
			}
		}
		return Pos{Line: int32(line), Column: int32(utf8.RuneCount(src[start:off]) + 1), Byte: off}
	}
	orders := map[string][]int{}
	var fwd, back []int
	for i := 0; i <= len(src); i++ {
		fwd = append(fwd, i)
		back = append(back, len(src)-i)
	}
	orders["forward"], orders["backward"] = fwd, back
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]int, 500)
	for i := range random {
		random[i] = r.IntN(len(src) + 1)
	}
	orders["random"] = random
	for name, offs := range orders {
		x := newLineIndex(src, 0)
		for _, off := range offs {
			if got, want := x.pos(off), naive(off); got != want {
				t.Errorf("%q %s: pos(%d) = %+v, want %+v", src, name, off, got, want)
			}
		}
		// Ranges move both cursors: a start and an end at random.
		x = newLineIndex(src, 0)
		for i := 0; i+1 < len(offs); i += 2 {
			s, e := min(offs[i], offs[i+1]), max(offs[i], offs[i+1])
			if got := x.rng(s, e); got.Start != naive(s) || got.End != naive(e) {
				t.Errorf("%q %s: rng(%d, %d) = %+v, want %+v to %+v", src, name, s, e, got, naive(s), naive(e))
			}
		}
	}
}
