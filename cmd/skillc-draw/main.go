// Command skillc-draw draws DOT as SVG or PNG for `skillc graph`: DOT on
// stdin, the picture on stdout. It is a program of its own because the
// Graphviz it links (go-graphviz, WebAssembly) starts in a package init
// that would otherwise slow down every skillc command; see graph/render.
// Install it beside skillc:
//
//	go install github.com/skillc/skillc/cmd/...@latest
package main

import (
	"os"

	"github.com/skillc/skillc/graph/render"
	"github.com/skillc/skillc/internal/gctune"
)

func main() {
	// A drawing is a short batch job that allocates much (a picture's
	// rows, Graphviz's output) and keeps one picture: collecting a quarter
	// as often as Go's default (GOGC=400) draws the PNG of 1,000 steps in
	// 1.16 s instead of 1.22 (1.48 s of CPU instead of 1.62, 200 MB instead
	// of 183) and its SVG in 0.68 s instead of 0.76 (9 interleaved runs;
	// the pictures are the same bytes).
	gctune.Set(400)
	os.Exit(render.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
