package render

import (
	"bytes"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"golang.org/x/image/colornames"
)

// layout is what a PNG is drawn from, read from Graphviz's xdot output
// (-Txdot: the graph as DOT, laid out, with each object's drawing
// operations in its _draw_, _ldraw_, ... attributes). Graphviz writes it in
// one call, so a drawing costs one crossing of the WebAssembly bridge, not
// one per node, edge and coordinate; and xdot is Graphviz's cheapest
// output that says what to draw (1,000 steps: about 0.57 s of CPU against
// 0.80 s for json, which Graphviz makes from the xdot).
type layout struct {
	bb          string // "llx,lly,urx,ury", in points, y up
	pad         string // inches, "x" or "x,y"; empty unless the DOT sets it
	outputOrder string // empty unless the DOT sets it

	background []xdotOp // the graph's _draw_
	label      []xdotOp // the graph's _ldraw_
	clusters   []layoutItem
	// items are the nodes and edges in the order Graphviz writes them,
	// which is the order it draws them in by default: each node, then
	// for each of its edges the head node, if not yet written, and the
	// edge.
	items []layoutItem
}

// layoutItem is a cluster's, node's or edge's drawing: its attributes'
// operations, each list in drawAttrs' order.
type layoutItem struct {
	edge  bool
	draws [][]xdotOp
}

// drawAttrs are the xdot attributes in the order Graphviz draws them: the
// shape or curve, the arrowheads at the tail and head, the label (with an
// external label), the head and tail labels.
var drawAttrs = []string{"_draw_", "_tdraw_", "_hdraw_", "_ldraw_", "_hldraw_", "_tldraw_"}

// xdotOp is one xdot drawing operation
// (https://graphviz.org/docs/outputs/canon/#xdot). Op is its letter; the
// other fields are those of its kind.
type xdotOp struct {
	Op string

	// E e: an ellipse, filled or outlined: centre x, y and radii.
	Rect [4]float64
	// P p: a polygon, filled or outlined; L: a polyline; b B: a cubic
	// B-spline (a start and 3 points a segment), filled or outlined.
	Points [][2]float64

	// T: text at Pt (the baseline), its Width as Graphviz measured it,
	// placed by Align (l, c, r).
	Pt    [2]float64
	Align string
	Width float64
	Text  string

	// F: the font for the text that follows.
	Size float64
	Face string
	// t: the text's flags (fontBold, ...).
	FontChar int

	// c C: the pen and fill colour; a gradient's is its first colour.
	Color string

	// S: a style: solid, dashed, dotted, invis, bold, setlinewidth(W).
	Style string
}

// fontBold is xdot's flag for bold text (an HTML label's <b>).
const fontBold = 1

// parseXdot reads Graphviz's xdot output. It reads the DOT Graphviz
// writes (one statement a node or edge, attributes as ID=value lists),
// not every DOT a person may write: no edges between subgraphs, no "+"
// between strings. Hand-written, as is readOps, because no maintained Go
// library reads xdot.
func parseXdot(b []byte) (*layout, error) {
	p := &xdotParser{s: dotScanner{b: b}, l: &layout{}}
	// [strict] (digraph | graph) [ID] {
	for {
		t, err := p.s.next()
		if err != nil {
			return nil, err
		}
		if t.punct == '{' {
			break
		}
		if t.punct != 0 {
			return nil, p.s.errorf("%q before the graph's {", string(t.punct))
		}
	}
	if err := p.body(false); err != nil {
		return nil, err
	}
	return p.l, nil
}

type xdotParser struct {
	s dotScanner
	l *layout
}

// body reads statements up to the closing }; in a subgraph, the graph
// attributes are a cluster's drawing (only a cluster has one).
func (p *xdotParser) body(subgraph bool) error {
	for {
		t, err := p.s.next()
		if err != nil {
			return err
		}
		switch {
		case t.punct == '}':
			return nil
		case t.punct == ';':
		case t.punct == '{': // an anonymous subgraph
			if err := p.body(true); err != nil {
				return err
			}
		case t.punct != 0:
			return p.s.errorf("unexpected %q", string(t.punct))
		case strings.EqualFold(t.text, "subgraph"):
			if t, err = p.s.next(); err == nil && t.punct == 0 { // its name
				t, err = p.s.next()
			}
			if err != nil {
				return err
			}
			if t.punct != '{' {
				return p.s.errorf("a subgraph without a {")
			}
			if err := p.body(true); err != nil {
				return err
			}
		case strings.EqualFold(t.text, "graph"), strings.EqualFold(t.text, "node"), strings.EqualFold(t.text, "edge"):
			attrs, err := p.attrs()
			if err != nil {
				return err
			}
			if strings.EqualFold(t.text, "graph") {
				if err := p.graphAttrs(attrs, subgraph); err != nil {
					return err
				}
			} // node and edge defaults carry no drawing
		default:
			if err := p.nodeOrEdge(); err != nil {
				return err
			}
		}
	}
}

