// Command skillc compiles, lints, renders and runs workflow skills.
package main

import (
	"os"

	"github.com/skillc/skillc/internal/gctune"
)

func main() {
	tuneGC(os.Args[1:])
	os.Exit(run(os.Args[1:], newIOStreams()))
}

// tuneGC makes `skillc lint` and `skillc compile` collect garbage a
// quarter as often as Go's default (GOGC=400). They are short batch jobs
// that allocate much (every file's markdown tree) and keep little
// (sources and findings): on 2,000 skills of 20 steps the collector ran
// ~30 times on a 6-8 MB live heap at GOGC=200. Lint of those 2,000 skills
// (callgrind instructions; whole-process CPU and RSS, one run each):
//
//	GOGC   instructions  CPU     RSS
//	200    3,144M        0.63 s  50 MB
//	400    2,968M        0.54 s  68 MB
//	800    2,894M        0.47 s  81 MB
//
// One skill of 100,000 steps (12 MB) lints in 1.41 s CPU and 613 MB at
// 400, against 2.00 s and 543 MB at 200. No soft memory limit: once the
// live heap passes it (one large skill holds more than 64 MiB) the
// collector runs back to back, which made lint super-linear in the size of
// a skill. Other commands, `skillc serve` above all, keep their own
// settings, and a run with GOGC or GOMEMLIMIT set keeps those.
func tuneGC(args []string) {
	if len(args) > 0 && (args[0] == "lint" || args[0] == "compile") {
		gctune.Set(400)
	}
}
