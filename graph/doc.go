// Package graph turns a compiled skill into its step graph and answers the
// questions the linter, the renderer and the plan runtime ask of it: which
// steps the entry reaches, which loops there are, which steps can never end
// well. It also draws the graph as DOT, Mermaid, SVG and PNG.
//
// The graph's vertices are the step IDs plus the two terminals "end" and
// "fail"; Library returns it as a github.com/dominikbraun/graph directed
// graph for callers that want that library's algorithms, and the tests hold
// this package's walks against them. The analyses themselves do not run on
// the library: at 100,000 steps its map-of-maps store costs more than
// compiling the skill, TopologicalSort is quadratic and
// StronglyConnectedComponents recurses once per vertex. They run on two
// flat integer arrays built once from the edges, and are written here
// iteratively, each O(V+E): depth-first reachability from the entry,
// breadth-first search from end over the reversed arcs, Tarjan's strongly
// connected components with an explicit stack, and a breadth-first shortest
// loop through each component's first step.
package graph
