package render

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/internal/golden"
)

var _ = golden.Update

// tricky has text that every drawing must carry through escaping: quotes,
// backslashes, markup, entities and non-ASCII.
const tricky = `# Quotes "here" & <tags>

1. Read the "config" at C:\temp\new & check <b>bold</b> isn't markup?
   - tools: read_file, a.b-c_d
   - yes ("found" it): 2
   - no (a|b #12;): fail
2. Écrire « bonjour » — 日本語 → {braces} [brackets]
`

func compileGraph(t testing.TB, src string) *graph.Graph {
	t.Helper()
	s, diags := compiler.Compile("tricky.md", []byte(src), compiler.Options{})
	if diags.HasErrors() {
		t.Fatalf("compile: %v", diags)
	}
	g, err := graph.New(s.Template())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The renderer compiles Graphviz's WebAssembly once for all tests.
var (
	rendererOnce sync.Once
	renderer     *Renderer
	rendererErr  error
)

func testRenderer(t testing.TB) *Renderer {
	rendererOnce.Do(func() { renderer, rendererErr = NewRenderer(context.Background()) })
	if rendererErr != nil {
		t.Fatal(rendererErr)
	}
	return renderer
}

func TestRenderSVGAndPNG(t *testing.T) {
	g := compileGraph(t, tricky)
	r := testRenderer(t)
	ctx := context.Background()

	var svg bytes.Buffer
	if err := r.Draw(ctx, g, SVG, &svg); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, svg.Bytes())
	for _, want := range []string{"日本語", "&quot;config&quot;", `C:\temp\new &amp; check`} {
		if !bytes.Contains(svg.Bytes(), []byte(want)) {
			t.Errorf("svg lost %q", want)
		}
	}

	var pic bytes.Buffer
	if err := r.Draw(ctx, g, PNG, &pic); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&pic)
	if err != nil {
		t.Fatalf("png does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 50 || b.Dy() < 50 {
		t.Errorf("png is %dx%d, want a real drawing", b.Dx(), b.Dy())
	}

	var none bytes.Buffer
	if err := r.Render(ctx, []byte("digraph {"), SVG, &none); err == nil || none.Len() > 0 {
		t.Errorf("broken dot: err %v, wrote %d bytes; want an error and nothing written", err, none.Len())
	}
	if err := r.Render(ctx, g.DOT(), "gif", &none); err == nil {
		t.Error("gif: want an unknown format error")
	}
}

func TestDrawRefusesHugeGraphs(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Huge\n\n")
	for i := 1; i <= MaxDrawSteps+1; i++ {
		fmt.Fprintf(&b, "%d. Step %d.\n", i, i)
	}
	g := compileGraph(t, b.String())
	var out bytes.Buffer
	err := testRenderer(t).Draw(context.Background(), g, SVG, &out)
	if err == nil || !strings.Contains(err.Error(), "too many to draw") || out.Len() > 0 {
		t.Errorf("err %v, %d bytes written; want a refusal and nothing written", err, out.Len())
	}
}

// checkSVG fails unless b is well-formed XML whose root is <svg>.
func checkSVG(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("svg does not parse as XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("svg root element is %q, want svg", root)
	}
}

