package render

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/colornames"
)

// drawing is what a PNG is painted from: Graphviz's own SVG of the layout
// (-Tsvg), read into its shapes and texts in the order the SVG has them,
// which is the order Graphviz draws them in (outputorder included). The SVG
// says everything the picture needs: each shape's points and curves, its
// colours, line width and dashes, each text's place, anchor, font and size;
// and Graphviz writes it in one call, so a drawing costs one crossing of the
// WebAssembly bridge. It is Graphviz's cheapest output that says what to
// draw: for 1,000 steps Graphviz writes it in 105 ms after the layout,
// where xdot, which the PNG was drawn from before, took 233 ms and json
// 520 ms (in process, after the same layout; whole, BenchmarkDrawPNG). And
// the PNG is then the SVG's own picture, so the two formats cannot
// disagree.
type drawing struct {
	width, height float64     // the page in points (the viewBox): the layout and its pad
	background    color.NRGBA // the graph's background, over the whole page; transparent if none
	elems         []element
}

// elemKind is the kind of an element of the SVG that draws.
type elemKind uint8

const (
	elemPolygon  elemKind = iota // closed: <polygon>
	elemPolyline                 // open: <polyline>
	elemPath                     // cubic curves, a start and 3 points a segment: <path>
	elemEllipse                  // pts[0] the centre, pts[1] the radii: <ellipse>
	elemText                     // <text>
)

// element is one shape or text, in page coordinates: points, y down, the
// SVG's transform applied.
type element struct {
	kind         elemKind
	pts          []point
	fill, stroke color.NRGBA // transparent: none
	width        float64     // the line's, in points
	dashes       []float64   // on, off, ... in points; nil for a solid line

	text   string
	anchor byte // 's', 'm' or 'e': the text starts, is centred or ends at pts[0]
	bold   bool
	size   float64 // the font's, in points
}

// parseSVG reads Graphviz's SVG. It reads what Graphviz writes (a
// viewBox, a scale and translate on the graph's group, polygons,
// polylines, paths of M and C, ellipses, texts, linear and radial
// gradients), not every SVG a person may write: other elements and
// attributes are passed over, and a transform with a rotation (the DOT's
// rotate, landscape) is refused. Hand-written over encoding/xml because no
// maintained Go library reads SVG into shapes with their text: oksvg and
// rasterx draw no text.
func parseSVG(b []byte) (*drawing, error) {
	p := svgParser{d: &drawing{}, gradients: map[string]color.NRGBA{}, scale: [2]float64{1, 1}}
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("graphviz's svg: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = p.start(t)
		case xml.EndElement:
			err = p.end(t)
		case xml.CharData:
			if p.inText {
				p.text.Write(t)
			}
		}
		if err != nil {
			line, _ := dec.InputPos()
			return nil, fmt.Errorf("graphviz's svg, line %d: %w", line, err)
		}
	}
	if !p.closed {
		return nil, errors.New("graphviz's svg ends early: no </svg>")
	}
	return p.d, nil
}

type svgParser struct {
	d         *drawing
	depth     int // of the element being read; the <svg> is 1
	groups    int // <g> elements open
	closed    bool
	gradients map[string]color.NRGBA // by id, their first stop's colour
	gradient  string                 // the gradient being read, if its first stop is still to come

	// The graph group's transform: page = scale * (p + translate).
	scale, translate [2]float64
	shapes           int // shapes read (texts are not), the background included

	inText bool
	elem   element // the text being read
	text   strings.Builder
}

func (p *svgParser) start(t xml.StartElement) error {
	p.depth++
	if p.closed {
		return errors.New("an element after </svg>")
	}
	attr := func(name string) string {
		for _, a := range t.Attr {
			if a.Name.Local == name && a.Name.Space == "" {
				return a.Value
			}
		}
		return ""
	}
	if p.depth == 1 {
		if t.Name.Local != "svg" {
			return fmt.Errorf("<%s> where <svg> belongs", t.Name.Local)
		}
		return p.viewBox(attr("viewBox"))
	}
	switch t.Name.Local {
	case "g":
		p.groups++
		if tr := attr("transform"); tr != "" {
			if p.groups != 1 || p.shapes > 0 {
				return errors.New("a transform on an inner group, which Graphviz does not write")
			}
			return p.transform(tr)
		}
	case "linearGradient", "radialGradient":
		p.gradient = attr("id")
	case "stop":
		if p.gradient == "" {
			return nil
		}
		c, err := stopColor(attr("style"), attr("stop-color"), attr("stop-opacity"))
		if err != nil {
			return err
		}
		p.gradients[p.gradient] = c
		p.gradient = ""
	case "polygon", "polyline", "path", "ellipse", "text":
		return p.element(t.Name.Local, attr)
	}
	return nil
}

