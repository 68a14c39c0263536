package render

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"github.com/goccy/go-graphviz"
	"github.com/goccy/go-graphviz/gvc"
	"github.com/golang/freetype/raster"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// pngEngine draws Graphviz's PNG: Graphviz lays out and says what to draw
// (shapes and text in points, with the job's scale and translation), and
// this draws it, antialiased, on an RGBA image. It replaces go-graphviz's
// own PNG renderer, which loses bold, draws text in a font whose widths are
// not the ones Graphviz laid the labels out with (off-centre lines),
// scales neither line widths nor text with the dpi, fills every shape
// (the fill flag reaches the plugin as true for every shape), and spends
// time in proportion to the whole picture's height on every shape (1,000
// steps took two minutes). Hand-written because no maintained Go library
// rasterises Graphviz output in process.
//
// What is filled: an edge's curve is stroked, its arrowhead filled and
// outlined; a node's first shape is filled when its style says so, then
// every shape is outlined. A node with peripheries (end's double circle, a
// waiting step's double border) is drawn innermost first, and Graphviz
// fills only that one, else the outer fill would cover the inner line. The
// background is filled white, as dot -Tpng does.
//
// Text is set in Liberation Sans (embedded, SIL OFL; fonts/LICENSE), whose
// widths are Arial's, the widths Graphviz's layout assumes for Helvetica
// and Arial, and each span is centred in the width Graphviz reserved for
// it. Bold (an HTML label's <b>, or a font name with "bold") is set in
// Liberation Sans Bold. Line widths, dashes and text scale with the
// picture, so --scale 2 is the scale 1 picture drawn sharper, not thinner.
//
// Drawings are made one at a time (Renderer's lock), so one engine serves.
type pngEngine struct {
	*gvc.DefaultRenderEngine

	img    *image.RGBA
	paint  *raster.RGBAPainter
	ras    *raster.Rasterizer
	shapes int // shapes drawn of the current node
	faces  map[faceKey]font.Face

	// device = k * (scale * (p + translation)), y flipped; k shrinks a
	// picture that would exceed maxPixels.
	sx, sy, tx, ty float64
}

// maxPixels bounds a PNG's size (4 bytes a pixel in memory, 256 MB): a
// larger picture is drawn smaller to fit, as dot -Tpng does for Cairo's
// limits. 1,000 steps at scale 1 would be 4,422x60,708 px (268 Mpx, a
// gigabyte); they are drawn at 2,160x29,650.
var maxPixels = 1 << 26

// maxSide is the most pixels on a side, Cairo's limit, which many viewers
// share.
const maxSide = 32767

var (
	//go:embed fonts/LiberationSans-Regular.ttf
	regularTTF []byte
	//go:embed fonts/LiberationSans-Bold.ttf
	boldTTF []byte

	fontsOnce           sync.Once
	regularFont, boldFt *sfnt.Font
	fontsErr            error
)

type faceKey struct {
	bold bool
	size float64 // in pixels
}

