package render

import (
	"bytes"
	"context"
	"fmt"
	"io"
)

// Main is the skillc-draw program (cmd/skillc-draw): `skillc-draw svg|png`
// reads DOT on stdin and writes the picture on stdout; any error goes to
// stderr with exit code 2, and then stdout stays empty. skillc runs it
// through drawcmd.Draw; it is a function here so that tests can make their
// own binary be skillc-draw.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 || (args[0] != string(SVG) && args[0] != string(PNG)) {
		fmt.Fprintln(stderr, "usage: skillc-draw svg|png < graph.dot > picture (the drawing program of skillc graph)")
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
	if err := r.Render(ctx, dot, ImageFormat(args[0]), &out); err != nil {
		fmt.Fprintf(stderr, "skillc-draw: %v\n", err)
		return 2
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "skillc-draw: write the %s: %v\n", args[0], err)
		return 2
	}
	return 0
}
