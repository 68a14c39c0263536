package render

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
)

// encodePNG writes img as a PNG, RGB when it is opaque, else RGBA, each
// row with the Up filter (the row above subtracted). image/png tries five
// filters on every row and took most of a large drawing's time; a step
// graph is mostly background and long vertical edges, where Up does as
// well.
func encodePNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	opaque := img.Opaque()
	bpp, colorType := 4, byte(6)
	if opaque {
		bpp, colorType = 3, 2
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, colorType // bit depth; compression, filter, interlace 0

	var data bytes.Buffer
	zw, err := zlib.NewWriterLevel(&data, zlib.BestSpeed)
	if err != nil {
		return err
	}
	row := make([]byte, 1+width*bpp)
	row[0] = 2 // Up
	zero := make([]byte, 1+width*bpp)
	zero[0] = 2
	var prev []byte // the raw row above; nil for the first, which Up leaves as it is
	if opaque {
		// Opaque pixels are stored as they are (no un-premultiplying), so
		// Up's difference is taken on the raw rows, with no copy of the
		// converted row above kept, and a row equal to the one above (most
		// of a step graph: white space and vertical edges) is all zeros
		// without a look at its pixels.
		for y := 0; y < height; y++ {
			pix := img.Pix[y*img.Stride : y*img.Stride+width*4]
			out := row
			switch {
			case prev != nil && bytes.Equal(pix, prev):
				out = zero
			case prev != nil:
				for x, j := 0, 1; x < width; x, j = x+1, j+3 {
					p, q := pix[4*x:4*x+3:4*x+3], prev[4*x:4*x+3:4*x+3]
					row[j], row[j+1], row[j+2] = p[0]-q[0], p[1]-q[1], p[2]-q[2]
				}
			default:
				for x, j := 0, 1; x < width; x, j = x+1, j+3 {
					row[j], row[j+1], row[j+2] = pix[4*x], pix[4*x+1], pix[4*x+2]
				}
			}
			if _, err := zw.Write(out); err != nil {
				return err
			}
			prev = pix
		}
	} else {
		up := make([]byte, width*bpp)
		cur := make([]byte, width*bpp)
		for y := 0; y < height; y++ {
			pix := img.Pix[y*img.Stride : y*img.Stride+width*4]
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
			if _, err := zw.Write(row); err != nil {
				return err
			}
			up, cur = cur, up
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}

	bw := bufio.NewWriter(w)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, p []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(p)))
		bw.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(p)
		bw.WriteString(typ)
		bw.Write(p)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		bw.Write(n[:])
	}
	chunk("IHDR", ihdr[:])
	chunk("IDAT", data.Bytes())
	chunk("IEND", nil)
	return bw.Flush()
}
