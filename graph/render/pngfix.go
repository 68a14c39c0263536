package render

import (
	"context"

	"github.com/goccy/go-graphviz"
	"github.com/goccy/go-graphviz/gvc"
)

// pngEngine wraps go-graphviz's PNG renderer (a Go port drawing with
// fogleman/gg) around a defect: the fill flag Graphviz passes reaches it as
// true for every shape, so edges become filled black blobs and outlined
// shapes vanish. The wrapper decides from the object what Graphviz meant:
// an edge's curve is stroked, its arrowhead filled; a node is filled when
// its style says so, then outlined. Hand-written because no maintained Go
// library rasterises Graphviz output in process.
//
// A node with peripheries (end's double circle, a waiting step's double
// border) is drawn innermost first, and Graphviz fills only that one: the
// wrapper counts a node's shapes and fills the first alone, else the outer
// fill would cover the inner line. Drawings are made one at a time
// (Renderer's lock), so one counter serves.
type pngEngine struct {
	*gvc.ImageRenderer
	shapes *int // shapes drawn of the current node
}

func (e pngEngine) BeginNode(ctx context.Context, job *gvc.Job) error {
	*e.shapes = 0
	return e.ImageRenderer.BeginNode(ctx, job)
}

// nodeFilled reports whether the node shape drawn now is to be filled:
// the node's style says so, and it is the node's first shape.
func (e pngEngine) nodeFilled(job *gvc.Job) bool {
	first := *e.shapes == 0
	*e.shapes++
	return first && job.Object().Fill() != gvc.FillNone
}

func (e pngEngine) BezierCurve(ctx context.Context, job *gvc.Job, p []*gvc.PointFloat, _ bool) error {
	if job.Object().Type() == gvc.NodeObjectType && e.nodeFilled(job) {
		if err := e.ImageRenderer.BezierCurve(ctx, job, p, true); err != nil {
			return err
		}
	}
	return e.ImageRenderer.BezierCurve(ctx, job, p, false)
}

func (e pngEngine) Polygon(ctx context.Context, job *gvc.Job, p []*gvc.PointFloat, _ bool) error {
	switch job.Object().Type() {
	case gvc.EdgeObjectType:
		return e.ImageRenderer.Polygon(ctx, job, p, true) // arrowheads
	case gvc.NodeObjectType:
		if e.nodeFilled(job) {
			if err := e.ImageRenderer.Polygon(ctx, job, p, true); err != nil {
				return err
			}
		}
	}
	return e.ImageRenderer.Polygon(ctx, job, p, false)
}

func (e pngEngine) Ellipse(ctx context.Context, job *gvc.Job, p []*gvc.PointFloat, _ bool) error {
	if job.Object().Type() == gvc.NodeObjectType && e.nodeFilled(job) {
		if err := e.ImageRenderer.Ellipse(ctx, job, p, true); err != nil {
			return err
		}
	}
	return e.ImageRenderer.Ellipse(ctx, job, p, false)
}

// newGraphviz starts Graphviz with the PNG renderer wrapped.
func newGraphviz(ctx context.Context) (*graphviz.Graphviz, error) {
	engine := pngEngine{ImageRenderer: &gvc.ImageRenderer{DefaultRenderEngine: new(gvc.DefaultRenderEngine)}, shapes: new(int)}
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
