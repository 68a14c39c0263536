package render

import (
	"bytes"
	"compress/flate"
	"hash/adler32"
	"io"
	"testing"
)

// FuzzSVG: the hand-written SVG reader (parseSVG) never panics and never
// sizes memory by a count it refused, whatever it is given; Graphviz's
// own output is the seed.
func FuzzSVG(f *testing.F) {
	f.Add([]byte(`<svg width="62pt" height="116pt" viewBox="0.00 0.00 62.00 116.00"><g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 112)">` +
		`<polygon fill="white" stroke="none" points="-4,4 -4,-112 58,-112 58,4 -4,4"/>` +
		`<g id="node1" class="node"><title>a</title><ellipse fill="none" stroke="black" cx="27" cy="-90" rx="27" ry="18"/>` +
		`<text text-anchor="middle" x="27" y="-85.8" font-family="Times,serif" font-size="14.00">a</text></g>` +
		`<g id="edge1" class="edge"><title>a&#45;&gt;b</title><path fill="none" stroke="black" stroke-dasharray="5,2" d="M27,-71.7C27,-63.98 27,-54.71 27,-46.11"/>` +
		`<polygon fill="black" stroke="black" points="30.5,-46.1 27,-36.1 23.5,-46.1 30.5,-46.1"/></g></g></svg>`))
	f.Add([]byte(`<svg viewBox="0 0 9 9"><defs><linearGradient id="l_0"><stop offset="0" style="stop-color:red;stop-opacity:0.5;"/></linearGradient></defs>` +
		`<g transform="scale(2) translate(1)"><polygon fill="url(#l_0)" points="1,2 3,4 5,6"/><text font-weight="bold">x</text></g></svg>`))
	f.Add([]byte(`<svg viewBox="0 0 1e9 1"><path d="M1e400,2L3-4"/></svg>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := parseSVG(b)
		if err == nil {
			// What it reads, the canvas can list.
			var fonts fontCache
			c := newCanvas(d, 1, &fonts)
			if err := c.addDrawing(d); err != nil && d.width*d.height < 1e6 {
				t.Logf("addDrawing: %v", err)
			}
		}
	})
}

// FuzzZeroRuns: whatever rows zeroRuns is given, what it writes inflates
// to them, with their Adler-32.
func FuzzZeroRuns(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 7, 7, 7, 7, 7, 7, 7}, uint8(7), true)
	f.Add(make([]byte, 1000), uint8(0), false)
	f.Fuzz(func(t *testing.T, data []byte, cut uint8, rgba bool) {
		bpp := 3
		if rgba {
			bpp = 4
		}
		z := newZeroRuns(bpp)
		// Rows of the fuzzer's length, from cut.
		width := 1 + int(cut)
		for i := 0; i < len(data); i += width {
			z.row(data[i:min(len(data), i+width)])
		}
		d := z.finish(true)
		got, err := io.ReadAll(flate.NewReader(bytes.NewReader(d.data)))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("inflates to %d bytes (%v), want the %d given", len(got), err, len(data))
		}
		if d.adler != adler32.Checksum(data) || d.n != int64(len(data)) {
			t.Fatalf("Adler-32 %08x of %d bytes, want %08x of %d", d.adler, d.n, adler32.Checksum(data), len(data))
		}
	})
}
