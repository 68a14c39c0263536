package render

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"runtime"
	"sync"

	"github.com/goccy/go-graphviz"
	"github.com/golang/freetype/raster"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// A PNG is drawn here, not by a Graphviz renderer: Graphviz lays the graph
// out and writes it as SVG (every shape's points, every curve's control
// points, every text's place, anchor, font and size, in points; svg.go),
// and canvas draws those, antialiased, band by band on every core
// (canvas.paint).
// go-graphviz's own PNG renderer loses bold, sets text in a font whose
// widths are not the ones Graphviz laid the labels out with (off-centre
// lines) and fills every shape; drawing through its Go plugin API instead,
// as we did before, took 2.5 s of bridge calls for 1,000 steps (thousands
// of WebAssembly calls, several a coordinate), where the SVG is one call.
// Hand-written because no maintained Go library draws Graphviz's output
// in process.
//
// Text is set in Liberation Sans (embedded, SIL OFL; fonts/LICENSE), whose
// widths are Arial's: the widths Graphviz lays a label out with when its
// font is Helvetica or Arial, as in skillc's DOT, so a span set from the
// SVG's anchor fills the width Graphviz reserved for it. (For a font it
// has no widths for, a list of names among them, Graphviz takes Times's,
// narrower, and the text overflows its place here as in a browser.) Bold
// (an HTML label's <b>, or a font name with "bold") is set in Liberation
// Sans Bold. Line widths, dashes and text scale with the picture, so
// --scale 2 is the scale 1 picture drawn sharper, not thinner.
//
// What the DOT may ask of dot -Tpng that this does not draw: rotate and
// landscape (refused), images in nodes, and gradients (drawn in their
// first colour). The DOT's size and ratio scale the picture, as they do
// the SVG.

// maxPixels bounds a PNG's size (64 Mpx, 256 MB in a viewer at 4 bytes a
// pixel): a larger picture is drawn smaller to fit, as dot -Tpng does for
// Cairo's limits. 1,000 steps at scale 2 would be 4,422x60,708 px (268
// Mpx, a gigabyte); they are drawn at 2,211x30,353.
var maxPixels = 1 << 26

// maxSide is the most pixels on a side, Cairo's limit, which many viewers
// share.
const maxSide = 32767

