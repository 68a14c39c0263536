package render

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// zeroRuns compresses a band's filtered rows as one deflate block
// (RFC 1951) whose only back-references are runs of zeros (at distance
// 1) and runs of one pixel repeated (at the distance of a pixel: a
// line or fill across a row), with a Huffman code made for the band. A
// step graph's rows, Up-filtered, are nearly all zeros: a 1,000-step
// picture is 31,000 rows of 6,400 bytes with a few dozen non-zero bytes
// each. compress/flate's fastest level spent most of its time there
// building a Huffman code for every 64 KB block of zeros, and finding
// each run again byte by byte; it was 60% of the painting. Here zero runs are found 8 bytes at a time and
// their Adler-32 is computed without reading them, and the band has one
// code: painting 1,000 steps takes 177 ms instead of 285
// (BenchmarkPaintPNG), and the file is 11% smaller (1% for the README's
// picture). Hand-written because no Go deflate library takes runs a
// caller has found, or one code for a long block.
type zeroRuns struct {
	// A literal byte (0-255), or a run: 256 + its length (3-258), and
	// its distance code (0 for 1, or that of a pixel's size) << 10.
	tokens   []uint16
	prevZero bool // the last byte of the stream is a zero (a run can refer to it)
	bpp      int  // bytes a pixel

	s1, s2 uint32 // the Adler-32 of the bytes so far
	unmod  int    // bytes added to s1 and s2 since they were reduced
	n      int64  // bytes so far
}

const adlerBase = 65521

// adlerMax is the most bytes added before s1 and s2 are reduced (zlib's
// NMAX): s2 stays within 32 bits.
const adlerMax = 5552

// newZeroRuns starts a band of pixels of bpp bytes (3 or 4).
func newZeroRuns(bpp int) *zeroRuns { return &zeroRuns{s1: 1, bpp: bpp} }

// distCode is the distance code of each distance a run may have
// (3.2.5): 1, 3 or 4, none with extra bits.
var distCode = [5]uint16{1: 0, 3: 2, 4: 3}

// literal adds the byte b.
func (z *zeroRuns) literal(b byte) {
	z.tokens = append(z.tokens, uint16(b))
	z.prevZero = b == 0
	z.s1 += uint32(b)
	z.s2 += z.s1
	if z.unmod++; z.unmod == adlerMax {
		z.reduce()
	}
}

func (z *zeroRuns) reduce() {
	z.s1 %= adlerBase
	z.s2 %= adlerBase
	z.unmod = 0
}

// zeros adds a run of l zeros.
func (z *zeroRuns) zeros(l int) {
	if !z.prevZero {
		z.literal(0)
		l--
	}
	// The run's Adler-32: s1 is unchanged, s2 grows by s1 a byte.
	z.reduce()
	z.s2 = uint32((uint64(z.s2) + uint64(l%adlerBase)*uint64(z.s1)) % adlerBase)
	for range z.runs(l, 0) {
		z.tokens = append(z.tokens, 0)
	}
}

// runs adds back-references of distance code dist for l bytes, each of
// 3 to 258, and returns the bytes they leave, fewer than 3, to be added
// as literals.
func (z *zeroRuns) runs(l int, dist uint16) int {
	for l >= 3 {
		m := min(l, 258)
		if r := l - m; r > 0 && r < 3 {
			m = l - 3 // leave a run a match can take
		}
		z.tokens = append(z.tokens, uint16(256+m)|dist<<10)
		l -= m
	}
	return l
}

// repeats adds r, which repeats the bpp bytes before it, as runs at that
// distance.
func (z *zeroRuns) repeats(r []byte) {
	for _, b := range r { // the Adler-32, as literal does
		z.s1 += uint32(b)
		z.s2 += z.s1
		if z.unmod++; z.unmod == adlerMax {
			z.reduce()
		}
	}
	l := z.runs(len(r), distCode[z.bpp])
	for _, b := range r[len(r)-l:] {
		z.tokens = append(z.tokens, uint16(b))
	}
	z.prevZero = r[len(r)-1] == 0
}

// row adds the bytes of a filtered row.
func (z *zeroRuns) row(r []byte) {
	z.n += int64(len(r))
	bpp := z.bpp
	for i := 0; i < len(r); {
		if r[i] != 0 {
			// A pixel repeated: a line or a fill across the row.
			j := i
			if i > bpp {
				for j < len(r) && r[j] == r[j-bpp] {
					j++
				}
			}
			if j-i >= 3 {
				z.repeats(r[i:j])
				i = j
				continue
			}
			z.literal(r[i])
			i++
			continue
		}
		j := i + 1
		for j+8 <= len(r) && binary.LittleEndian.Uint64(r[j:]) == 0 {
			j += 8
		}
		for j < len(r) && r[j] == 0 {
			j++
		}
		z.zeros(j - i)
		i = j
	}
}