// TestBoundLayoutKeepsSkillPictures: the cap on the position phase
// (positionIterations) only shortens the layout of very large skills; the
// shipped skills and a generated one of 100 steps (the plan limit) are
// drawn exactly as without it.
func TestBoundLayoutKeepsSkillPictures(t *testing.T) {
	r := testRenderer(t)
	ctx := context.Background()
	graphs := map[string]*graph.Graph{"tricky": compileGraph(t, tricky)}
	paths, err := filepath.Glob("../../skills/*/SKILL.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no shipped skills: %v", err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := compiler.Compile(p, src, compiler.Options{})
		if g, err := graph.New(s.Template()); err == nil && len(s.Steps) > 0 {
			graphs[p] = g
		}
	}
	s, _ := compiler.Compile("generated.md", generatedSkill(100), compiler.Options{})
	g100, err := graph.New(s.Template())
	if err != nil {
		t.Fatal(err)
	}
	graphs["generated 100 steps"] = g100

	draw := func(g *graph.Graph, iterations int) []byte {
		defer func(v int) { positionIterations = v }(positionIterations)
		positionIterations = iterations
		var out bytes.Buffer
		if err := r.Draw(ctx, g, SVG, &out); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	for name, g := range graphs {
		if bounded, free := draw(g, positionIterations), draw(g, 0); !bytes.Equal(bounded, free) {
			t.Errorf("%s: the bounded layout differs from Graphviz's own", name)
		}
	}
	// And the cap does act on a large graph, or this test checks nothing.
	if testing.Short() {
		return
	}
	g1000 := generatedGraph(t, 1000)
	if bytes.Equal(draw(g1000, positionIterations), draw(g1000, 0)) {
		t.Error("1,000 steps: the bound changed nothing; is nslimit still read?")
	}
}

// drawPNG draws dot as a PNG at scale.
func drawPNG(t *testing.T, dot string, scale float64) image.Image {
	t.Helper()
	var pic bytes.Buffer
	if err := testRenderer(t).RenderScaled(context.Background(), []byte(dot), PNG, scale, &pic); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&pic)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func dark(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	return r < 0x8000 && g < 0x8000 && b < 0x8000
}

// TestPNGPeripheries: a filled node with a double border (a waiting step,
// end's double circle) is filled inside its inner line only, as Graphviz
// and the SVG draw it. Along the middle row from the left: the background,
// the outer line, the gap (background, not the fill), the inner line,
// then the fill.
func TestPNGPeripheries(t *testing.T) {
	// A rounded box is drawn with B-splines, the others with polygons and
	// ellipses.
	for _, shape := range []string{"box", "box,rounded", "doublecircle", "circle", "octagon"} {
		t.Run(shape, func(t *testing.T) {
			shape, style, _ := strings.Cut(shape, ",")
			dot := fmt.Sprintf(`digraph { pad=0.2; node [shape=%s, style="filled,%s", fillcolor="#ff0000", color="#000000", peripheries=2, width=2, height=1, label=" "]; a }`, shape, style)
			img := drawPNG(t, dot, 2)
			b := img.Bounds()
			y := (b.Min.Y + b.Max.Y) / 2
			kind := func(x int) byte {
				r, g, bl, _ := img.At(x, y).RGBA()
				switch {
				case r > 0xc000 && g < 0x4000 && bl < 0x4000:
					return 'f' // fill
				case r < 0x8000 && g < 0x8000 && bl < 0x8000:
					return 'l' // line
				case r > 0xc000 && g > 0xc000 && bl > 0xc000:
					return 'b' // background
				}
				return '?' // antialiasing
			}
			var runs []byte
			for x := b.Min.X; x < (b.Min.X+b.Max.X)/2; x++ {
				if k := kind(x); k != '?' && (len(runs) == 0 || runs[len(runs)-1] != k) {
					runs = append(runs, k)
				}
			}
			if got := string(runs); got != "blblf" {
				t.Errorf("the middle row reads %q (b background, l line, f fill), want blblf: two rings, the fill inside the inner one", got)
			}
		})
	}
}

// TestPNGScale: a PNG at scale 1 is the size of Graphviz's own dot -Tpng
// (the SVG's points at 96 dpi), at scale 2 twice as wide and high; a scale
// out of range is refused.
func TestPNGScale(t *testing.T) {
	dot := string(compileGraph(t, tricky).DOT())
	var svg bytes.Buffer
	if err := testRenderer(t).Render(context.Background(), []byte(dot), SVG, &svg); err != nil {
		t.Fatal(err)
	}
	var wpt, hpt float64
	if _, err := fmt.Sscanf(svg.String()[strings.Index(svg.String(), "viewBox="):], `viewBox="0.00 0.00 %f %f"`, &wpt, &hpt); err != nil {
		t.Fatalf("svg size: %v", err)
	}
	near := func(got int, want float64) bool { return got >= int(want)-1 && got <= int(want)+2 }
	for _, scale := range []float64{1, 2, 0.5, 3} {
		b := drawPNG(t, dot, scale).Bounds()
		if w, h := wpt*96/72*scale, hpt*96/72*scale; !near(b.Dx(), w) || !near(b.Dy(), h) {
			t.Errorf("scale %g: %dx%d px, want %.0fx%.0f", scale, b.Dx(), b.Dy(), w, h)
		}
	}
	for _, scale := range []float64{0, 0.4, 8.5, -1} {
		if err := testRenderer(t).RenderScaled(context.Background(), []byte(dot), PNG, scale, io.Discard); err == nil {
			t.Errorf("scale %g: want an error", scale)
		}
	}
}

// TestPNGBold: <b> is drawn bold: the stem of an I is wider.
func TestPNGBold(t *testing.T) {
	stem := func(label string) int {
		img := drawPNG(t, `digraph { pad=0.1; node [shape=plaintext, fontsize=40, label=`+label+`]; a }`, 1)
		b := img.Bounds()
		y, widest := (b.Min.Y+b.Max.Y)/2, 0
		for x, run := b.Min.X, 0; x < b.Max.X; x++ {
			if dark(img, x, y) {
				run++
				widest = max(widest, run)
			} else {
				run = 0
			}
		}
		return widest
	}
	regular, bold := stem(`"I"`), stem(`<<b>I</b>>`)
	if regular < 2 || bold < regular*13/10 {
		t.Errorf("the stem of I is %d px regular, %d px bold; want bold at least 1.3 times as wide", regular, bold)
	}
}

// TestPNGTextCentred: each line of a multi-line label, plain or HTML, is
// centred in its node within two pixels, as Graphviz centres it, in the
// font skillc's DOT names (one Graphviz has widths for: see graph's
// fontFamily).
func TestPNGTextCentred(t *testing.T) {
	for name, label := range map[string]string{
		"plain": `"Already credited in this\nthread?\nWWW\nii"`,
		"html":  `<<b>1</b><br/>Already credited in this<br/>thread?<br/><font point-size="9">tools: search_thread</font><br/><b>[!] failed</b>>`,
	} {
		t.Run(name, func(t *testing.T) {
			img := drawPNG(t, `digraph { pad=0.3; node [shape=box, color=white, fontname="Helvetica", fontsize=11, label=`+label+`]; a }`, 2)
			b := img.Bounds()
			centre := float64(b.Min.X+b.Max.X-1) / 2
			lines := 0
			for y := b.Min.Y; y < b.Max.Y; {
				// A line of text: the rows with dark pixels, together.
				x0, x1, y0 := b.Max.X, -1, y
				for ; y < b.Max.Y; y++ {
					found := false
					for x := b.Min.X; x < b.Max.X; x++ {
						if dark(img, x, y) {
							x0, x1, found = min(x0, x), max(x1, x), true
						}
					}
					if !found {
						break
					}
				}
				if x1 >= 0 && y-y0 > 3 {
					lines++
					if mid := float64(x0+x1) / 2; math.Abs(mid-centre) > 2 {
						t.Errorf("line %d (rows %d-%d) is centred at x=%.1f, the node at %.1f", lines, y0, y, mid, centre)
					}
				}
				y++
			}
			if lines < 4 {
				t.Errorf("found %d lines of text, want 4 or more", lines)
			}
		})
	}
}

// TestEntryDotSize: the entry dot is as large as Graphviz draws a point of
// the DOT's width (0.15 in: a radius of 5.4 pt), not the 1.8 pt of a point
// whose height is left to the default.
func TestEntryDotSize(t *testing.T) {
	var svg bytes.Buffer
	if err := testRenderer(t).Draw(context.Background(), compileGraph(t, tricky), SVG, &svg); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	i := strings.Index(s, "<title>(entry)</title>")
	if i < 0 {
		t.Fatal("no entry node in the svg")
	}
	if e := s[i:min(len(s), i+200)]; !strings.Contains(e, `rx="5.4" ry="5.4"`) {
		t.Errorf("the entry dot is %s; want rx=5.4 ry=5.4", e)
	}
}

// TestMainScale: skillc-draw's arguments: png [--scale N], N in range.
func TestMainScale(t *testing.T) {
	dot := `digraph { a -> b }`
	for _, tt := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"png"}, 0, ""},
		{[]string{"png", "--scale", "1.5"}, 0, ""},
		{[]string{"svg", "--scale", "1"}, 0, ""},
		{[]string{"png", "--scale", "9"}, 2, "from 0.5 to 8"},
		{[]string{"png", "--scale", "NaN"}, 2, "from 0.5 to 8"},
		{[]string{"png", "--scale", "two"}, 2, "invalid syntax"},
		{[]string{"png", "--scale"}, 2, "usage"},
		{[]string{"png", "--zoom", "2"}, 2, "usage"},
		{[]string{"gif"}, 2, "usage"},
	} {
		var out, errOut bytes.Buffer
		code := Main(tt.args, strings.NewReader(dot), &out, &errOut)
		if code != tt.code || !strings.Contains(errOut.String(), tt.err) || (code != 0) != (out.Len() == 0) {
			t.Errorf("%v: exit %d, %d bytes out, stderr %q; want exit %d, stderr with %q", tt.args, code, out.Len(), errOut.String(), tt.code, tt.err)
		}
	}
}

