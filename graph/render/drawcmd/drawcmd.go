// Package drawcmd draws DOT as SVG or PNG by running the skillc-draw
// program, so that the process asking for a drawing does not link Graphviz.
//
// go-graphviz compiles its WebAssembly module in a package init, which every
// process linking it pays at start (about 36 ms and 4.4 MB) even when it
// never draws; skillc draws in one command out of many. skillc-draw
// (cmd/skillc-draw, graph/render.Main) links it instead: DOT on stdin, the
// picture on stdout. This package links nothing but the standard library.
package drawcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Name is the drawing program's name, beside skillc or on $PATH.
const Name = "skillc-draw"

// MaxSteps is the most steps drawn as SVG or PNG. Graphviz's layout grows
// faster than the graph (1,000 steps take seconds), so past this a picture
// would look like a hang, and would be unreadable anyway.
const MaxSteps = 1000

// ErrNotFound is returned when skillc-draw is neither beside the running
// program nor on $PATH.
var ErrNotFound = errors.New(Name + " is not installed beside skillc nor on $PATH: install it with `go install github.com/skillc/skillc/cmd/skillc-draw@latest` (dot and mermaid need nothing)")

// Find returns the path of skillc-draw: first beside the running program,
// so that a skillc and the skillc-draw installed with it go together, then
// on $PATH.
func Find() (string, error) {
	name := Name
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	p, err := exec.LookPath(Name)
	if err != nil {
		return "", ErrNotFound
	}
	return p, nil
}

// DefaultScale is a PNG's scale unless told: twice the pixels across of
// Graphviz's own dot -Tpng (96 dpi), sharp on today's screens. MinScale and
// MaxScale bound --scale.
const (
	DefaultScale = 2.0
	MinScale     = 0.5
	MaxScale     = 8.0
)

// CheckScale refuses a PNG scale outside MinScale..MaxScale.
func CheckScale(scale float64) error {
	if !(scale >= MinScale && scale <= MaxScale) { // and NaN
		return fmt.Errorf("the scale must be from %g to %g (times the 96 dpi of dot -Tpng); got %g", MinScale, MaxScale, scale)
	}
	return nil
}

// Draw lays out dot and returns it drawn as format ("svg" or "png"), by
// running skillc-draw; a PNG at DefaultScale.
func Draw(ctx context.Context, dot []byte, format string) ([]byte, error) {
	return DrawScaled(ctx, dot, format, DefaultScale)
}

// DrawScaled is Draw with a PNG at scale (see DefaultScale); an SVG ignores
// it.
func DrawScaled(ctx context.Context, dot []byte, format string, scale float64) ([]byte, error) {
	if format != "svg" && format != "png" {
		return nil, fmt.Errorf("unknown image format %q: want svg or png", format)
	}
	if err := CheckScale(scale); err != nil {
		return nil, err
	}
	prog, err := Find()
	if err != nil {
		return nil, err
	}
	args := []string{format}
	if format == "png" {
		args = append(args, "--scale", strconv.FormatFloat(scale, 'g', -1, 64))
	}
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Stdin = bytes.NewReader(dot)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return nil, fmt.Errorf("%s %s: %s", prog, format, firstLines(msg, 5))
		}
		return nil, fmt.Errorf("%s %s: %w", prog, format, err)
	}
	if out.Len() == 0 {
		return nil, fmt.Errorf("%s drew an empty %s", prog, format)
	}
	return out.Bytes(), nil
}

// firstLines keeps a crash's message and the top of its trace, not pages
// of goroutines.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}
