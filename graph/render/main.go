package render

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/skillc/skillc/graph/render/drawcmd"
)

// Main is the skillc-draw program (cmd/skillc-draw): `skillc-draw svg|png
// [--scale N]` reads DOT on stdin and writes the picture on stdout, a PNG
// at N times the size of dot -Tpng (DefaultScale unless told); any error
// goes to stderr with exit code 2, and then stdout stays empty. skillc runs it
// through drawcmd.Draw; it is a function here so that tests can make their
// own binary be skillc-draw.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const usage = "usage: skillc-draw svg|png [--scale N] < graph.dot > picture (the drawing program of skillc graph)"
	if len(args) == 0 || (args[0] != string(SVG) && args[0] != string(PNG)) {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	scale := DefaultScale
	switch {
	case len(args) == 3 && args[1] == "--scale":
		v, err := strconv.ParseFloat(args[2], 64)
		if err == nil {
			err = drawcmd.CheckScale(v)
		}
		if err != nil {
			fmt.Fprintf(stderr, "skillc-draw: --scale %s: %v\n%s\n", args[2], err, usage)
			return 2
		}
		scale = v
	case len(args) != 1:
		fmt.Fprintln(stderr, usage)
		return 2
	}
	dot, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "skillc-draw: read the dot: %v\n", err)
		return 2
	}
	ctx := context.Background()
	r, err := NewRenderer(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "skillc-draw: %v\n", err)
		return 2
	}
	defer r.Close()
	var out bytes.Buffer
	if err := r.RenderScaled(ctx, dot, ImageFormat(args[0]), scale, &out); err != nil {
		fmt.Fprintf(stderr, "skillc-draw: %v\n", err)
		return 2
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "skillc-draw: write the %s: %v\n", args[0], err)
		return 2
	}
	return 0
}