// TestPNGTooLarge: a picture over maxPixels is drawn smaller to fit, with
// the same proportions.
func TestPNGTooLarge(t *testing.T) {
	dot := string(compileGraph(t, tricky).DOT())
	full := drawPNG(t, dot, 2).Bounds()
	defer func(v int) { maxPixels = v }(maxPixels)
	maxPixels = full.Dx() * full.Dy() / 4
	small := drawPNG(t, dot, 2).Bounds()
	if small.Dx()*small.Dy() > maxPixels || small.Dx() < full.Dx()/2-1 || small.Dy() < full.Dy()/2-1 {
		t.Errorf("%v with a limit of %d px; want half of %v", small.Size(), maxPixels, full.Size())
	}
}

// TestEncodePNG: what encodePNG writes decodes to the same pixels, opaque
// (RGB) or not (RGBA), over several bands compressed apart.
func TestEncodePNG(t *testing.T) {
	const w, h = 7, 300
	bands := splitBands(h)
	if len(bands) < 2 {
		t.Fatalf("%d rows make %d band; want several, or this test checks no joins", h, len(bands))
	}
	for _, opaque := range []bool{true, false} {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 37 % 251)
		}
		for i := 3; i < len(img.Pix); i += 4 {
			if opaque {
				img.Pix[i] = 0xff
			} else {
				img.Pix[i] = uint8(i * 11)
			}
			for c := 1; c <= 3; c++ {
				img.Pix[i-c] = min(img.Pix[i-c], img.Pix[i]) // premultiplied
			}
		}
		// Rows equal to the one above, which the opaque encoder writes
		// without looking at their pixels: within a band, and the first of
		// the second band.
		for _, y := range []int{2, bands[1].y0, 5} {
			copy(img.Pix[y*img.Stride:(y+1)*img.Stride], img.Pix[(y-1)*img.Stride:y*img.Stride])
		}
		// And one equal but for its 6th pixel, which the opaque encoder
		// finds among unchanged ones.
		img.Pix[5*img.Stride+4*5] ^= 0x0f
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("opaque %v: %v", opaque, err)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				r1, g1, b1, a1 := img.At(x, y).RGBA()
				r2, g2, b2, a2 := got.At(x, y).RGBA()
				if a1 != a2 || diff(r1, r2) > 0x200 || diff(g1, g2) > 0x200 || diff(b1, b2) > 0x200 {
					t.Fatalf("opaque %v: pixel %d,%d is %x %x %x %x, want %x %x %x %x", opaque, x, y, r2, g2, b2, a2, r1, g1, b1, a1)
				}
			}
		}
	}
}

