// Package gctune sets the collector's target for the commands that
// allocate much and keep little, in one place for all of them.
package gctune

import (
	"os"
	"runtime/debug"
)

// Set makes the collector run once the heap has grown by percent of what
// was live after the last collection (GOGC=percent), unless the user set
// GOGC or GOMEMLIMIT: their setting wins. No soft memory limit is set:
// once the live heap passes one, the collector runs back to back (see
// cmd/skillc's tuneGC).
func Set(percent int) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(percent)
}