func (p *svgParser) end(t xml.EndElement) error {
	if p.depth--; p.depth < 0 {
		return fmt.Errorf("</%s> with nothing open", t.Name.Local)
	}
	switch t.Name.Local {
	case "g":
		p.groups--
	case "linearGradient", "radialGradient":
		p.gradient = ""
	case "text":
		if p.inText {
			p.inText = false
			p.elem.text = p.text.String()
			p.d.elems = append(p.d.elems, p.elem)
		}
	}
	if p.depth == 0 {
		p.closed = true
	}
	return nil
}

// viewBox takes the page's size.
func (p *svgParser) viewBox(v string) error {
	f := strings.Fields(strings.ReplaceAll(v, ",", " "))
	var n [4]float64
	var err error
	for i := 0; i < len(f) && i < 4 && err == nil; i++ {
		n[i], err = parseNumber(f[i])
	}
	if len(f) != 4 || err != nil || !(n[2] > 0 && n[3] > 0) || n[2] > 1e7 || n[3] > 1e7 {
		return fmt.Errorf("the svg's viewBox %q is not a page's: want 4 numbers, a positive width and height", v)
	}
	p.d.width, p.d.height = n[2], n[3]
	return nil
}

// transform reads the graph group's transform: scale(sx sy), rotate(0)
// and translate(tx ty), in that order, as Graphviz writes them.
func (p *svgParser) transform(v string) error {
	for s := strings.TrimSpace(v); s != ""; s = strings.TrimSpace(s) {
		name, rest, ok := strings.Cut(s, "(")
		args, after, ok2 := strings.Cut(rest, ")")
		if !ok || !ok2 {
			return fmt.Errorf("transform %q: want name(arguments) ...", v)
		}
		s = after
		nums, err := numbers(args)
		if err != nil {
			return fmt.Errorf("transform %q: %w", v, err)
		}
		switch name = strings.TrimSpace(name); {
		case name == "scale" && (len(nums) == 1 || len(nums) == 2):
			p.scale = [2]float64{nums[0], nums[len(nums)-1]}
		case name == "translate" && (len(nums) == 1 || len(nums) == 2):
			p.translate[0] = nums[0]
			if len(nums) == 2 {
				p.translate[1] = nums[1]
			}
		case name == "rotate" && len(nums) >= 1:
			if math.Mod(nums[0], 360) != 0 {
				return fmt.Errorf("the graph is rotated (%s): the DOT's rotate and landscape are not drawn as PNG; draw it as SVG", strings.TrimSpace(v[:len(v)-len(s)]))
			}
		default:
			return fmt.Errorf("transform %q: %s with %d numbers, which Graphviz does not write", v, name, len(nums))
		}
	}
	return nil
}

// pt maps a point of the graph group to the page.
func (p *svgParser) pt(x, y float64) point {
	return point{p.scale[0] * (x + p.translate[0]), p.scale[1] * (y + p.translate[1])}
}

