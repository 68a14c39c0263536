package graph

// maxSharedTerminal is how many edges a terminal may take and still be
// drawn once. Graphviz lays out an edge across k ranks with k virtual
// nodes, so n steps that all fail into one shared fail node cost O(n²):
// 60 steps took seconds, 100 steps minutes. Past this count each step gets
// its own small copy of the terminal beside it, which keeps every such edge
// one rank long and the layout linear.
const maxSharedTerminal = 8

// terminal numbers end and fail for the drawings.
const (
	termEnd = iota
	termFail
)

// terminalLayout says, for end and for fail, whether any edge reaches it and
// whether it is drawn once (shared) or once per step that reaches it.
type terminalLayout struct {
	used, shared [2]bool
}

func (g *Graph) terminalLayout() terminalLayout {
	var count [2]int
	for _, e := range g.edges {
		if t, ok := g.terminalOf(e.to); ok {
			count[t]++
		}
	}
	var l terminalLayout
	for t := range count {
		l.used[t] = count[t] > 0
		l.shared[t] = count[t] <= maxSharedTerminal
	}
	return l
}

// terminalOf tells whether node v is a terminal, and which.
func (g *Graph) terminalOf(v int32) (int, bool) {
	switch int(v) {
	case g.endIndex():
		return termEnd, true
	case g.failIndex():
		return termFail, true
	}
	return 0, false
}