// face returns the embedded font at size pixels. A face is not safe for
// concurrent use, so each engine keeps its own.
func (e *pngEngine) face(bold bool, size float64) (font.Face, error) {
	fontsOnce.Do(func() {
		if regularFont, fontsErr = opentype.Parse(regularTTF); fontsErr == nil {
			boldFt, fontsErr = opentype.Parse(boldTTF)
		}
	})
	if fontsErr != nil {
		return nil, fmt.Errorf("embedded font: %w", fontsErr)
	}
	k := faceKey{bold, math.Round(size*64) / 64}
	if f, ok := e.faces[k]; ok {
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
	if e.faces == nil {
		e.faces = map[faceKey]font.Face{}
	}
	e.faces[k] = f
	return f, nil
}

func (e *pngEngine) BeginPage(_ context.Context, job *gvc.Job) (err error) {
	defer recoverTo(&err)
	w, h := float64(job.Width()), float64(job.Height())
	k := 1.0
	if w*h > float64(maxPixels) {
		k = math.Sqrt(float64(maxPixels) / (w * h))
	}
	if m := math.Max(w, h) * k; m > maxSide {
		k *= maxSide / m
	}
	s, t := job.Scale(), job.Translation()
	e.sx, e.sy, e.tx, e.ty = k*s.X(), k*s.Y(), t.X(), t.Y()
	iw, ih := max(1, int(math.Ceil(w*k))), max(1, int(math.Ceil(h*k)))
	e.img = image.NewRGBA(image.Rect(0, 0, iw, ih)) // transparent until Graphviz draws the background
	e.paint = raster.NewRGBAPainter(e.img)
	e.ras = raster.NewRasterizer(0, 0)
	e.ras.UseNonZeroWinding = true
	return nil
}

func (e *pngEngine) EndPage(_ context.Context, job *gvc.Job) (err error) {
	defer recoverTo(&err)
	var buf bytes.Buffer
	if err := encodePNG(&buf, e.img); err != nil {
		return err
	}
	job.SetOutputData(buf.Bytes())
	job.SetOutputDataPosition(uint(buf.Len()))
	e.img, e.paint = nil, nil
	return nil
}

// pt maps a point of the layout to the picture.
func (e *pngEngine) pt(p *gvc.PointFloat) point {
	return point{e.sx * (p.X() + e.tx), -e.sy * (p.Y() + e.ty)}
}

type point struct{ x, y float64 }

// shape is a path in picture coordinates: a start and cubic segments (a
// straight segment has its ends as control points).
type shape struct {
	pts    []point // pts[0], then 3 a segment
	closed bool
}

func (e *pngEngine) BeginNode(_ context.Context, _ *gvc.Job) error {
	e.shapes = 0
	return nil
}

// nodeFilled reports whether the node shape drawn now is to be filled:
// the node's style says so, and it is the node's first shape.
func (e *pngEngine) nodeFilled(job *gvc.Job) bool {
	first := e.shapes == 0
	e.shapes++
	return first && job.Object().Fill() != gvc.FillNone
}

// filled decides whether a closed shape is filled (see pngEngine).
func (e *pngEngine) filled(job *gvc.Job, flag bool) bool {
	switch job.Object().Type() {
	case gvc.EdgeObjectType:
		return true // arrowheads
	case gvc.NodeObjectType:
		return e.nodeFilled(job)
	}
	return flag // the background, clusters
}

func (e *pngEngine) Polygon(_ context.Context, job *gvc.Job, a []*gvc.PointFloat, filled bool) (err error) {
	defer recoverTo(&err)
	s := shape{closed: true}
	for i, p := range a {
		q := e.pt(p)
		if i == 0 {
			s.pts = append(s.pts, q)
			continue
		}
		s.lineTo(q)
	}
	s.lineTo(s.pts[0])
	e.draw(job, s, e.filled(job, filled))
	return nil
}

func (s *shape) lineTo(q point) {
	p := s.pts[len(s.pts)-1]
	s.pts = append(s.pts, p, q, q)
}

func (e *pngEngine) Ellipse(_ context.Context, job *gvc.Job, a []*gvc.PointFloat, filled bool) (err error) {
	defer recoverTo(&err)
	c, r := e.pt(a[0]), e.pt(a[1])
	rx, ry := math.Abs(r.x-c.x), math.Abs(r.y-c.y)
	const kappa = 0.5522847498 // four cubics make a circle
	kx, ky := kappa*rx, kappa*ry
	s := shape{closed: true, pts: []point{
		{c.x + rx, c.y},
		{c.x + rx, c.y + ky}, {c.x + kx, c.y + ry}, {c.x, c.y + ry},
		{c.x - kx, c.y + ry}, {c.x - rx, c.y + ky}, {c.x - rx, c.y},
		{c.x - rx, c.y - ky}, {c.x - kx, c.y - ry}, {c.x, c.y - ry},
		{c.x + kx, c.y - ry}, {c.x + rx, c.y - ky}, {c.x + rx, c.y},
	}}
	e.draw(job, s, e.filled(job, filled))
	return nil
}

func (e *pngEngine) BezierCurve(_ context.Context, job *gvc.Job, a []*gvc.PointFloat, filled bool) (err error) {
	defer recoverTo(&err)
	s := shape{}
	for i := 0; i < len(a); i++ {
		s.pts = append(s.pts, e.pt(a[i]))
	}
	s.pts = s.pts[:1+(len(s.pts)-1)/3*3]
	first, last := s.pts[0], s.pts[len(s.pts)-1]
	s.closed = len(s.pts) > 1 && math.Abs(first.x-last.x) < 1e-6 && math.Abs(first.y-last.y) < 1e-6
	fill := false
	switch job.Object().Type() {
	case gvc.NodeObjectType:
		fill = e.nodeFilled(job) // rounded boxes
	case gvc.EdgeObjectType:
	default:
		fill = filled && s.closed
	}
	e.draw(job, s, fill)
	return nil
}

func (e *pngEngine) Polyline(_ context.Context, job *gvc.Job, a []*gvc.PointFloat) (err error) {
	defer recoverTo(&err)
	s := shape{}
	for i, p := range a {
		if i == 0 {
			s.pts = append(s.pts, e.pt(p))
			continue
		}
		s.lineTo(e.pt(p))
	}
	e.draw(job, s, false)
	return nil
}

// draw fills s with the object's fill colour if fill, then strokes it with
// its pen.
func (e *pngEngine) draw(job *gvc.Job, s shape, fill bool) {
	if len(s.pts) < 4 {
		return
	}
	o := job.Object()
	if fill {
		if c := rgba(o.FillColor()); c.A > 0 {
			e.fill(s, c)
		}
	}
	if o.Pen() == gvc.PenNone {
		return
	}
	c := rgba(o.PenColor())
	if c.A == 0 {
		return
	}
	w := o.PenWidth() * e.sx
	if w <= 0 {
		return
	}
	// Cairo's patterns, which dot -Tpng draws with, in points.
	var dashes []float64
	switch o.Pen() {
	case gvc.PenDashed:
		dashes = []float64{6 * e.sx, 6 * e.sx}
	case gvc.PenDotted:
		dashes = []float64{2 * e.sx, 6 * e.sx}
	}
	e.stroke(s, w, dashes, c)
}

func rgba(c *gvc.Color) color.NRGBA {
	if c == nil {
		return color.NRGBA{}
	}
	v := c.RGBAUint()
	return color.NRGBA{uint8(v[0]), uint8(v[1]), uint8(v[2]), uint8(v[3])}
}

func fx(p point) fixed.Point26_6 {
	return fixed.Point26_6{X: fixed.Int26_6(math.Round(p.x * 64)), Y: fixed.Int26_6(math.Round(p.y * 64))}
}

// covers reports whether s is an axis-aligned rectangle that covers the
// picture, to within half a pixel: the background.
func (e *pngEngine) covers(s shape) bool {
	if !s.closed || len(s.pts) != 13 {
		return false
	}
	b := e.img.Bounds()
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := 3; i < len(s.pts); i += 3 {
		p, q := s.pts[i-3], s.pts[i]
		if p.x != q.x && p.y != q.y {
			return false // a diagonal side
		}
		x0, y0, x1, y1 = math.Min(x0, q.x), math.Min(y0, q.y), math.Max(x1, q.x), math.Max(y1, q.y)
	}
	return x0 <= float64(b.Min.X)+0.5 && y0 <= float64(b.Min.Y)+0.5 && x1 >= float64(b.Max.X)-0.5 && y1 >= float64(b.Max.Y)-0.5
}

// bounds is the box of pts (a cubic lies within its control points),
// grown by pad, in pixels, clipped to the picture.
func (e *pngEngine) bounds(pts []point, pad float64) image.Rectangle {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, y0, x1, y1 = math.Min(x0, p.x), math.Min(y0, p.y), math.Max(x1, p.x), math.Max(y1, p.y)
	}
	r := image.Rect(int(math.Floor(x0-pad)), int(math.Floor(y0-pad)), int(math.Ceil(x1+pad))+1, int(math.Ceil(y1+pad))+1)
	return r.Intersect(e.img.Bounds())
}