// nodeOrEdge reads the rest of a statement that began with an ID: a node,
// an edge, or a graph attribute (ID=value).
func (p *xdotParser) nodeOrEdge() error {
	item := layoutItem{}
	for {
		t, err := p.s.peek()
		if err != nil {
			return err
		}
		switch t.punct {
		case ':', '-': // a port, an edge to the next node
			item.edge = item.edge || t.punct == '-'
			p.s.next()
			if t, err = p.s.next(); err != nil {
				return err
			}
			if t.punct != 0 {
				return p.s.errorf("%q where a node or port belongs", string(t.punct))
			}
		case '=':
			p.s.next()
			v, err := p.s.next()
			if err != nil {
				return err
			}
			if v.punct != 0 {
				return p.s.errorf("%q where a value belongs", string(v.punct))
			}
			return nil // a graph attribute statement: none that a drawing needs
		case '[':
			attrs, err := p.attrs()
			if err != nil {
				return err
			}
			for _, name := range drawAttrs {
				if v, ok := attrs[name]; ok {
					ops, err := readOps(v)
					if err != nil {
						return p.s.errorf("%s: %v", name, err)
					}
					item.draws = append(item.draws, ops)
				}
			}
			p.l.items = append(p.l.items, item)
			return nil
		default: // a node or edge without attributes draws nothing
			return nil
		}
	}
}

// attrs reads attribute lists, [ID=value, ...] ..., keeping the ones a
// drawing reads.
func (p *xdotParser) attrs() (map[string]string, error) {
	attrs := map[string]string{}
	for {
		t, err := p.s.peek()
		if err != nil || t.punct != '[' {
			return attrs, err
		}
		p.s.next()
		for {
			k, err := p.s.next()
			if err != nil {
				return nil, err
			}
			if k.punct == ']' {
				break
			}
			if k.punct == ',' || k.punct == ';' {
				continue
			}
			eq, err := p.s.next()
			if err != nil {
				return nil, err
			}
			v, err2 := p.s.next()
			if k.punct != 0 || eq.punct != '=' || err2 != nil || v.punct != 0 {
				return nil, p.s.errorf("an attribute list that is not ID=value")
			}
			switch k.text {
			case "bb", "pad", "outputorder":
				attrs[k.text] = v.text
			default:
				if strings.HasPrefix(k.text, "_") && strings.HasSuffix(k.text, "draw_") {
					attrs[k.text] = v.text
				}
			}
		}
	}
}

// graphAttrs takes the root graph's or a cluster's attributes.
func (p *xdotParser) graphAttrs(attrs map[string]string, cluster bool) error {
	draw, err := readOps(attrs["_draw_"])
	if err != nil {
		return p.s.errorf("_draw_: %v", err)
	}
	label, err := readOps(attrs["_ldraw_"])
	if err != nil {
		return p.s.errorf("_ldraw_: %v", err)
	}
	if cluster {
		if draw != nil || label != nil {
			p.l.clusters = append(p.l.clusters, layoutItem{draws: [][]xdotOp{draw, label}})
		}
		return nil
	}
	if v, ok := attrs["bb"]; ok {
		p.l.bb = v
	}
	if v, ok := attrs["pad"]; ok {
		p.l.pad = v
	}
	if v, ok := attrs["outputorder"]; ok {
		p.l.outputOrder = v
	}
	if draw != nil {
		p.l.background = draw
	}
	if label != nil {
		p.l.label = label
	}
	return nil
}

// dotToken is a punctuation mark (punct: { } [ ] = ; , : or - for an edge
// operator) or, when punct is 0, an ID, number, quoted string (unquoted)
// or HTML string (without its outer <>).
type dotToken struct {
	punct byte
	text  string
}

// dotScanner cuts DOT into tokens.
type dotScanner struct {
	b      []byte
	i      int
	peeked *dotToken
}

