package server

import "github.com/skillc/skillc/internal/gctune"

// GCPercent is the garbage collector's target (as GOGC) for a process that
// serves. A call allocates about 150 KB, most of it short-lived (the SDK
// decodes each request's JSON several times, with a 32 KiB buffer each
// time), on a live heap of about 2 MB: at Go's default of 100 the collector
// ran every 10-20 calls and took a third of the server's CPU. At 400 the
// heap peaks near 16 MB instead of 5 MB.
const GCPercent = 400

// TuneGC sets GCPercent, unless GOGC or GOMEMLIMIT in the environment says
// otherwise (gctune, which lint and compile use too). `skillc serve` calls
// it once at start.
func TuneGC() { gctune.Set(GCPercent) }