// TestAdler32Combine: the combined checksum of two parts is the checksum
// of the whole, for parts long enough to wrap the modulus.
func TestAdler32Combine(t *testing.T) {
	data := make([]byte, 300000)
	for i := range data {
		data[i] = uint8(i*i + i/7)
	}
	for _, cut := range []int{0, 1, 65521, 65522, 200000, len(data)} {
		a, b := data[:cut], data[cut:]
		if got, want := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), int64(len(b))), adler32.Checksum(data); got != want {
			t.Errorf("cut at %d: %08x, want %08x", cut, got, want)
		}
	}
}

// encodePNG writes img as a PNG, as canvas.paint does: in bands
// compressed apart, RGB if img is opaque.
func encodePNG(w io.Writer, img *image.RGBA) error {
	opaque := img.Opaque()
	bands := splitBands(img.Bounds().Dy())
	parts := make([]deflated, len(bands))
	for i, b := range bands {
		var err error
		band := img.SubImage(image.Rect(0, b.y0, img.Bounds().Dx(), b.y1)).(*image.RGBA)
		if parts[i], err = deflateBand(band, opaque, i == len(bands)-1); err != nil {
			return err
		}
	}
	return writePNG(w, img.Bounds(), opaque, parts)
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// graphvizSVG is Graphviz's SVG of dot.
func graphvizSVG(t *testing.T, dot string) []byte {
	t.Helper()
	var svg bytes.Buffer
	if err := testRenderer(t).Render(context.Background(), []byte(dot), SVG, &svg); err != nil {
		t.Fatal(err)
	}
	return svg.Bytes()
}

// TestParseSVG reads what Graphviz writes for a graph with a cluster, a
// gradient, ports, head, tail and external labels, a translucent fill,
// a bold line and text with quotes, backslashes and < >, in the order
// outputorder asks for.
func TestParseSVG(t *testing.T) {
	svg := graphvizSVG(t, `digraph { pad=0.5; outputorder=edgesfirst; label="g\\"; bgcolor="#ffff00"
		subgraph cluster_x { style=filled; fillcolor="red:blue"; label="C\\"; c [style=filled, fillcolor="#0000ff80"] }
		a [xlabel="x", label="a\"b\\<>"]
		a:s -> c [headlabel="h", taillabel="t", label=<<b>it</b>>, style=dashed, penwidth=3]
	}`)
	d, err := parseSVG(svg)
	if err != nil {
		t.Fatalf("%v in\n%s", err, svg)
	}
	var wpt, hpt float64
	if _, err := fmt.Sscanf(string(svg[bytes.Index(svg, []byte("viewBox=")):]), `viewBox="0.00 0.00 %f %f"`, &wpt, &hpt); err != nil {
		t.Fatal(err)
	}
	if d.width != wpt || d.height != hpt {
		t.Errorf("the page is %gx%g pt, want the viewBox's %gx%g", d.width, d.height, wpt, hpt)
	}
	if d.background != (color.NRGBA{0xff, 0xff, 0, 0xff}) {
		t.Errorf("the background is %v, want the bgcolor #ffff00", d.background)
	}
	var texts []string
	var boldTexts []string
	for _, e := range d.elems {
		if e.kind == elemText {
			texts = append(texts, e.text)
			if e.bold {
				boldTexts = append(boldTexts, e.text)
			}
		}
	}
	// The graph's label, the cluster's, then the edge before the nodes.
	if got, want := strings.Join(texts, "|"), `g\|C\|it|h|t|c|a"b\<>|x`; got != want {
		t.Errorf("the texts are %q, want %q", got, want)
	}
	if len(boldTexts) != 1 || boldTexts[0] != "it" {
		t.Errorf("the bold texts are %q, want [it]", boldTexts)
	}
	has := func(ok func(e element) bool) bool {
		for _, e := range d.elems {
			if ok(e) {
				return true
			}
		}
		return false
	}
	if !has(func(e element) bool { return e.kind == elemPolygon && e.fill == color.NRGBA{0xff, 0, 0, 0xff} }) {
		t.Error("no cluster filled with the gradient's first colour, red")
	}
	if !has(func(e element) bool { return e.kind == elemEllipse && e.fill == color.NRGBA{0, 0, 0xff, 0x80} }) {
		t.Error("no node filled with the translucent blue")
	}
	if !has(func(e element) bool {
		return e.kind == elemPath && e.width == 3 && len(e.dashes) == 2 && e.dashes[0] == 6
	}) {
		t.Error("no dashed edge 3 pt wide")
	}
}

// TestParseSVGErrors: Graphviz's SVG cut anywhere is an error, not a
// panic or a partial drawing, and so is what Graphviz does not write.
func TestParseSVGErrors(t *testing.T) {
	b := bytes.TrimRight(graphvizSVG(t, string(compileGraph(t, tricky).DOT())), "\n")
	if _, err := parseSVG(b); err != nil {
		t.Fatalf("the whole svg: %v", err)
	}
	for n := 0; n < len(b); n += 7 {
		if _, err := parseSVG(b[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes parse without an error", n, len(b))
		}
	}
	page := `<svg viewBox="0 0 10 10"><g transform="scale(1 1) rotate(0) translate(4 6)">%s</g></svg>`
	for _, tt := range []struct{ svg, err string }{
		{`<svg viewBox="0 0 10"></svg>`, "viewBox"},
		{`<svg viewBox="0 0 -1 10"></svg>`, "viewBox"},
		{`<g></g>`, "where <svg> belongs"},
		{`<svg viewBox="0 0 10 10"><g transform="rotate(-90) translate(4 6)"></g></svg>`, "rotate"},
		{`<svg viewBox="0 0 10 10"><g transform="skewX(3)"></g></svg>`, "skewX"},
		{fmt.Sprintf(page, `<polygon points="1,2 3"/>`), "odd count"},
		{fmt.Sprintf(page, `<path d="C1,2 3,4 5,6"/>`), "before M"},
		{fmt.Sprintf(page, `<path d="M1,2C3,4 5,6"/>`), "whole curves"},
		{fmt.Sprintf(page, `<path d="M1,2Q3,4 5,6"/>`), "Q"},
		{fmt.Sprintf(page, `<ellipse cx="x" cy="1" rx="1" ry="1"/>`), "ellipse"},
		{fmt.Sprintf(page, `<polygon fill="url(#nope)" points="1,2 3,4 5,6"/>`), "no gradient"},
		{fmt.Sprintf(page, `<polygon fill="mauvish" points="1,2 3,4 5,6"/>`), "mauvish"},
		{fmt.Sprintf(page, `<polygon fill="red" fill-opacity="half" points="1,2 3,4 5,6"/>`), "opacity"},
		{fmt.Sprintf(page, `<path stroke-dasharray="5,-2" d="M1,2C3,4 5,6 7,8"/>`), "dasharray"},
		{fmt.Sprintf(page, `<path stroke-width="wide" d="M1,2C3,4 5,6 7,8"/>`), "wide"},
		{fmt.Sprintf(page, `<polygon stroke-width="wide" points="1,2 3,4 5,6"/>`), "wide"},
		{fmt.Sprintf(page, `<text x="1" y="1"><polygon points="1,2 3,4"/></text>`), "in a text"},
		{`<svg viewBox="0 0 10 10"></svg><svg>`, "after </svg>"},
		{`</g><svg viewBox="0 0 10 10"></svg>`, "nothing open"},
	} {
		if _, err := parseSVG([]byte(tt.svg)); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want an error with %q", tt.svg, err, tt.err)
		}
	}
}

// TestParseSVGTransform: the graph group's scale and translate place every
// point, and a polygon's, ellipse's and text's coordinates come through.
func TestParseSVGTransform(t *testing.T) {
	d, err := parseSVG([]byte(`<svg viewBox="0 0 50 40"><g transform="scale(0.5 0.5) rotate(0) translate(4 60)">
		<polygon fill="white" stroke="none" points="0,0 1,1 2,2"/>
		<ellipse fill="none" stroke="black" stroke-width="2" cx="10" cy="-20" rx="4" ry="2"/>
		<text text-anchor="end" x="6" y="-10" font-size="20" font-weight="700">A&amp;B&#45;</text>
		<polyline fill="none" stroke="#123456" points="0,0 2,-2"/>
	</g></svg>`))
	if err != nil {
		t.Fatal(err)
	}
	want := []element{
		{kind: elemEllipse, pts: []point{{7, 20}, {2, 1}}, stroke: color.NRGBA{A: 0xff}, width: 1},
		{kind: elemText, pts: []point{{5, 25}}, fill: color.NRGBA{A: 0xff}, width: 1, text: "A&B-", anchor: 'e', bold: true, size: 10},
		{kind: elemPolyline, pts: []point{{2, 30}, {3, 29}}, stroke: color.NRGBA{0x12, 0x34, 0x56, 0xff}, width: 1},
	}
	if d.width != 50 || d.height != 40 || d.background != (color.NRGBA{0xff, 0xff, 0xff, 0xff}) || !reflect.DeepEqual(d.elems, want) {
		t.Errorf("got %gx%g on %v:\n%+v\nwant 50x40 on white:\n%+v", d.width, d.height, d.background, d.elems, want)
	}
}

// shippedSkillDOT is the DOT of a skill shipped in skills/.
func shippedSkillDOT(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile("../../skills/" + name + "/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(compileGraph(t, string(src)).DOT())
}

// TestPNGBandsAreSeamless: a picture painted in many bands, each clipped
// to its rows, has the pixels of one painted whole.
func TestPNGBandsAreSeamless(t *testing.T) {
	dot := shippedSkillDOT(t, "acat-reimbursement")
	defer func(v int) { minBandRows = v }(minBandRows)
	minBandRows = 1 << 30
	whole := drawPNG(t, dot, 2)
	minBandRows = 16
	if n := len(splitBands(whole.Bounds().Dy())); n < 2 {
		t.Fatalf("%d band", n)
	}
	banded := drawPNG(t, dot, 2)
	if whole.Bounds() != banded.Bounds() {
		t.Fatalf("%v in bands, %v whole", banded.Bounds(), whole.Bounds())
	}
	for y := whole.Bounds().Min.Y; y < whole.Bounds().Max.Y; y++ {
		for x := whole.Bounds().Min.X; x < whole.Bounds().Max.X; x++ {
			if a, b := whole.At(x, y), banded.At(x, y); a != b {
				t.Fatalf("pixel %d,%d is %v in bands, %v whole", x, y, b, a)
			}
		}
	}
}

// TestPNGBoxesMatchSVG: each step's box in the PNG of a shipped skill is
// where the SVG has it: along its middle row, white outside its left and
// right sides, a line at each, its fill inside.
func TestPNGBoxesMatchSVG(t *testing.T) {
	dot := shippedSkillDOT(t, "acat-reimbursement")
	var svg bytes.Buffer
	if err := testRenderer(t).Render(context.Background(), []byte(dot), SVG, &svg); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	var tx, ty float64
	if i := strings.Index(s, "translate("); i < 0 {
		t.Fatal("no translate in the svg")
	} else if _, err := fmt.Sscanf(s[i:], "translate(%g %g)", &tx, &ty); err != nil {
		t.Fatal(err)
	}
	const scale = 2
	img := drawPNG(t, dot, scale)
	px := func(v, t float64) int { return int(math.Round((v + t) * scale * 96 / 72)) }
	kind := func(x, y int) byte {
		r, g, b, _ := img.At(x, y).RGBA()
		switch {
		case r>>8 == 0xff && g>>8 == 0xff && b>>8 == 0xff:
			return 'w' // the background
		case r>>8 == 0xf7 && g>>8 == 0xfa && b>>8 == 0xfc:
			return 'f' // a step's fill, #f7fafc
		case r < 0xb000:
			return 'l' // the line, #4a5568
		}
		return '?'
	}
	boxes := 0
	for _, m := range regexp.MustCompile(`<path fill="#f7fafc" stroke="#4a5568" d="([^"]+)"`).FindAllStringSubmatch(s, -1) {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, xy := range regexp.MustCompile(`(-?[0-9.]+),(-?[0-9.]+)`).FindAllStringSubmatch(m[1], -1) {
			x, _ := strconv.ParseFloat(xy[1], 64)
			y, _ := strconv.ParseFloat(xy[2], 64)
			x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
		}
		boxes++
		y := px((y0+y1)/2, ty)
		left, right := px(x0, tx), px(x1, tx)
		for _, c := range []struct {
			x    int
			want byte
		}{{left - 5, 'w'}, {left, 'l'}, {left + 5, 'f'}, {right - 5, 'f'}, {right, 'l'}, {right + 5, 'w'}} {
			if got := kind(c.x, y); got != c.want && !(c.want == 'l' && (kind(c.x-1, y) == 'l' || kind(c.x+1, y) == 'l')) {
				t.Errorf("box %d (x %.0f-%.0f pt): pixel %d,%d is %c, want %c (w background, l line, f fill)", boxes, x0, x1, c.x, y, got, c.want)
			}
		}
	}
	if boxes < 4 {
		t.Fatalf("found %d step boxes in the svg, want 4 or more", boxes)
	}
}
