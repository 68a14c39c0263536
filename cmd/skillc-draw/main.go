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
)

func main() {
	os.Exit(render.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
