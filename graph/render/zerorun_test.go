package render

import (
	"bytes"
	"compress/flate"
	"hash/adler32"
	"io"
	"math/rand/v2"
	"testing"
)

// TestZeroRunsRoundTrip: what zeroRuns writes, band after band, inflates
// (with compress/flate's reader) to the rows it was given, with their
// Adler-32, whatever the rows hold: zeros, pixels repeated, noise, and
// runs of every length around the limits of a match (3, 258).
func TestZeroRunsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rowOf := func(kind, width, bpp int) []byte {
		r := make([]byte, 1+width*bpp)
		r[0] = byte(kind % 5)
		switch kind % 4 {
		case 0: // zeros with a few specks
			for range 3 {
				r[1+rng.IntN(len(r)-1)] = byte(rng.IntN(256))
			}
		case 1: // noise
			for i := 1; i < len(r); i++ {
				r[i] = byte(rng.IntN(256))
			}
		case 2: // a pixel repeated, then zeros, of random lengths
			px := []byte{0x4a, 0, 0x55, 0x68}[:bpp]
			n := rng.IntN(width)
			for i := range n * bpp {
				r[1+i] = px[i%bpp]
			}
		case 3: // runs of zeros of each length near 3 and 258
			i := 1
			for i < len(r) {
				r[i] = 7
				i += 1 + []int{1, 2, 3, 4, 257, 258, 259, 260, 261, 516, 517}[rng.IntN(11)]
			}
		}
		return r
	}
	for _, bpp := range []int{3, 4} {
		for _, width := range []int{1, 2, 5, 97, 300} {
			var stream, want []byte
			bands := 1 + rng.IntN(4)
			sum := uint32(1)
			for b := range bands {
				z := newZeroRuns(bpp)
				for k := range 1 + rng.IntN(40) {
					r := rowOf(k+b, width, bpp)
					want = append(want, r...)
					z.row(r)
				}
				d := z.finish(b == bands-1)
				stream = append(stream, d.data...)
				sum = adler32Combine(sum, d.adler, d.n)
			}
			got, err := io.ReadAll(flate.NewReader(bytes.NewReader(stream)))
			if err != nil {
				t.Fatalf("bpp %d, width %d, %d bands: %v", bpp, width, bands, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("bpp %d, width %d, %d bands: %d bytes inflated, want %d, or they differ", bpp, width, bands, len(got), len(want))
			}
			if sum != adler32.Checksum(want) {
				t.Fatalf("bpp %d, width %d: Adler-32 %08x, want %08x", bpp, width, sum, adler32.Checksum(want))
			}
		}
	}
}

// TestHuffmanLengths: the code lengths make a prefix code (Kraft's sum
// is 1 for a code of two symbols or more) no deeper than asked, even for
// frequencies whose optimal code is far deeper (Fibonacci's).
func TestHuffmanLengths(t *testing.T) {
	fib := make([]int, 40)
	fib[0], fib[1] = 1, 1
	for i := 2; i < len(fib); i++ {
		fib[i] = fib[i-1] + fib[i-2]
	}
	for _, tt := range []struct {
		freq    []int
		maxBits int
	}{
		{fib, 15},
		{fib[:20], 7},
		{[]int{0, 5, 0}, 15},
		{[]int{3, 0, 9}, 15},
		{[]int{1, 1, 1, 1, 1}, 3},
	} {
		lengths := huffmanLengths(tt.freq, tt.maxBits)
		kraft, used := 0.0, 0
		for s, l := range lengths {
			if (l > 0) != (tt.freq[s] > 0) || int(l) > tt.maxBits {
				t.Fatalf("%v (at most %d bits): symbol %d has length %d", tt.freq, tt.maxBits, s, l)
			}
			if l > 0 {
				used++
				kraft += 1 / float64(uint(1)<<l)
			}
		}
		if used > 1 && kraft != 1 {
			t.Errorf("%v: lengths %v sum to %g by Kraft, want 1", tt.freq, lengths, kraft)
		}
	}
}