// lengthSym is, for each run length (3-258), its length code (257-285),
// the count of its extra bits and their value (RFC 1951, 3.2.5).
var lengthSym = func() (t [259]struct {
	sym   uint16
	extra uint8
	value uint16
}) {
	base := [29]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	extra := [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	for i := range base {
		last := 258
		switch {
		case i == 27:
			last = 257 // 258 has a code of its own, 285
		case i < 27:
			last = base[i+1] - 1
		}
		for l := base[i]; l <= last; l++ {
			t[l].sym, t[l].extra, t[l].value = uint16(257+i), extra[i], uint16(l-base[i])
		}
	}
	return t
}()

// bitWriter writes a deflate stream's bits, the first in the low bits of
// each byte.
type bitWriter struct {
	out   []byte
	bits  uint64
	nbits uint
}

func (w *bitWriter) write(bits uint32, n uint) {
	w.bits |= uint64(bits) << w.nbits
	w.nbits += n
	if w.nbits >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.bits))
		w.bits >>= 32
		w.nbits -= 32
	}
}

// align writes the bits not yet written, up to a whole byte.
func (w *bitWriter) align() {
	for ; w.nbits > 0; w.nbits -= min(w.nbits, 8) {
		w.out = append(w.out, byte(w.bits))
		w.bits >>= 8
	}
	w.bits = 0
}

// finish writes the band as one block with a Huffman code of its own
// (BTYPE 10): the last band's block is the stream's final one; any other
// is followed by an empty stored block, which ends on a byte, so that the
// next band's block can follow it (a sync flush, as flate.Writer.Flush
// writes).
func (z *zeroRuns) finish(last bool) deflated {
	var freq [286]int
	var dfreq [4]int
	for _, t := range z.tokens {
		if t < 256 {
			freq[t]++
		} else {
			freq[lengthSym[t&0x3ff-256].sym]++
			dfreq[t>>10]++
		}
	}
	freq[256] = 1 // the end of the block
	litLen := huffmanLengths(freq[:], 15)
	litCodes := canonicalCodes(litLen)
	nlit := codesUsed(litLen, 257)
	if dfreq == [4]int{} {
		dfreq[0] = 1 // no runs: one distance code all the same
	}
	distLen := huffmanLengths(dfreq[:], 15) // a single code gets one bit, which 3.2.7 allows
	distCodes := canonicalCodes(distLen)
	ndist := codesUsed(distLen, 1)
	lengths := append(append([]uint8{}, litLen[:nlit]...), distLen[:ndist]...)

	var w bitWriter
	header := uint32(2 << 1) // BTYPE 10
	if last {
		header |= 1 // BFINAL
	}
	w.write(header, 3)
	writeCodeLengths(&w, lengths, nlit)
	for _, t := range z.tokens {
		if t < 256 {
			c := litCodes[t]
			w.write(c.bits, uint(c.n))
			continue
		}
		l := lengthSym[t&0x3ff-256]
		c := litCodes[l.sym]
		w.write(c.bits, uint(c.n))
		w.write(uint32(l.value), uint(l.extra))
		d := distCodes[t>>10]
		w.write(d.bits, uint(d.n))
	}
	c := litCodes[256]
	w.write(c.bits, uint(c.n))
	if !last {
		w.write(0, 3) // BFINAL 0, BTYPE 00: stored
	}
	w.align()
	if !last {
		w.out = append(w.out, 0, 0, 0xff, 0xff) // LEN 0, NLEN
	}
	z.reduce()
	return deflated{data: w.out, adler: z.s2<<16 | z.s1, n: z.n}
}

// codesUsed is the count of codes a header must list: up to the last of
// lengths that is used, and at least least (the format's fewest).
func codesUsed(lengths []uint8, least int) int {
	for n := len(lengths); n > least; n-- {
		if lengths[n-1] > 0 {
			return n
		}
	}
	return least
}

