package render

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
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

// TestPNGPeripheries: a filled node with a double border (a waiting step,
// end's double circle) is filled inside its inner line only, as Graphviz
// and the SVG draw it. Along the middle row from the left: the outer line,
// then the gap (background, not the fill), then the inner line, then the
// fill.
func TestPNGPeripheries(t *testing.T) {
	dot := `digraph { pad=0.2; node [shape=box, style=filled, fillcolor="#ff0000", color="#000000", peripheries=2, width=2, height=1, label=""]; a }`
	var pic bytes.Buffer
	if err := testRenderer(t).Render(context.Background(), []byte(dot), PNG, &pic); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&pic)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	y := (b.Min.Y + b.Max.Y) / 2
	kind := func(x int) byte {
		r, g, bl, a := img.At(x, y).RGBA()
		switch {
		case a < 0x4000:
			return 'b' // transparent background
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
		t.Errorf("the middle row reads %q (b background, l line, f fill), want blblf: the outer border is filled", got)
	}
}