// rasterize paints what add puts in a rasterizer the size of box, so that
// each shape costs its own area, not the picture's.
func (e *pngEngine) rasterize(box image.Rectangle, c color.NRGBA, add func(off point)) {
	if box.Empty() {
		return
	}
	e.ras.SetBounds(box.Dx(), box.Dy())
	add(point{float64(box.Min.X), float64(box.Min.Y)})
	e.paint.SetColor(c)
	dx, dy := box.Min.X, box.Min.Y
	e.ras.Rasterize(raster.PainterFunc(func(ss []raster.Span, done bool) {
		for i := range ss {
			ss[i].Y += dy
			ss[i].X0 += dx
			ss[i].X1 += dx
		}
		e.paint.Paint(ss, done)
	}))
}

func (e *pngEngine) fill(s shape, c color.NRGBA) {
	if e.covers(s) {
		// The background: filled at once rather than through the
		// rasterizer.
		draw.Draw(e.img, e.img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
		return
	}
	e.rasterize(e.bounds(s.pts, 1), c, func(off point) {
		sub := func(p point) fixed.Point26_6 { return fx(point{p.x - off.x, p.y - off.y}) }
		e.ras.Start(sub(s.pts[0]))
		for i := 1; i+2 < len(s.pts); i += 3 {
			e.ras.Add3(sub(s.pts[i]), sub(s.pts[i+1]), sub(s.pts[i+2]))
		}
		e.ras.Add1(sub(s.pts[0]))
	})
}

func (e *pngEngine) stroke(s shape, w float64, dashes []float64, c color.NRGBA) {
	// The stroker takes straight segments only.
	paths := [][]point{flatten(s.pts)}
	// A closed outline's ends meet in round caps, like its round joins
	// elsewhere; an open line, and a dash, ends square, as Cairo's.
	capper := raster.ButtCapper
	if dashes != nil {
		paths = dash(paths[0], dashes)
	} else if s.closed {
		capper = raster.RoundCapper
	}
	e.rasterize(e.bounds(s.pts, w), c, func(off point) {
		var path raster.Path
		for _, pl := range paths {
			path.Clear()
			path.Start(fx(point{pl[0].x - off.x, pl[0].y - off.y}))
			for _, p := range pl[1:] {
				path.Add1(fx(point{p.x - off.x, p.y - off.y}))
			}
			e.ras.AddStroke(path, fixed.Int26_6(w*64), capper, raster.RoundJoiner)
		}
	})
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

// recoverTo turns a panic while drawing into the drawing's error: the
// WebAssembly bridge that calls the engine would report it only as an
// unreadable memory error.
func recoverTo(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("png renderer: %v", r)
	}
}

// htmlBold is Graphviz's HTML_BF, a text font's flag for <b>.
const htmlBold = 1

func (e *pngEngine) TextSpan(_ context.Context, job *gvc.Job, p *gvc.PointFloat, span *gvc.TextSpan) (err error) {
	defer recoverTo(&err)
	f := span.Font()
	text := span.Text()
	if f == nil || text == "" {
		return nil
	}
	bold := f.Flags()&htmlBold != 0 || containsFold(f.Name(), "bold")
	fc, err := e.face(bold, f.Size()*e.sy)
	if err != nil {
		return err
	}
	c := rgba(job.Object().PenColor())
	if c.A == 0 {
		return nil
	}
	// The width Graphviz reserved for the span, placed by its
	// justification; the text is centred in it.
	est := span.Size().X()
	x := p.X()
	switch span.Just() {
	case 'r':
		x -= est
	case 'l':
	default:
		x -= est / 2
	}
	o := point{e.sx * (x + e.tx), -e.sy * (p.Y() + span.YOffsetCenterLine() + span.YOffsetLayout() + e.ty)}
	real := font.MeasureString(fc, text)
	left := o.x + (est*e.sx-float64(real)/64)/2
	d := font.Drawer{Dst: e.img, Src: image.NewUniform(c), Face: fc, Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round(left * 64)), Y: fixed.Int26_6(math.Round(o.y * 64))}}
	d.DrawString(text)
	return nil
}

func containsFold(s, sub string) bool {
	return bytes.Contains(bytes.ToLower([]byte(s)), []byte(sub))
}

// newGraphviz starts Graphviz with the PNG renderer replaced.
func newGraphviz(ctx context.Context) (*graphviz.Graphviz, error) {
	engine := &pngEngine{DefaultRenderEngine: new(gvc.DefaultRenderEngine)}
	render, err := gvc.NewRenderPlugin(ctx, "png", engine,
		gvc.WithRenderFeatures(gvc.RenderYGoesDown, gvc.RenderDoesTransform))
	if err != nil {
		return nil, err
	}
	device, err := gvc.PNGDevicePlugin(ctx)
	if err != nil {
		return nil, err
	}
	return graphviz.NewWithPlugins(ctx, render, device)
}
