package graph

import "slices"

// Reachable returns the IDs of the steps the entry reaches, the entry
// included, in source order.
func (g *Graph) Reachable() []string { return g.stepsWhere(g.reach, true) }

// Unreachable returns the IDs of the steps the entry never reaches, in
// source order.
func (g *Graph) Unreachable() []string { return g.stepsWhere(g.reach, false) }

// CannotReachEnd returns the IDs of the steps from which no path reaches
// end, in source order: every way out of them fails or goes round a loop.
func (g *Graph) CannotReachEnd() []string { return g.stepsWhere(g.toEnd, false) }

// stepsWhere lists the steps whose mark is want, counted first so the list
// is allocated once.
func (g *Graph) stepsWhere(mark []bool, want bool) []string {
	n := 0
	for i := 0; i < g.Len(); i++ {
		if mark[i] == want {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for i := 0; i < g.Len(); i++ {
		if mark[i] == want {
			out = append(out, g.nodes[i])
		}
	}
	return out
}

// EntryReachesEnd reports whether some path from the entry reaches end. A
// skill without steps has no such path.
func (g *Graph) EntryReachesEnd() bool {
	return g.entry >= 0 && g.toEnd[g.entry]
}

// Cycles returns every loop of the graph once: one per strongly connected
// component with more than one step, and one per step that leads to
// itself. Each loop is a path of step IDs that starts at the component's
// earliest step in source order and returns to it (the start is not
// repeated at the end): the shortest such path, so the message an author
// reads is as small as it can be. Loops are listed in the source order of
// their first steps.
func (g *Graph) Cycles() [][]string {
	var out [][]string
	var parent []int32
	for _, c := range g.sccs {
		if parent == nil {
			parent = g.loopScratch()
		}
		path := g.loopThrough(c, parent)
		ids := make([]string, len(path))
		for i, v := range path {
			ids[i] = g.nodes[v]
		}
		out = append(out, ids)
	}
	return out
}

// reachable marks in seen, a slot per node, the nodes the entry reaches:
// an iterative depth-first walk, O(V+E). A node is pushed at most once, so
// scratch, a slot per node, holds the stack.
func (g *Graph) reachable(seen []bool, scratch []int32) []bool {
	if g.entry >= 0 {
		seen[g.entry] = true
		stack := append(scratch[:0], int32(g.entry))
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range g.out(v) {
				if !seen[w] {
					seen[w] = true
					stack = append(stack, w)
				}
			}
		}
	}
	return seen
}

// reachesEnd marks in seen the nodes from which end is reachable: a
// breadth-first walk from end over the reversed arcs, O(V+E), its queue
// in scratch, a slot per node.
func (g *Graph) reachesEnd(seen []bool, scratch []int32) []bool {
	end := int32(g.endIndex())
	seen[end] = true
	// An index walks the queue: slicing its head off would make append
	// copy it over and over.
	queue := append(scratch[:0], end)
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for _, w := range g.in(v) {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	return seen
}

// components returns the strongly connected components that hold a loop
// (more than one node, or one node with an arc to itself), each sorted by
// source order, the list sorted by each component's first node.
//
// Tarjan's algorithm written iteratively with an explicit call stack: the
// library's StronglyConnectedComponents recurses once per vertex, which a
// 100,000-step chain turns into a 100,000-frame recursion, and it returns
// the components in map order.
func (g *Graph) components() [][]int32 {
	if !g.goesBack() {
		return nil
	}
	n := len(g.nodes)
	const unvisited = -1
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	type frame struct {
		v    int32
		edge int32 // next successor of v to look at
	}
	// Each stack holds a node at most once, so room for every node is one
	// allocation each where growing them took several (a 20-step chain,
	// five each).
	var (
		next  int32
		stack = make([]int32, 0, n) // Tarjan's stack of visited nodes
		calls = make([]frame, 0, n)
		comps [][]int32
	)

	// Nodes are started in source order so the output is stable.
	for root := 0; root < n; root++ {
		if index[root] != unvisited {
			continue
		}
		calls = append(calls, frame{v: int32(root)})
		index[root], low[root] = next, next
		next++
		stack = append(stack, int32(root))
		onStack[root] = true

		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if out := g.out(v); int(f.edge) < len(out) {
				w := out[f.edge]
				f.edge++
				switch {
				case index[w] == unvisited:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{v: w})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			// All successors done: v "returns" to its caller.
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			// v is the root of a component: pop it. Most components are one
			// step and no loop; they cost no allocation.
			if stack[len(stack)-1] == v {
				stack = stack[:len(stack)-1]
				onStack[v] = false
				if g.selfLoop(v) {
					comps = append(comps, []int32{v})
				}
				continue
			}
			var comp []int32
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			comps = append(comps, comp)
		}
	}

	if len(comps) == 0 {
		return nil // most skills have no loop
	}
	// Sort each component, then the components by their first node.
	// Components are disjoint, so ordering them is one pass over a slot
	// per node: linear, where a comparison sort would not be.
	at := make([]int32, n) // 1 + the component whose first node this is
	for i, c := range comps {
		sortInt32(c, n)
		at[c[0]] = int32(i + 1)
	}
	sorted := make([][]int32, 0, len(comps))
	for _, k := range at {
		if k > 0 {
			sorted = append(sorted, comps[k-1])
		}
	}
	return sorted
}

// goesBack reports whether some arc leads to its own step or an earlier
// one. A loop needs such an arc (see loops.go): a graph whose arcs all go
// forward in written order, as most skills' do, has no loop, and one pass
// over the arcs tells so without Tarjan's walk and its five slices.
func (g *Graph) goesBack() bool {
	for v := range int32(g.Len()) {
		for _, w := range g.out(v) {
			if w <= v {
				return true
			}
		}
	}
	return false
}

func (g *Graph) selfLoop(v int32) bool {
	for _, w := range g.out(v) {
		if w == v {
			return true
		}
	}
	return false
}

// sortInt32 sorts a component's node indexes. Components are usually tiny;
// a large one is sorted by counting, so the whole pass stays linear.
func sortInt32(c []int32, n int) {
	if len(c) <= 64 {
		for i := 1; i < len(c); i++ {
			for j := i; j > 0 && c[j] < c[j-1]; j-- {
				c[j], c[j-1] = c[j-1], c[j]
			}
		}
		return
	}
	mark := make([]bool, n)
	for _, v := range c {
		mark[v] = true
	}
	c = c[:0]
	for v, ok := range mark {
		if ok {
			c = append(c, int32(v))
		}
	}
}

// loopThrough returns the shortest path from the component's first node
// back to itself, staying inside the component: a breadth-first walk,
// linear in the component's size. parent is scratch space of one slot per
// node, all -2 on entry and on return, shared by the calls of one pass so
// many small loops do not each pay for a slice of the whole graph.
func (g *Graph) loopThrough(comp []int32, parent []int32) []int32 {
	start := comp[0]
	if len(comp) == 1 {
		return []int32{start}
	}
	const (
		outside = -2 // not in this component
		unseen  = -1
	)
	for _, v := range comp {
		parent[v] = unseen
	}
	defer func() {
		for _, v := range comp {
			parent[v] = outside
		}
	}()
	queue := make([]int32, 1, len(comp))
	queue[0] = start
	parent[start] = start
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for _, w := range g.out(v) {
			if w == start {
				// Close the loop: walk the parents back to start.
				var path []int32
				for u := v; u != start; u = parent[u] {
					path = append(path, u)
				}
				path = append(path, start)
				slices.Reverse(path)
				return path
			}
			if parent[w] == unseen {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return comp // not reached: a component of two or more nodes has a loop through each
}

// loopScratch is the scratch space loopThrough wants.
func (g *Graph) loopScratch() []int32 {
	parent := make([]int32, len(g.nodes))
	for i := range parent {
		parent[i] = -2
	}
	return parent
}