// drawPNG lays out g and draws it as a PNG at scale times dot -Tpng's
// size (96 dpi).
func (r *Renderer) drawPNG(ctx context.Context, g *graphviz.Graph, scale float64) ([]byte, error) {
	var svg bytes.Buffer
	if err := r.gv.Render(ctx, g, graphviz.SVG, &svg); err != nil {
		return nil, fmt.Errorf("graphviz cannot lay out the graph: %w", err)
	}
	d, err := parseSVG(svg.Bytes())
	if err != nil {
		return nil, err
	}
	if len(r.fonts) == 0 {
		r.fonts = make([]fontCache, runtime.GOMAXPROCS(0))
	}
	c := newCanvas(d, scale, &r.fonts[0])
	if err := c.addDrawing(d); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := c.paint(&out, r.fonts); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// canvas is a picture being drawn from a drawing: first the marks to paint
// are listed, in picture pixels, then paint paints and encodes the
// picture band by band.
type canvas struct {
	width, height int
	background    color.NRGBA // of the whole picture; transparent if none
	marks         []mark
	fonts         *fontCache // to measure text while listing marks

	// A point (x, y) of the page is at pixel (k*x, k*y).
	k float64
}

// newCanvas makes the picture for d at scale: the page at 96*scale dpi,
// drawn smaller if that would exceed maxPixels or maxSide.
func newCanvas(d *drawing, scale float64, fonts *fontCache) *canvas {
	perPoint := 96 * scale / 72
	// Graphviz rounds the page to whole pixels.
	w, h := math.Round(d.width*perPoint), math.Round(d.height*perPoint)
	k := 1.0
	if w*h > float64(maxPixels) {
		k = math.Sqrt(float64(maxPixels) / (w * h))
	}
	if m := math.Max(w, h) * k; m > maxSide {
		k *= maxSide / m
	}
	return &canvas{
		// Rounded down, so a picture drawn smaller stays within the limits.
		width: max(1, int(w*k)), height: max(1, int(h*k)),
		background: d.background,
		fonts:      fonts,
		k:          k * perPoint,
	}
}

// addDrawing lists the marks of d, in its order, which is the order dot
// -Tpng draws them in.
func (c *canvas) addDrawing(d *drawing) error {
	for i := range d.elems {
		e := &d.elems[i]
		switch e.kind {
		case elemText:
			if err := c.addText(e); err != nil {
				return err
			}
		case elemEllipse:
			c.addShape(c.ellipse(e.pts[0], e.pts[1]), e)
		case elemPolygon, elemPolyline:
			c.addShape(c.polygon(e.pts, e.kind == elemPolygon), e)
		case elemPath:
			c.addShape(c.bezier(e.pts), e)
		}
	}
	return nil
}

type point struct{ x, y float64 }

// pt maps a point of the page to the picture.
func (c *canvas) pt(p point) point {
	return point{c.k * p.x, c.k * p.y}
}

// shape is a path in picture coordinates: a start and cubic segments (a
// straight segment has its ends as control points).
type shape struct {
	pts    []point // pts[0], then 3 a segment
	closed bool
}

func (s *shape) lineTo(q point) {
	p := s.pts[len(s.pts)-1]
	s.pts = append(s.pts, p, q, q)
}

// polygon is the path through pts, back to the first if closed.
func (c *canvas) polygon(pts []point, closed bool) shape {
	s := shape{closed: closed}
	for i, p := range pts {
		q := c.pt(p)
		if i == 0 {
			s.pts = append(s.pts, q)
			continue
		}
		s.lineTo(q)
	}
	if closed && len(s.pts) > 0 {
		s.lineTo(s.pts[0])
	}
	return s
}

// ellipse is the ellipse of centre ctr and radii r.
func (c *canvas) ellipse(ctr, r point) shape {
	ctr = c.pt(ctr)
	rx, ry := c.k*r.x, c.k*r.y
	const kappa = 0.5522847498 // four cubics make a circle
	kx, ky := kappa*rx, kappa*ry
	return shape{closed: true, pts: []point{
		{ctr.x + rx, ctr.y},
		{ctr.x + rx, ctr.y + ky}, {ctr.x + kx, ctr.y + ry}, {ctr.x, ctr.y + ry},
		{ctr.x - kx, ctr.y + ry}, {ctr.x - rx, ctr.y + ky}, {ctr.x - rx, ctr.y},
		{ctr.x - rx, ctr.y - ky}, {ctr.x - kx, ctr.y - ry}, {ctr.x, ctr.y - ry},
		{ctr.x + kx, ctr.y - ry}, {ctr.x + rx, ctr.y - ky}, {ctr.x + rx, ctr.y},
	}}
}

// bezier is the cubic B-spline through pts (a start, 3 points a segment),
// closed when it ends where it starts (a rounded box).
func (c *canvas) bezier(pts []point) shape {
	s := shape{}
	for _, p := range pts[:1+max(0, len(pts)-1)/3*3] {
		s.pts = append(s.pts, c.pt(p))
	}
	if n := len(s.pts); n > 1 {
		first, last := s.pts[0], s.pts[n-1]
		s.closed = math.Abs(first.x-last.x) < 1e-6 && math.Abs(first.y-last.y) < 1e-6
	}
	return s
}

// addShape lists the marks of s: filled with e's fill colour, then
// stroked with its line.
func (c *canvas) addShape(s shape, e *element) {
	if len(s.pts) < 4 {
		return
	}
	if e.fill.A > 0 {
		c.marks = append(c.marks, mark{box: c.bounds(s.pts, 1), color: e.fill, fill: s.pts})
	}
	w := e.width * c.k
	if e.stroke.A == 0 || w <= 0 {
		return
	}
	// The stroker takes straight segments only.
	lines := [][]point{flatten(s.pts)}
	// A closed outline's ends meet in round caps, like its round joins
	// elsewhere; an open line, and a dash, ends square, as Cairo's.
	capper := raster.ButtCapper
	if e.dashes != nil {
		var dashes []float64
		for _, d := range e.dashes {
			dashes = append(dashes, d*c.k)
		}
		lines = dash(lines[0], dashes)
	} else if s.closed {
		capper = raster.RoundCapper
	}
	c.marks = append(c.marks, mark{box: c.bounds(s.pts, w), color: e.stroke, lines: lines, width: w, capper: capper})
}

// bounds is the box of pts (a cubic lies within its control points),
// grown by pad, in pixels, clipped to the picture.
func (c *canvas) bounds(pts []point, pad float64) image.Rectangle {
	return bounds(pts, pad).Intersect(image.Rect(0, 0, c.width, c.height))
}

// bounds is the box of pts grown by pad, in pixels.
func bounds(pts []point, pad float64) image.Rectangle {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, y0, x1, y1 = math.Min(x0, p.x), math.Min(y0, p.y), math.Max(x1, p.x), math.Max(y1, p.y)
	}
	return image.Rect(int(math.Floor(x0-pad)), int(math.Floor(y0-pad)), int(math.Ceil(x1+pad))+1, int(math.Ceil(y1+pad))+1)
}