func (s *dotScanner) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(s.b[:min(s.i, len(s.b))], []byte("\n"))
	return fmt.Errorf("graphviz's xdot, line %d: %s", line, fmt.Sprintf(format, args...))
}

func (s *dotScanner) peek() (dotToken, error) {
	if s.peeked == nil {
		t, err := s.scan()
		if err != nil {
			return t, err
		}
		s.peeked = &t
	}
	return *s.peeked, nil
}

func (s *dotScanner) next() (dotToken, error) {
	if t := s.peeked; t != nil {
		s.peeked = nil
		return *t, nil
	}
	return s.scan()
}

func (s *dotScanner) scan() (dotToken, error) {
	b := s.b
	for s.i < len(b) && (b[s.i] == ' ' || b[s.i] == '\t' || b[s.i] == '\n' || b[s.i] == '\r') {
		s.i++
	}
	if s.i >= len(b) {
		return dotToken{}, s.errorf("the graph ends early")
	}
	c := b[s.i]
	switch {
	case strings.IndexByte("{}[]=;,:", c) >= 0:
		s.i++
		return dotToken{punct: c}, nil
	case c == '-' && s.i+1 < len(b) && (b[s.i+1] == '>' || b[s.i+1] == '-'):
		s.i += 2
		return dotToken{punct: '-'}, nil
	case c == '"':
		return s.quoted()
	case c == '<':
		start, depth := s.i+1, 0
		for ; s.i < len(b); s.i++ {
			switch b[s.i] {
			case '<':
				depth++
			case '>':
				if depth--; depth == 0 {
					s.i++
					return dotToken{text: string(b[start : s.i-1])}, nil
				}
			}
		}
		return dotToken{}, s.errorf("an HTML string without its >")
	}
	start := s.i
	for s.i < len(b) && (isIDByte(b[s.i]) || b[s.i] == '.' || (b[s.i] == '-' && s.i == start)) {
		s.i++
	}
	if s.i == start {
		return dotToken{}, s.errorf("unexpected %q", string(c))
	}
	return dotToken{text: string(b[start:s.i])}, nil
}

func isIDByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// quoted reads a quoted string as DOT does: \" is a quote, a backslash
// before a newline joins the lines, and any other backslash stays with the
// byte after it (see opReader.str).
func (s *dotScanner) quoted() (dotToken, error) {
	b := s.b
	s.i++
	var out strings.Builder
	for s.i < len(b) {
		c := b[s.i]
		switch {
		case c == '"':
			s.i++
			return dotToken{text: out.String()}, nil
		case c == '\\' && s.i+1 < len(b):
			switch b[s.i+1] {
			case '"':
				out.WriteByte('"')
			case '\n':
			case '\r':
				if s.i+2 < len(b) && b[s.i+2] == '\n' {
					s.i++
				}
			default:
				out.Write(b[s.i : s.i+2])
			}
			s.i += 2
		default:
			out.WriteByte(c)
			s.i++
		}
	}
	return dotToken{}, s.errorf("a string without its closing quote")
}

// readOps reads an xdot attribute's operations.
func readOps(s string) ([]xdotOp, error) {
	r := opReader{s: s}
	var ops []xdotOp
	for {
		r.space()
		if r.i >= len(r.s) {
			return ops, nil
		}
		op := xdotOp{Op: string(r.s[r.i])}
		r.i++
		var err error
		switch op.Op {
		case "E", "e":
			for k := 0; k < len(op.Rect) && err == nil; k++ {
				op.Rect[k], err = r.num()
			}
		case "P", "p", "L", "B", "b":
			var n int
			if n, err = r.int(); err == nil && (n < 1 || n > len(r.s)) {
				err = fmt.Errorf("%d points", n)
			}
			if err != nil {
				break // no slice sized by a count that was refused
			}
			op.Points = make([][2]float64, 0, n)
			for k := 0; k < n && err == nil; k++ {
				var x, y float64
				if x, err = r.num(); err == nil {
					y, err = r.num()
				}
				op.Points = append(op.Points, [2]float64{x, y})
			}
		case "T":
			var j int
			if op.Pt[0], err = r.num(); err == nil {
				op.Pt[1], err = r.num()
			}
			if err == nil {
				j, err = r.int()
				op.Align = map[int]string{-1: "l", 0: "c", 1: "r"}[j]
			}
			if err == nil {
				op.Width, err = r.num()
			}
			if err == nil {
				op.Text, err = r.str()
			}
		case "F":
			if op.Size, err = r.num(); err == nil {
				op.Face, err = r.str()
			}
		case "c", "C":
			if op.Color, err = r.str(); err == nil {
				op.Color, err = firstColor(op.Color)
			}
		case "S":
			op.Style, err = r.str()
		case "t":
			op.FontChar, err = r.int()
		case "I": // an image: its box and file, which a PNG does not draw
			for k := 0; k < 4 && err == nil; k++ {
				_, err = r.num()
			}
			if err == nil {
				_, err = r.str()
			}
		default:
			err = fmt.Errorf("unknown operation")
		}
		if err != nil {
			return nil, fmt.Errorf("%s at byte %d: %w", op.Op, r.i, err)
		}
		ops = append(ops, op)
	}
}

