// Command skillc compiles, lints, renders and runs workflow skills.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], newIOStreams()))
}
