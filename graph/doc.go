// Package graph turns a compiled skill into its step graph and answers the
// questions the linter, the renderer and the plan runtime ask of it: which
// steps the entry reaches, which loops there are, which steps can never end
// well. It also draws the graph as DOT, Mermaid, SVG and PNG.
//
// The graph is a github.com/dominikbraun/graph directed graph of step IDs
// plus the two terminals "end" and "fail". The library's own algorithms do
// not scale to the 100,000-step skills we accept (TopologicalSort is
// quadratic, StronglyConnectedComponents recurses once per vertex), so the
// library's adjacency map is read once into integer-indexed lists and the
// analyses run iteratively over those, each in O(V+E).
package graph
