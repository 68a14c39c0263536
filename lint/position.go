package lint

import "github.com/skillc/skillc/compiler"

// lastLine is the last line a range covers: an exclusive end at column 1
// of a later line stops on the line before.
func lastLine(r compiler.Range) int {
	if r.End.Line > r.Start.Line && r.End.Column <= 1 {
		return int(r.End.Line) - 1
	}
	if r.End.Line < r.Start.Line {
		return int(r.Start.Line)
	}
	return int(r.End.Line)
}