// element reads a shape or the start of a text.
func (p *svgParser) element(name string, attr func(string) string) error {
	if p.inText {
		return fmt.Errorf("<%s> in a text", name)
	}
	e := element{width: 1}
	var err error
	num := func(s string) float64 {
		if err != nil {
			return 0
		}
		var v float64
		if v, err = parseNumber(s); err != nil {
			err = fmt.Errorf("<%s>: %w", name, err)
		}
		return v
	}
	// SVG's defaults: filled black, no line.
	fill, stroke := attr("fill"), attr("stroke")
	if fill == "" {
		fill = "black"
	}
	if stroke == "" {
		stroke = "none"
	}
	if e.fill, err = p.paint(fill, attr("fill-opacity")); err != nil {
		return err
	}
	if e.stroke, err = p.paint(stroke, attr("stroke-opacity")); err != nil {
		return err
	}
	if w := attr("stroke-width"); w != "" {
		// Checked here: the points below are read into err too.
		if e.width = math.Abs(num(w)) * p.scale[0]; err != nil {
			return err
		}
	}
	if d := attr("stroke-dasharray"); d != "" && d != "none" {
		if e.dashes, err = dashes(d, p.scale[0]); err != nil {
			return err
		}
	}
	switch name {
	case "polygon", "polyline":
		e.kind = elemPolyline
		if name == "polygon" {
			e.kind = elemPolygon
		}
		var nums []float64
		if nums, err = numbers(attr("points")); err == nil && len(nums)%2 != 0 {
			err = fmt.Errorf("<%s>: an odd count of coordinates", name)
		}
		for i := 0; err == nil && i+1 < len(nums); i += 2 {
			e.pts = append(e.pts, p.pt(nums[i], nums[i+1]))
		}
	case "path":
		e.kind = elemPath
		if e.pts, err = p.path(attr("d")); err != nil {
			err = fmt.Errorf("<path>: %w", err)
		}
	case "ellipse":
		e.kind = elemEllipse
		c := p.pt(num(attr("cx")), num(attr("cy")))
		e.pts = []point{c, {math.Abs(num(attr("rx")) * p.scale[0]), math.Abs(num(attr("ry")) * p.scale[1])}}
	case "text":
		e.kind = elemText
		e.pts = []point{p.pt(num(attr("x")), num(attr("y")))}
		e.size = 14 * p.scale[1] // Graphviz's default
		if s := attr("font-size"); s != "" {
			e.size = math.Abs(num(s)) * p.scale[1]
		}
		switch attr("text-anchor") {
		case "middle":
			e.anchor = 'm'
		case "end":
			e.anchor = 'e'
		default:
			e.anchor = 's'
		}
		w := attr("font-weight")
		e.bold = w == "bold" || w == "bolder" || (len(w) == 3 && w >= "600" && w <= "900") ||
			strings.Contains(strings.ToLower(attr("font-family")), "bold")
	}
	if err != nil {
		return err
	}
	if name == "text" {
		p.inText, p.elem = true, e
		p.text.Reset()
		return nil
	}
	// The first shape of the graph's group, before any node, edge or
	// cluster, is the graph's background: it fills the whole page, pad
	// included, as dot -Tpng's does.
	if p.shapes++; p.shapes == 1 && p.groups == 1 && e.kind == elemPolygon {
		p.d.background = e.fill
		return nil
	}
	p.d.elems = append(p.d.elems, e)
	return nil
}

