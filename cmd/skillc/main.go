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
// 2-7 on 2 cores (CPU is user+sys):
//
//	input                         GOGC=200    Go defaults  GOGC=200 + 64 MiB soft limit
//	2,000 skills of 20 steps      0.55 s CPU  0.61 s       1.06 s
//	                              152 MB RSS  137 MB       99 MB
//	one skill of 100,000 steps    0.47 s CPU  0.51 s       1.12 s
//	                              228 MB RSS  222 MB       181 MB
//
// No soft memory limit: one below the live heap (a large run holds more
// than 64 MiB) makes the collector run back to back, which doubled the CPU
// above and made lint super-linear in the size of a skill (100,000 steps
// cost 16x 10,000; 6.7x without the limit, where startup dominates the
// 10,000). Other commands, `skillc serve` above all, keep Go's defaults,
// and so does a run with GOGC or GOMEMLIMIT set.
func tuneGC(args []string) {
	if len(args) == 0 || args[0] != "lint" || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(200)
}
