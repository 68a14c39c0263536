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
	prev := make([]byte, width*bpp)
	cur := make([]byte, width*bpp)
	row := make([]byte, 1+width*bpp)
	row[0] = 2 // Up
	for y := 0; y < height; y++ {
		pix := img.Pix[(y)*img.Stride : (y)*img.Stride+width*4]
		for x, j := 0, 0; x < width; x, j = x+1, j+bpp {
			r, g, bl, a := pix[4*x], pix[4*x+1], pix[4*x+2], pix[4*x+3]
			if !opaque && a != 0 && a != 0xff { // un-premultiply
				r = uint8(uint32(r) * 0xff / uint32(a))
				g = uint8(uint32(g) * 0xff / uint32(a))
				bl = uint8(uint32(bl) * 0xff / uint32(a))
			}
			cur[j], cur[j+1], cur[j+2] = r, g, bl
			if !opaque {
				cur[j+3] = a
			}
		}
		for i := range cur {
			row[1+i] = cur[i] - prev[i]
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
		prev, cur = cur, prev
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
