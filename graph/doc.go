// Package graph is THE step graph of a workflow: the template and step
// shape that the compiler produces, make_plan takes and a plan embeds; the
// format's defaults; Check, the one validity check with one set of limits
// (problems without positions: the linter places them in a skill, plan.Make
// turns them into errors), which reads the steps through Steps so the
// linter checks a compiled skill's steps where they are (CheckSteps); and the analyses the linter, the renderer and
// the plan runtime ask of it: which steps the entry reaches, which loops
// there are, which steps can never end well. It also draws the graph as DOT
// and Mermaid (package render makes SVG and PNG of them).
//
// It imports no markdown and no graph library, so the runtime (plan, store,
// tools) links neither. The graph's vertices are the step IDs plus the two
// terminals "end" and "fail". The analyses are written here iteratively,
// each O(V+E), on two flat integer arrays built once from the edges:
// depth-first reachability from the entry, breadth-first search from end
// over the reversed arcs, Tarjan's strongly connected components with an
// explicit stack (run only when some arc goes back), and a breadth-first shortest loop through each
// component's first step. github.com/dominikbraun/graph's map-of-maps store
// costs more than compiling the skill at 100,000 steps, its TopologicalSort
// is quadratic and its StronglyConnectedComponents recurses once per
// vertex; the tests hold these walks against its algorithms.
package graph
