package render

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// A PNG is written from bands of rows compressed apart (deflateBand), so
// that the rows can be painted and compressed on every core, each band as
// soon as it is painted. Each row has the Up filter (the row above
// subtracted): image/png tries five filters on every row and took most of
// a large drawing's time; a step graph is mostly background and long
// vertical edges, where Up does as well.

// band is the rows [y0, y1) of a picture, relative to its top.
type band struct{ y0, y1 int }

// minBandRows is the fewest rows in a band, so that a band's Huffman
// code (its header, a hundred bytes or so) is paid for by many rows and a
// mark seldom spans many bands.
var minBandRows = 64

// splitBands cuts height rows into bands, four a core so that cores that
// finish early take more, of minBandRows rows or more.
func splitBands(height int) []band {
	n := max(1, min(4*runtime.GOMAXPROCS(0), height/minBandRows))
	bands := make([]band, n)
	for i := range bands {
		bands[i] = band{i * height / n, (i + 1) * height / n}
	}
	return bands
}

// forEachBand runs do(worker, 0), ..., do(worker, n-1) on workers
// goroutines, worker being the goroutine's number, from 0.
func forEachBand(n, workers int, do func(worker, i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range min(n, workers) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				errs[i] = do(w, i)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// deflated is a band's rows, filtered and compressed, with the Adler-32
// of the filtered bytes and their count.
type deflated struct {
	data  []byte
	adler uint32
	n     int64
}

// deflateBand filters and compresses the rows of img, a band of a
// picture, RGB if opaque, else RGBA, as a deflate block of its own
// (zeroRuns). A PNG's image data is one zlib stream, but deflate blocks
// need not share a window: each band but the last ends in a sync flush
// (an empty stored block, byte-aligned), the last in the final block,
// and their concatenation is one valid deflate stream (what pigz does),
// whose Adler-32 is combined from the bands' (adler32Combine). A band's
// first row uses no filter, since the row above may belong to a band not
// drawn yet.
func deflateBand(img *image.RGBA, opaque bool, last bool) (deflated, error) {
	b := img.Bounds()
	width := b.Dx()
	bpp := 4
	if opaque {
		bpp = 3
	}
	z := newZeroRuns(bpp)
	row := make([]byte, 1+width*bpp)
	zero := make([]byte, 1+width*bpp)
	zero[0] = 2     // Up, and nothing changed
	var prev []byte // the raw row above; nil for the band's first
	if opaque {
		// Opaque pixels are stored as they are (no un-premultiplying), so
		// Up's difference is taken on the raw rows, with no copy of the
		// converted row above kept, and a row equal to the one above (most
		// of a step graph: white space and vertical edges) is all zeros
		// without a look at its pixels.
		for y := b.Min.Y; y < b.Max.Y; y++ {
			pix := img.Pix[img.PixOffset(b.Min.X, y):][:width*4]
			out := row
			switch {
			case prev != nil && bytes.Equal(pix, prev):
				out = zero
			case prev != nil:
				row[0] = 2 // Up
				// Most pixels are the ones above them (background, lines
				// across the band): the row starts as zeros, and four
				// pixels at a time that are unchanged are skipped.
				clear(row[1:])
				x := 0
				for ; x+4 <= width; x += 4 {
					i := 4 * x
					if binary.LittleEndian.Uint64(pix[i:]) != binary.LittleEndian.Uint64(prev[i:]) ||
						binary.LittleEndian.Uint64(pix[i+8:]) != binary.LittleEndian.Uint64(prev[i+8:]) {
						upRGB(row[1+3*x:], pix[i:i+16], prev[i:i+16])
					}
				}
				upRGB(row[1+3*x:], pix[4*x:], prev[4*x:])
			default:
				row[0] = 0 // None
				for x, j := 0, 1; x < width; x, j = x+1, j+3 {
					row[j], row[j+1], row[j+2] = pix[4*x], pix[4*x+1], pix[4*x+2]
				}
			}
			z.row(out)
			prev = pix
		}
	} else {
		up := make([]byte, width*bpp) // zero: the first row's difference is the row itself
		cur := make([]byte, width*bpp)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row[0] = 2 // Up
			if y == b.Min.Y {
				row[0] = 0 // None
			}
			pix := img.Pix[img.PixOffset(b.Min.X, y):][:width*4]
			for x, j := 0, 0; x < width; x, j = x+1, j+4 {
				r, g, bl, a := pix[4*x], pix[4*x+1], pix[4*x+2], pix[4*x+3]
				if a != 0 && a != 0xff { // un-premultiply
					r = uint8(uint32(r) * 0xff / uint32(a))
					g = uint8(uint32(g) * 0xff / uint32(a))
					bl = uint8(uint32(bl) * 0xff / uint32(a))
				}
				cur[j], cur[j+1], cur[j+2], cur[j+3] = r, g, bl, a
			}
			for i := range cur {
				row[1+i] = cur[i] - up[i]
			}
			z.row(row)
			up, cur = cur, up
		}
	}
	return z.finish(last), nil
}

// upRGB writes to out the RGB of the RGBA pixels p less those of q.
func upRGB(out, p, q []byte) {
	for i, j := 0, 0; i+4 <= len(p); i, j = i+4, j+3 {
		out[j], out[j+1], out[j+2] = p[i]-q[i], p[i+1]-q[i+1], p[i+2]-q[i+2]
	}
}

// adler32Combine is the Adler-32 of a stream whose first part has
// checksum a1 and whose second, of n2 bytes, has a2 (zlib's
// adler32_combine).
func adler32Combine(a1, a2 uint32, n2 int64) uint32 {
	const base = 65521
	rem := uint32(n2 % base)
	s1 := a1 & 0xffff
	s2 := rem * s1 % base
	s1 += (a2 & 0xffff) + base - 1
	s2 += (a1 >> 16) + (a2 >> 16) + base - rem
	if s1 >= base {
		s1 -= base
	}
	if s1 >= base {
		s1 -= base
	}
	if s2 >= 2*base {
		s2 -= 2 * base
	}
	if s2 >= base {
		s2 -= base
	}
	return s2<<16 | s1
}

// writePNG writes the PNG of a picture of bounds b whose rows parts holds,
// compressed band by band.
func writePNG(w io.Writer, b image.Rectangle, opaque bool, parts []deflated) error {
	colorType := byte(6) // RGBA
	if opaque {
		colorType = 2 // RGB
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(b.Dx()))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(b.Dy()))
	ihdr[8], ihdr[9] = 8, colorType // bit depth; compression, filter, interlace 0

	// The zlib stream: its header (deflate, 32 KB window, the fastest
	// level, as compress/zlib's BestSpeed writes), the bands, the Adler-32.
	idat := [][]byte{{0x78, 0x01}}
	sum := uint32(1) // the Adler-32 of nothing
	for _, p := range parts {
		idat = append(idat, p.data)
		sum = adler32Combine(sum, p.adler, p.n)
	}
	idat = append(idat, binary.BigEndian.AppendUint32(nil, sum))

	bw := bufio.NewWriter(w)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, parts ...[]byte) {
		var n [4]byte
		size := 0
		for _, p := range parts {
			size += len(p)
		}
		binary.BigEndian.PutUint32(n[:], uint32(size))
		bw.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		bw.WriteString(typ)
		for _, p := range parts {
			crc.Write(p)
			bw.Write(p)
		}
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		bw.Write(n[:])
	}
	chunk("IHDR", ihdr[:])
	chunk("IDAT", idat...)
	chunk("IEND")
	return bw.Flush()
}
