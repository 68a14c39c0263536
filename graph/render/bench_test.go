package render

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-graphviz"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// generatedSkill is a list-form skill of n steps shaped like real ones
// (graph/bench_test.go has the same): tools on most steps, a yes/no
// question every 7th step, a failure edge forward every 5th, an explicit
// fail every 13th.
func generatedSkill(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: generated\ndescription: A generated skill of %d steps for benchmarks.\n---\n# Generated\n\n## Steps\n\n", n)
	for i := 1; i <= n; i++ {
		marker := fmt.Sprintf("%d. ", i)
		in := strings.Repeat(" ", len(marker))
		fmt.Fprintf(&b, "%sDo the work of step %d.\n", marker, i)
		if i%3 != 0 {
			fmt.Fprintf(&b, "%s- tools: tool_%d\n", in, i%17)
		}
		switch {
		case i%7 == 0 && i+2 <= n:
			fmt.Fprintf(&b, "%s- yes (one record): %d\n%s- no (many): %d\n", in, i+2, in, i+1)
		case i%5 == 0 && i+3 <= n:
			fmt.Fprintf(&b, "%s- on failure: %d\n", in, i+3)
		case i%13 == 0:
			fmt.Fprintf(&b, "%s- on failure: fail\n", in)
		}
	}
	return []byte(b.String())
}

func generatedGraph(b testing.TB, n int) *graph.Graph {
	b.Helper()
	s, diags := compiler.Compile("generated.md", generatedSkill(n), compiler.Options{MaxSize: -1})
	if diags.HasErrors() || len(s.Steps) != n {
		b.Fatalf("generated skill of %d steps compiled to %d steps with %v", n, len(s.Steps), diags)
	}
	g, err := graph.New(s.Template())
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkDrawSVG lays out and draws skills of 100, 300 and 1,000 steps
// (MaxDrawSteps) as SVG; compare the sizes for how the layout grows.
func BenchmarkDrawSVG(b *testing.B) {
	r := testRenderer(b)
	ctx := context.Background()
	for _, n := range []int{100, 300, 1000} {
		g := generatedGraph(b, n)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if err := r.Draw(ctx, g, SVG, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPositionIterations draws 1,000 steps with other caps on the
// position phase (0: unbounded, Graphviz's default), to choose
// positionIterations.
func BenchmarkPositionIterations(b *testing.B) {
	r := testRenderer(b)
	ctx := context.Background()
	g := generatedGraph(b, 1000)
	defer func(v int) { positionIterations = v }(positionIterations)
	for _, it := range []int{0, 400, 200, 100} {
		b.Run(fmt.Sprintf("iterations=%d", it), func(b *testing.B) {
			positionIterations = it
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if err := r.Draw(ctx, g, SVG, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDrawPNG lays out and draws skills of 100 and 1,000 steps as PNG.
func BenchmarkDrawPNG(b *testing.B) {
	r := testRenderer(b)
	ctx := context.Background()
	for _, n := range []int{100, 1000} {
		g := generatedGraph(b, n)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if err := r.Draw(ctx, g, PNG, &out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.Len()), "bytes")
		})
	}
}

// BenchmarkPaintPNG paints and encodes 1,000 steps at the default scale
// from a layout made once: the part of BenchmarkDrawPNG after Graphviz.
func BenchmarkPaintPNG(b *testing.B) {
	r := testRenderer(b)
	ctx := context.Background()
	gv, err := graphviz.ParseBytes(generatedGraph(b, 1000).DOT())
	if err != nil {
		b.Fatal(err)
	}
	defer gv.Close()
	if err := boundLayout(gv, positionIterations); err != nil {
		b.Fatal(err)
	}
	var svg bytes.Buffer
	if err := r.gv.Render(ctx, gv, graphviz.SVG, &svg); err != nil {
		b.Fatal(err)
	}
	d, err := parseSVG(svg.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	fonts := make([]fontCache, runtime.GOMAXPROCS(0))
	var out bytes.Buffer
	for b.Loop() {
		c := newCanvas(d, DefaultScale, &fonts[0])
		if err := c.addDrawing(d); err != nil {
			b.Fatal(err)
		}
		out.Reset()
		if err := c.paint(&out, fonts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.Len()), "bytes")
}
