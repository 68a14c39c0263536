package cachedir

// golden defines -update, which `go test ./... -update` passes to every
// package's tests: without it this package's would fail on the flag.
import _ "github.com/skillc/skillc/internal/golden"