// mark is one thing to paint: a filled path, stroked lines or a text.
type mark struct {
	box   image.Rectangle // the pixels it may touch
	color color.NRGBA

	fill []point // a closed path: a start and 3 points a cubic

	lines  [][]point // polylines stroked width wide, ended by capper
	width  float64
	capper raster.Capper

	text string // set in face, starting at dot (on the baseline)
	face faceKey
	dot  fixed.Point26_6
}

// paint paints the marks and writes the PNG, band by band on every core:
// each core paints a band's rows (the marks that touch them, in order,
// clipped to the band) in a picture of its own, then compresses them
// (deflateBand), so that neither the whole picture (256 MB at 1,000
// steps) nor a second pass over it is needed. fonts holds a font cache a
// core.
func (c *canvas) paint(w io.Writer, fonts []fontCache) error {
	bands := splitBands(c.height)
	// The marks of each band, in order.
	inBand := make([][]int, len(bands))
	for i, m := range c.marks {
		for b := range bands {
			if m.box.Min.Y < bands[b].y1 && m.box.Max.Y > bands[b].y0 {
				inBand[b] = append(inBand[b], i)
			}
		}
	}
	opaque := c.background.A == 0xff // and painting over opaque pixels keeps them so
	workers := make([]painter, len(fonts))
	parts := make([]deflated, len(bands))
	err := forEachBand(len(bands), len(workers), func(worker, i int) error {
		p := &workers[worker]
		img := p.picture(c.width, bands[i], c.background)
		p.paint = raster.NewRGBAPainter(img)
		for _, m := range inBand[i] {
			if err := p.mark(img, &c.marks[m], &fonts[worker]); err != nil {
				return err
			}
		}
		var err error
		parts[i], err = deflateBand(img, opaque, i == len(bands)-1)
		return err
	})
	if err != nil {
		return err
	}
	return writePNG(w, image.Rect(0, 0, c.width, c.height), opaque, parts)
}

// painter paints bands of a picture on one core.
type painter struct {
	pix   []byte // the band's pixels, kept from band to band
	ras   *raster.Rasterizer
	paint *raster.RGBAPainter
}

// picture is a picture of the rows of b filled with bg, in the pixels of
// the last band's, which it overwrites once.
func (p *painter) picture(width int, b band, bg color.NRGBA) *image.RGBA {
	n := 4 * width * (b.y1 - b.y0)
	if cap(p.pix) < n {
		p.pix = make([]byte, n)
	}
	img := &image.RGBA{Pix: p.pix[:n], Stride: 4 * width, Rect: image.Rect(0, b.y0, width, b.y1)}
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	return img
}

