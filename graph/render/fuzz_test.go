package render

import "testing"

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
