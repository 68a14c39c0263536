// Command skillc compiles, lints, renders and runs workflow skills.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	tuneGC(os.Args[1:])
	os.Exit(run(os.Args[1:], newIOStreams()))
}

// tuneGC makes `skillc lint` collect garbage half as often (GOGC=200).
// Linting is a short batch job that allocates much (every file's markdown
// tree) and keeps little (sources and findings). Whole-process
// `/usr/bin/time -v skillc lint`, 10 paired rounds, medians, load average
// 7 on 2 shared cores (CPU is user+sys):
//
//	input                         GOGC=200    Go defaults  GOGC=200 + 64 MiB soft limit
//	2,000 skills of 20 steps      0.45 s CPU  0.53 s       0.45 s
//	                              60 MB RSS   48 MB        57 MB
//	one skill of 100,000 steps    0.48 s CPU  0.53 s       1.18 s
//	                              230 MB RSS  222 MB       181 MB
//
// No soft memory limit: once the live heap passes it (one large skill
// holds more than 64 MiB) the collector runs back to back, which made lint
// super-linear in the size of a skill: 100,000 steps cost 16.8x the CPU of
// 10,000 with the limit, 6.9x without (where process start-up dominates
// the 10,000). Other commands, `skillc serve` above all, keep Go's
// defaults, and so does a run with GOGC or GOMEMLIMIT set.
func tuneGC(args []string) {
	if len(args) == 0 || args[0] != "lint" || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(200)
}