// mark paints m on img, clipped to its rows.
func (p *painter) mark(img *image.RGBA, m *mark, fonts *fontCache) error {
	clip := img.Bounds()
	switch {
	case m.text != "":
		fc, err := fonts.face(m.face.bold, m.face.size)
		if err != nil {
			return err
		}
		d := font.Drawer{Dst: img, Src: image.NewUniform(m.color), Face: fc, Dot: m.dot}
		d.DrawString(m.text)
	case m.fill != nil:
		pts := m.fill
		p.rasterize(m.box, clip, m.color, func(off point) {
			sub := func(q point) fixed.Point26_6 { return fx(point{q.x - off.x, q.y - off.y}) }
			p.ras.Start(sub(pts[0]))
			for i := 1; i+2 < len(pts); i += 3 {
				p.ras.Add3(sub(pts[i]), sub(pts[i+1]), sub(pts[i+2]))
			}
			p.ras.Add1(sub(pts[0]))
		})
	default:
		// Only the stretches of line near the band: a long edge crosses
		// many bands. The stretches end more than a line's width outside
		// the band, so their caps do not show.
		lo, hi := float64(clip.Min.Y)-m.width, float64(clip.Max.Y)+m.width
		var runs [][]point
		for _, pl := range m.lines {
			runs = append(runs, runsWithin(pl, lo, hi)...)
		}
		if len(runs) == 0 {
			return nil
		}
		var box image.Rectangle
		for _, run := range runs {
			box = box.Union(bounds(run, m.width))
		}
		p.rasterize(box.Intersect(m.box), clip, m.color, func(off point) {
			var path raster.Path
			for _, run := range runs {
				path.Clear()
				path.Start(fx(point{run[0].x - off.x, run[0].y - off.y}))
				for _, q := range run[1:] {
					path.Add1(fx(point{q.x - off.x, q.y - off.y}))
				}
				p.ras.AddStroke(path, fixed.Int26_6(m.width*64), m.capper, raster.RoundJoiner)
			}
		})
	}
	return nil
}

// runsWithin cuts the polyline pl into the runs of its segments that reach
// rows lo to hi.
func runsWithin(pl []point, lo, hi float64) [][]point {
	var runs [][]point
	start := -1 // the first point of the current run
	for i := 1; i <= len(pl); i++ {
		in := i < len(pl) && math.Max(pl[i-1].y, pl[i].y) >= lo && math.Min(pl[i-1].y, pl[i].y) <= hi
		switch {
		case in && start < 0:
			start = i - 1
		case !in && start >= 0:
			runs = append(runs, pl[start:i])
			start = -1
		}
	}
	return runs
}

func fx(p point) fixed.Point26_6 {
	return fixed.Point26_6{X: fixed.Int26_6(math.Round(p.x * 64)), Y: fixed.Int26_6(math.Round(p.y * 64))}
}

// rasterize paints, within clip, what add puts in a rasterizer the size
// of box, so that each shape costs its own area, not the picture's. The
// rasterizer's box holds the whole shape, not only what is within clip:
// it places a point above its box a row too low (it truncates negative
// coordinates where it should floor them).
func (p *painter) rasterize(box, clip image.Rectangle, col color.NRGBA, add func(off point)) {
	if box.Empty() || !box.Overlaps(clip) {
		return
	}
	if p.ras == nil {
		p.ras = raster.NewRasterizer(0, 0)
		p.ras.UseNonZeroWinding = true
	}
	p.ras.SetBounds(box.Dx(), box.Dy())
	add(point{float64(box.Min.X), float64(box.Min.Y)})
	p.paint.SetColor(col)
	dx, dy := box.Min.X, box.Min.Y
	p.ras.Rasterize(raster.PainterFunc(func(ss []raster.Span, done bool) {
		in := ss[:0]
		for _, sp := range ss {
			if sp.Y += dy; sp.Y >= clip.Min.Y && sp.Y < clip.Max.Y {
				sp.X0 += dx
				sp.X1 += dx
				in = append(in, sp)
			}
		}
		p.paint.Paint(in, done)
	}))
}