// opReader reads the fields of xdot operations, separated by spaces.
type opReader struct {
	s string
	i int
}

func (r *opReader) space() {
	for r.i < len(r.s) && r.s[r.i] == ' ' {
		r.i++
	}
}

func (r *opReader) field() string {
	r.space()
	start := r.i
	for r.i < len(r.s) && r.s[r.i] != ' ' {
		r.i++
	}
	return r.s[start:r.i]
}

func (r *opReader) num() (float64, error) { return strconv.ParseFloat(r.field(), 64) }
func (r *opReader) int() (int, error)     { return strconv.Atoi(r.field()) }

// str reads a string, "N -" and N bytes. Graphviz writes a backslash in
// a node's or edge's text as two (and in a cluster's as one): a doubled
// backslash is one byte of the text, a single one stands for itself.
func (r *opReader) str() (string, error) {
	n, err := r.int()
	if err != nil {
		return "", err
	}
	if r.i+1 >= len(r.s) || r.s[r.i] != ' ' || r.s[r.i+1] != '-' {
		return "", fmt.Errorf("a string without its -")
	}
	r.i += 2
	var out strings.Builder
	for range n {
		if r.i+1 < len(r.s) && r.s[r.i] == '\\' && r.s[r.i+1] == '\\' {
			r.i++
		}
		if r.i >= len(r.s) {
			return "", fmt.Errorf("a string shorter than its %d bytes", n)
		}
		out.WriteByte(r.s[r.i])
		r.i++
	}
	return out.String(), nil
}

// firstColor is a c or C operation's colour: the colour, or a gradient's
// first: [x0 y0 x1 y1 n stops] (linear) or (x0 y0 r0 x1 y1 r1 n stops)
// (radial), a stop being its place and colour.
func firstColor(s string) (string, error) {
	if len(s) < 2 || (s[0] != '[' && s[0] != '(') {
		return s, nil
	}
	r := opReader{s: s[1 : len(s)-1]}
	skip := 4
	if s[0] == '(' {
		skip = 6
	}
	for range skip + 2 { // the geometry, the count, the first stop's place
		if _, err := r.num(); err != nil {
			return "", fmt.Errorf("gradient %q: %w", s, err)
		}
	}
	return r.str()
}

// box is the graph's bounding box, in points.
func (l *layout) box() (llx, lly, urx, ury float64, err error) {
	var v [4]float64
	f := strings.Split(l.bb, ",")
	if len(f) != 4 {
		return 0, 0, 0, 0, fmt.Errorf("graphviz's layout has no bounding box (bb %q)", l.bb)
	}
	for i, s := range f {
		if v[i], err = strconv.ParseFloat(s, 64); err != nil {
			return 0, 0, 0, 0, fmt.Errorf("graphviz's layout: bb %q: %w", l.bb, err)
		}
	}
	return v[0], v[1], v[2], v[3], nil
}

// padding is the margin around the drawing in points, across and down:
// the DOT's pad, else the 4 points dot -Tpng leaves.
func (l *layout) padding() (x, y float64, err error) {
	if l.pad == "" {
		return 4, 4, nil
	}
	f := strings.Split(l.pad, ",")
	x, err = strconv.ParseFloat(f[0], 64)
	y = x
	if err == nil && len(f) > 1 {
		y, err = strconv.ParseFloat(f[1], 64)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("graphviz's layout: pad %q: %w", l.pad, err)
	}
	return x * 72, y * 72, nil
}

// xdotColor reads a colour as Graphviz writes it in xdot: #rrggbb,
// #rrggbbaa, or a colour name.
func xdotColor(s string) (color.NRGBA, error) {
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
	return color.NRGBA{}, fmt.Errorf("graphviz's layout: unknown colour %q", s)
}