// path reads a path's data: a move, then cubic curves, or lines, which
// become cubics with their ends as control points; absolute coordinates
// only, as Graphviz writes them.
func (p *svgParser) path(d string) ([]point, error) {
	var pts []point
	var cmd byte
	var args []float64
	flush := func() error {
		switch {
		case cmd == 0 && len(args) > 0:
			return errors.New("numbers before the first command")
		case cmd == 0:
			return nil
		case len(args)%2 != 0:
			return fmt.Errorf("%c with an odd count of coordinates", cmd)
		}
		for i := 0; i+1 < len(args); i += 2 {
			q := p.pt(args[i], args[i+1])
			switch {
			case cmd == 'M' && i == 0 && pts == nil:
				pts = append(pts, q)
			case cmd == 'M':
				return errors.New("a second M: Graphviz writes one curve a path")
			case cmd == 'L':
				last := pts[len(pts)-1]
				pts = append(pts, last, q, q)
			default: // C
				pts = append(pts, q)
			}
		}
		if cmd == 'C' && len(args)%6 != 0 {
			return errors.New("C with coordinates that are not whole curves")
		}
		args = args[:0]
		return nil
	}
	for i := 0; i < len(d); {
		c := d[i]
		switch {
		case c == ' ' || c == ',' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == 'M' || c == 'C' || c == 'L':
			if err := flush(); err != nil {
				return nil, err
			}
			if c != 'M' && pts == nil {
				return nil, fmt.Errorf("%c before M", c)
			}
			cmd = c
			i++
		case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(d) && (d[j] == '.' || d[j] == 'e' || d[j] == 'E' || (d[j] >= '0' && d[j] <= '9') ||
				((d[j] == '-' || d[j] == '+') && (d[j-1] == 'e' || d[j-1] == 'E'))) {
				j++
			}
			v, err := parseNumber(d[i:j])
			if err != nil {
				return nil, err
			}
			args = append(args, v)
			i = j
		default:
			return nil, fmt.Errorf("the command %q, which Graphviz does not write", c)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(pts) == 0 {
		return nil, errors.New("no points")
	}
	return pts, nil
}

// numbers reads numbers apart by spaces or commas.
func numbers(s string) ([]float64, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' })
	out := make([]float64, 0, len(f))
	for _, v := range f {
		n, err := parseNumber(v)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// parseNumber reads a coordinate or length: a finite number, within what
// a page of Graphviz's can hold.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.Abs(v) > 1e9 {
		return 0, fmt.Errorf("%q is not a coordinate: want a number within ±1e9", s)
	}
	return v, nil
}

// dashes reads a stroke-dasharray: Graphviz's SVG writes 5,2 for dashed
// and 1,5 for dotted, drawn with Cairo's patterns, which dot -Tpng draws
// with. It writes no other, so any other is refused rather than drawn: a
// pattern of tiny dashes along a long line would be millions of marks.
func dashes(s string, scale float64) ([]float64, error) {
	switch strings.ReplaceAll(s, " ", "") {
	case "5,2":
		return []float64{6 * scale, 6 * scale}, nil
	case "1,5":
		return []float64{2 * scale, 6 * scale}, nil
	}
	return nil, fmt.Errorf("stroke-dasharray %q, which Graphviz does not write: want 5,2 (dashed) or 1,5 (dotted)", s)
}

// paint reads a fill or stroke: a colour, none, or a gradient (url(#id)),
// drawn in its first colour; with its opacity, if given.
func (p *svgParser) paint(v, opacity string) (color.NRGBA, error) {
	var c color.NRGBA
	if id, ok := strings.CutPrefix(v, "url(#"); ok {
		g, found := p.gradients[strings.TrimSuffix(id, ")")]
		if !found {
			return c, fmt.Errorf("the paint %q names no gradient before it", v)
		}
		c = g
	} else {
		var err error
		if c, err = parseColor(v); err != nil {
			return c, err
		}
	}
	return withOpacity(c, opacity)
}

// stopColor reads a gradient stop's colour, from its style
// ("stop-color:red;stop-opacity:1.0;", as Graphviz writes it) or its
// attributes.
func stopColor(style, col, opacity string) (color.NRGBA, error) {
	for _, decl := range strings.Split(style, ";") {
		k, v, _ := strings.Cut(decl, ":")
		switch strings.TrimSpace(k) {
		case "stop-color":
			col = strings.TrimSpace(v)
		case "stop-opacity":
			opacity = strings.TrimSpace(v)
		}
	}
	if col == "" {
		col = "black"
	}
	c, err := parseColor(col)
	if err != nil {
		return c, err
	}
	return withOpacity(c, opacity)
}

// withOpacity multiplies c's alpha by opacity, a number from 0 to 1, if
// given.
func withOpacity(c color.NRGBA, opacity string) (color.NRGBA, error) {
	if opacity == "" {
		return c, nil
	}
	o, err := strconv.ParseFloat(opacity, 64)
	if err != nil || math.IsNaN(o) {
		return c, fmt.Errorf("the opacity %q: want a number from 0 to 1", opacity)
	}
	c.A = uint8(math.Round(float64(c.A) * math.Max(0, math.Min(1, o))))
	return c, nil
}

// parseColor reads a colour as Graphviz writes it in SVG: #rrggbb,
// #rrggbbaa, a colour name, none or transparent.
func parseColor(s string) (color.NRGBA, error) {
	if strings.HasPrefix(s, "#") && (len(s) == 7 || len(s) == 9) {
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err == nil {
			if len(s) == 7 {
				v = v<<8 | 0xff
			}
			return color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
		}
	}
	switch s = strings.ToLower(s); s {
	case "transparent", "none", "invis":
		return color.NRGBA{}, nil
	}
	if c, ok := colornames.Map[s]; ok {
		return color.NRGBA{c.R, c.G, c.B, c.A}, nil
	}
	return color.NRGBA{}, fmt.Errorf("unknown colour %q", s)
}