// flatten turns a path of cubics into a polyline, a segment every pixel or
// two.
func flatten(pts []point) []point {
	out := []point{pts[0]}
	for i := 1; i+2 < len(pts); i += 3 {
		p0, p1, p2, p3 := pts[i-1], pts[i], pts[i+1], pts[i+2]
		if p1 == p0 && p2 == p3 { // a straight segment
			out = append(out, p3)
			continue
		}
		l := math.Hypot(p1.x-p0.x, p1.y-p0.y) + math.Hypot(p2.x-p1.x, p2.y-p1.y) + math.Hypot(p3.x-p2.x, p3.y-p2.y)
		n := max(1, min(1000, int(l/2)))
		for j := 1; j <= n; j++ {
			t := float64(j) / float64(n)
			u := 1 - t
			a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
			out = append(out, point{a*p0.x + b*p1.x + c*p2.x + d*p3.x, a*p0.y + b*p1.y + c*p2.y + d*p3.y})
		}
	}
	return out
}

// dash cuts a polyline into the "on" pieces of the pattern (on, off, ...).
func dash(pl []point, pattern []float64) [][]point {
	var out [][]point
	k, left, on := 0, pattern[0], true
	var cur []point
	if on {
		cur = []point{pl[0]}
	}
	for i := 1; i < len(pl); i++ {
		a, b := pl[i-1], pl[i]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		for seg > 0 {
			step := math.Min(seg, left)
			t := step / seg
			m := point{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t}
			if on {
				cur = append(cur, m)
			}
			a, seg, left = m, seg-step, left-step
			if left <= 1e-9 {
				if on && len(cur) > 1 {
					out = append(out, cur)
				}
				on = !on
				k = (k + 1) % len(pattern)
				left = pattern[k]
				cur = nil
				if on {
					cur = []point{m}
				}
			}
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// addText lists a text's mark: set in the embedded font, from where the
// SVG's anchor places it.
func (c *canvas) addText(e *element) error {
	if e.text == "" || e.fill.A == 0 {
		return nil
	}
	key := faceKey{bold: e.bold, size: math.Round(e.size*c.k*64) / 64}
	fc, err := c.fonts.face(key.bold, key.size)
	if err != nil {
		return err
	}
	o := c.pt(e.pts[0])
	real := float64(font.MeasureString(fc, e.text)) / 64
	left := o.x
	switch e.anchor {
	case 'm':
		left -= real / 2
	case 'e':
		left -= real
	}
	// A glyph may reach above the font's ascent (accents), so the rows
	// are those of a size above the baseline and a size below.
	box := image.Rect(int(left)-1, int(o.y-2*key.size), int(left+real)+2, int(o.y+key.size)+1)
	c.marks = append(c.marks, mark{
		box: box.Intersect(image.Rect(0, 0, c.width, c.height)), color: e.fill,
		text: e.text, face: key,
		dot: fixed.Point26_6{X: fixed.Int26_6(math.Round(left * 64)), Y: fixed.Int26_6(math.Round(o.y * 64))},
	})
	return nil
}

var (
	//go:embed fonts/LiberationSans-Regular.ttf
	regularTTF []byte
	//go:embed fonts/LiberationSans-Bold.ttf
	boldTTF []byte

	fontsOnce           sync.Once
	regularFont, boldFt *sfnt.Font
	fontsErr            error
)

// fontCache keeps the faces made for a Renderer's drawings. A face is not
// safe for concurrent use; the Renderer's lock keeps drawings one at a
// time.
type fontCache struct {
	faces map[faceKey]font.Face
}

type faceKey struct {
	bold bool
	size float64 // in pixels
}

// face returns the embedded font at size pixels.
func (fc *fontCache) face(bold bool, size float64) (font.Face, error) {
	fontsOnce.Do(func() {
		if regularFont, fontsErr = opentype.Parse(regularTTF); fontsErr == nil {
			boldFt, fontsErr = opentype.Parse(boldTTF)
		}
	})
	if fontsErr != nil {
		return nil, fmt.Errorf("embedded font: %w", fontsErr)
	}
	k := faceKey{bold, math.Round(size*64) / 64}
	if f, ok := fc.faces[k]; ok {
		return f, nil
	}
	ft := regularFont
	if bold {
		ft = boldFt
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: k.size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, err
	}
	if fc.faces == nil {
		fc.faces = map[faceKey]font.Face{}
	}
	fc.faces[k] = f
	return f, nil
}
