// Package render draws a step graph as SVG or PNG inside the process, with
// Graphviz compiled to WebAssembly (github.com/goccy/go-graphviz). It is a
// package of its own so that what only needs the graph's analyses (the plan
// runtime, the store, the server) does not link a WebAssembly runtime.
//
// Linking this package costs every process that links it go-graphviz's
// start-up (its package init compiles the WebAssembly module: about 36 ms
// and 4.4 MB with a warm cache, 0.9 s without), whether it draws or not,
// and no version of go-graphviz defers it. So skillc does not link it: the
// skillc-draw program does (see Main), and skillc runs it through
// graph/render/drawcmd only when it draws. Importing this package also
// imports cachedir, which keeps go-graphviz's code cache private.
package render

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/goccy/go-graphviz"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/graph/render/cachedir"
	"github.com/skillc/skillc/graph/render/drawcmd"
)

// cachedir's init, which must run before go-graphviz's, runs in every
// process that links go-graphviz through us; this init runs after
// go-graphviz's (a package initializes after its imports), when the
// private $TMPDIR has done its work.
func init() { cachedir.Restore() }

// ImageFormat is a drawing Graphviz makes from DOT.
type ImageFormat string

const (
	SVG ImageFormat = "svg"
	PNG ImageFormat = "png"
)

// Renderer lays out DOT and draws it as SVG or PNG inside the process, with
// Graphviz compiled to WebAssembly (github.com/goccy/go-graphviz): nothing
// to install. Graphviz lays out and draws the SVG; a PNG is that SVG
// painted by canvas, with embedded fonts (png.go, svg.go). Starting it
// compiles the WebAssembly module, which takes a noticeable moment, so make
// one per process and reuse it. It is safe for concurrent use; drawings are
// made one at a time.
type Renderer struct {
	mu    sync.Mutex
	gv    *graphviz.Graphviz
	fonts []fontCache // one a core (see canvas.paint)
}

// NewRenderer starts Graphviz.
func NewRenderer(ctx context.Context) (*Renderer, error) {
	gv, err := graphviz.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("start graphviz: %w", err)
	}
	return &Renderer{gv: gv}, nil
}

// Close releases Graphviz.
func (r *Renderer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gv.Close()
}

// Render lays out dot and writes it to w as format, a PNG at
// DefaultScale. Nothing is written to w unless the whole drawing succeeds.
func (r *Renderer) Render(ctx context.Context, dot []byte, format ImageFormat, w io.Writer) error {
	return r.RenderScaled(ctx, dot, format, DefaultScale, w)
}

// DefaultScale, MinScale and MaxScale bound a PNG's scale (see
// drawcmd.DefaultScale).
const (
	DefaultScale = drawcmd.DefaultScale
	MinScale     = drawcmd.MinScale
	MaxScale     = drawcmd.MaxScale
)

// RenderScaled is Render with a PNG drawn at scale times the size of
// Graphviz's own (dot -Tpng, 96 dpi): scale 2 has twice the pixels across.
// An SVG has no pixels and ignores it.
func (r *Renderer) RenderScaled(ctx context.Context, dot []byte, format ImageFormat, scale float64, w io.Writer) error {
	if err := drawcmd.CheckScale(scale); err != nil {
		return err
	}
	if format != SVG && format != PNG {
		return fmt.Errorf("unknown image format %q: want svg or png", format)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	g, err := graphviz.ParseBytes(dot)
	if err != nil {
		return fmt.Errorf("graphviz cannot read the dot: %w", err)
	}
	defer g.Close()
	if err := boundLayout(g, positionIterations); err != nil {
		return err
	}
	var pic []byte
	if format == PNG {
		if pic, err = r.drawPNG(ctx, g, scale); err != nil {
			return err
		}
	} else {
		var buf bytes.Buffer
		if err := r.gv.Render(ctx, g, graphviz.SVG, &buf); err != nil {
			return fmt.Errorf("graphviz cannot draw the svg: %w", err)
		}
		pic = buf.Bytes()
	}
	if len(pic) == 0 {
		return fmt.Errorf("graphviz drew an empty %s", format)
	}
	_, err = w.Write(pic)
	return err
}

// positionIterations bounds the network simplex that places the nodes
// across (Graphviz dot's position phase), nearly all of the time of a large
// drawing: a skill needs about 1.7 iterations per step (12 for ACAT, 160
// for 100 steps, 1,688 for 1,000), each over an auxiliary graph that grows
// with the skill, so unbounded the time grew as n^2.5 (3 s for 1,000 steps
// in WebAssembly). Graphviz's nslimit caps the iterations at nslimit times
// the node count; boundLayout sets it to this many over the node count, the
// same cap at every size. 200 covers every skill a plan can take (at most
// 100 steps), which is drawn exactly as Graphviz would
// (TestBoundLayoutKeepsSkillPictures); larger ones get a placement that is
// good but not optimal (edges a little less straight). Times:
// BenchmarkDrawSVG and BenchmarkPositionIterations.
var positionIterations = 200

// boundLayout sets g's nslimit so that dot's position phase does at most
// iterations network-simplex iterations.
func boundLayout(g *graphviz.Graph, iterations int) error {
	n, err := g.NodeNum()
	if err != nil {
		return fmt.Errorf("graphviz: count the nodes: %w", err)
	}
	if iterations <= 0 || n == 0 {
		return nil
	}
	v := strconv.FormatFloat(float64(iterations)/float64(n), 'g', 6, 64)
	if err := g.SafeSet("nslimit", v, ""); err != nil {
		return fmt.Errorf("graphviz: set nslimit=%s: %w", v, err)
	}
	return nil
}

// MaxDrawSteps is the most steps Draw lays out (see drawcmd.MaxSteps).
const MaxDrawSteps = drawcmd.MaxSteps

// Draw renders the graph's DOT as an SVG or PNG with r.
func (r *Renderer) Draw(ctx context.Context, g *graph.Graph, format ImageFormat, w io.Writer) error {
	if n := g.Len(); n > MaxDrawSteps {
		return fmt.Errorf("%d steps are too many to draw as %s (at most %d): use the dot or mermaid format", n, format, MaxDrawSteps)
	}
	return r.Render(ctx, g.DOT(), format, w)
}
