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
	src := []byte("héllo wörld [a](#b) ☃☃ x\n\xe2\x82 bad \xff seq é\n\nlast line ü")
	naive := func(off int) Pos {
		line, start := 1, 0
		for i := 0; i < off; i++ {
			if src[i] == '\n' {
				line, start = line+1, i+1
			}
		}
		return Pos{Line: line, Column: utf8.RuneCount(src[start:off]) + 1, Byte: off}
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
		x := newLineIndex("f.md", src, 0)
		for _, off := range offs {
			if got, want := x.pos(off), naive(off); got != want {
				t.Errorf("%s: pos(%d) = %+v, want %+v", name, off, got, want)
			}
		}
	}
}
