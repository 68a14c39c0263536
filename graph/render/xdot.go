package render

import (
	"encoding/json"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"golang.org/x/image/colornames"
)

// layout is the part of Graphviz's json output (-Tjson: the laid-out
// graph with its xdot drawing operations) that a PNG is drawn from. Graphviz
// writes it in one call, so a drawing costs one crossing of the
// WebAssembly bridge, not one per node, edge and coordinate.
type layout struct {
	BB          string `json:"bb"`          // "llx,lly,urx,ury", in points, y up
	Pad         string `json:"pad"`         // inches, "x" or "x,y"; absent unless the DOT sets it
	OutputOrder string `json:"outputorder"` // absent unless the DOT sets it

	Draw  []xdotOp `json:"_draw_"`  // the background
	LDraw []xdotOp `json:"_ldraw_"` // the graph's label

	// Objects are the subgraphs (SubgraphCount of them, first), then the
	// nodes.
	SubgraphCount int          `json:"_subgraph_cnt"`
	Objects       []layoutItem `json:"objects"`
	Edges         []layoutItem `json:"edges"`
}

// layoutItem is a subgraph, node or edge with its drawing, each attribute
// a list of operations in the order Graphviz draws them.
type layoutItem struct {
	ID         int      `json:"_gvid"`
	Tail, Head int      // an edge's nodes, by ID
	Draw       []xdotOp `json:"_draw_"`   // a node's shape, an edge's curve
	TailDraw   []xdotOp `json:"_tdraw_"`  // an edge's arrowhead at its tail
	HeadDraw   []xdotOp `json:"_hdraw_"`  // an edge's arrowhead at its head
	LabelDraw  []xdotOp `json:"_ldraw_"`  // the label
	HeadLDraw  []xdotOp `json:"_hldraw_"` // an edge's head label
	TailLDraw  []xdotOp `json:"_tldraw_"` // an edge's tail label
	XLabelDraw []xdotOp `json:"_xldraw_"` // an external label
}

// xdotOp is one xdot drawing operation as Graphviz's json writes it
// (https://graphviz.org/docs/outputs/canon/#xdot). Op is its letter; the
// other fields are those of its kind.
type xdotOp struct {
	Op string `json:"op"`

	// E e: an ellipse, filled or outlined: centre x, y and radii.
	Rect []float64 `json:"rect"`
	// P p: a polygon, filled or outlined; L: a polyline; B b: a cubic
	// B-spline (a start and 3 points a segment), filled or outlined.
	Points [][2]float64 `json:"points"`

	// T: text at Pt (the baseline), its Width as Graphviz measured it,
	// placed by Align (l, c, r).
	Pt    [2]float64 `json:"pt"`
	Align string     `json:"align"`
	Width float64    `json:"width"`
	Text  string     `json:"text"`

	// F: the font for the text that follows.
	Size float64 `json:"size"`
	Face string  `json:"face"`
	// t: the text's flags (fontBold, ...).
	FontChar int `json:"fontchar"`

	// c C: the pen and fill colour; a gradient is drawn in its first
	// colour.
	Grad  string `json:"grad"`
	Color string `json:"color"`
	Stops []struct {
		Color string `json:"color"`
	} `json:"stops"`

	// S: a style: solid, dashed, dotted, invis, bold, setlinewidth(W).
	Style string `json:"style"`
}

// fontBold is xdot's flag for bold text (an HTML label's <b>).
const fontBold = 1

// parseLayout reads Graphviz's json output.
func parseLayout(b []byte) (*layout, error) {
	var l layout
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("graphviz's json layout: %w", err)
	}
	return &l, nil
}

// box is the graph's bounding box, in points.
func (l *layout) box() (llx, lly, urx, ury float64, err error) {
	var v [4]float64
	f := strings.Split(l.BB, ",")
	if len(f) != 4 {
		return 0, 0, 0, 0, fmt.Errorf("graphviz's layout has no bounding box (bb %q)", l.BB)
	}
	for i, s := range f {
		if v[i], err = strconv.ParseFloat(s, 64); err != nil {
			return 0, 0, 0, 0, fmt.Errorf("graphviz's layout: bb %q: %w", l.BB, err)
		}
	}
	return v[0], v[1], v[2], v[3], nil
}

// padding is the margin around the drawing in points, across and down:
// the DOT's pad, else the 4 points dot -Tpng leaves.
func (l *layout) padding() (x, y float64, err error) {
	if l.Pad == "" {
		return 4, 4, nil
	}
	f := strings.Split(l.Pad, ",")
	x, err = strconv.ParseFloat(f[0], 64)
	y = x
	if err == nil && len(f) > 1 {
		y, err = strconv.ParseFloat(f[1], 64)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("graphviz's layout: pad %q: %w", l.Pad, err)
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

// opColor is the colour a c or C operation sets.
func opColor(op *xdotOp) (color.NRGBA, error) {
	if op.Grad != "" && op.Grad != "none" && len(op.Stops) > 0 {
		return xdotColor(op.Stops[0].Color)
	}
	return xdotColor(op.Color)
}