// clOrder is the order code-length code lengths are written in (3.2.7).
var clOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// writeCodeLengths writes a dynamic block's header after BTYPE: the
// counts, then the code lengths of the nlit literal/length codes and the
// distance codes (the rest of lengths), run-length coded (16: repeat the
// last 3-6 times, 17: 3-10 zeros, 18: 11-138 zeros) in a Huffman code of
// their own.
func writeCodeLengths(w *bitWriter, lengths []uint8, nlit int) {
	type clSym struct{ sym, extra, value uint8 }
	var syms []clSym
	for i := 0; i < len(lengths); {
		l := lengths[i]
		j := i + 1
		for j < len(lengths) && lengths[j] == l {
			j++
		}
		n := j - i
		switch {
		case l == 0:
			for n >= 11 {
				k := min(n, 138)
				syms = append(syms, clSym{18, 7, uint8(k - 11)})
				n -= k
			}
			if n >= 3 {
				syms = append(syms, clSym{17, 3, uint8(n - 3)})
				n = 0
			}
		default:
			syms = append(syms, clSym{sym: l})
			n--
			for n >= 3 {
				k := min(n, 6)
				syms = append(syms, clSym{16, 2, uint8(k - 3)})
				n -= k
			}
		}
		for range n {
			syms = append(syms, clSym{sym: l})
		}
		i = j
	}
	// zlib refuses an incomplete code for the code lengths, which one
	// symbol alone would have; but two always occur: there are 258
	// lengths or more, EOB's is not 0, so either two lengths differ or
	// one is repeated (16).
	var freq [19]int
	for _, s := range syms {
		freq[s.sym]++
	}
	clLen := huffmanLengths(freq[:], 7)
	clCodes := canonicalCodes(clLen)
	ncl := 4
	for i := len(clOrder) - 1; i >= 4; i-- {
		if clLen[clOrder[i]] > 0 {
			ncl = i + 1
			break
		}
	}
	w.write(uint32(nlit-257), 5)
	w.write(uint32(len(lengths)-nlit-1), 5)
	w.write(uint32(ncl-4), 4)
	for _, s := range clOrder[:ncl] {
		w.write(uint32(clLen[s]), 3)
	}
	for _, s := range syms {
		c := clCodes[s.sym]
		w.write(c.bits, uint(c.n))
		w.write(uint32(s.value), uint(s.extra))
	}
}

// code is a Huffman code's bits, reversed (deflate sends a code from its
// high bit, 3.1.1), and their count.
type code struct {
	bits uint32
	n    uint8
}

// huffmanLengths is the length of each symbol's Huffman code for the
// frequencies freq, none longer than maxBits; 0 for a symbol that does
// not occur. One symbol alone gets a length of 1. Past maxBits, the
// frequencies are halved (rare ones kept at 1) until the code fits,
// which costs little: only a code of rare symbols grows that deep.
func huffmanLengths(freq []int, maxBits int) []uint8 {
	f := append([]int{}, freq...)
	for {
		lengths, deepest := huffman(f)
		if deepest <= maxBits {
			return lengths
		}
		for i := range f {
			if f[i] > 0 {
				f[i] = (f[i] + 1) / 2
			}
		}
	}
}

// huffman is the lengths of an optimal prefix code for freq, and the
// longest.
func huffman(freq []int) ([]uint8, int) {
	lengths := make([]uint8, len(freq))
	var leaves []int // symbols, by frequency
	for s, n := range freq {
		if n > 0 {
			leaves = append(leaves, s)
		}
	}
	switch len(leaves) {
	case 0:
		return lengths, 0
	case 1:
		lengths[leaves[0]] = 1
		return lengths, 1
	}
	slices.SortStableFunc(leaves, func(a, b int) int { return cmp.Compare(freq[a], freq[b]) })
	// Two queues (van Leeuwen): the leaves by frequency, and the inner
	// nodes as they are made, which come in order of frequency too.
	// Nodes 0..n-1 are the leaves, n.. the inner nodes.
	n := len(leaves)
	weight := make([]int, 2*n-1)
	parent := make([]int, 2*n-1)
	for i, s := range leaves {
		weight[i] = freq[s]
	}
	nextLeaf, nextInner := 0, n
	take := func(made int) int {
		if nextLeaf < n && (nextInner >= made || weight[nextLeaf] <= weight[nextInner]) {
			nextLeaf++
			return nextLeaf - 1
		}
		nextInner++
		return nextInner - 1
	}
	for made := n; made < 2*n-1; made++ {
		a := take(made)
		b := take(made)
		weight[made] = weight[a] + weight[b]
		parent[a], parent[b] = made, made
	}
	depth := make([]int, 2*n-1)
	deepest := 0
	for i := 2*n - 3; i >= 0; i-- { // the root, 2n-2, is at depth 0
		depth[i] = depth[parent[i]] + 1
		if i < n {
			lengths[leaves[i]] = uint8(depth[i])
			deepest = max(deepest, depth[i])
		}
	}
	return lengths, deepest
}

// canonicalCodes gives each symbol its code of the canonical Huffman code
// of these lengths (3.2.2), reversed.
func canonicalCodes(lengths []uint8) []code {
	var count [16]int
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [16]uint32
	c := uint32(0)
	for bits := 1; bits < 16; bits++ {
		c = (c + uint32(count[bits-1])) << 1
		next[bits] = c
	}
	codes := make([]code, len(lengths))
	for s, l := range lengths {
		if l == 0 {
			continue
		}
		codes[s] = code{reverse(next[l], uint(l)), l}
		next[l]++
	}
	return codes
}

func reverse(v uint32, n uint) uint32 {
	var r uint32
	for range n {
		r = r<<1 | v&1
		v >>= 1
	}
	return r
}
