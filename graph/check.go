package graph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// Rule IDs of the graph checks. They are stable: configs and suppressions
// name them.
const (
	RuleCycle          = "cycle"
	RuleUnreachable    = "unreachable-step"
	RuleNoPathToEnd    = "no-path-to-end"
	RuleEntryCannotEnd = "entry-cannot-end"
)

// Check builds the step graph of s and reports its problems: loops,
// steps the entry never reaches, steps that can never reach end, and an
// entry that can never end. A skill whose graph cannot be built (no steps,
// duplicate or reserved IDs) gets nothing here: the compiler reports those.
func Check(s *compiler.Skill) compiler.Diagnostics {
	if s == nil || len(s.Steps) == 0 {
		return nil
	}
	g, err := New(s)
	if err != nil {
		return nil
	}
	return g.Check()
}

// Errors returns what makes a compiled skill no valid plan template: the
// compiler's errors (compiled, as Compile returned them) and the errors of
// Check, whatever a lint config later makes of them. `skillc compile`,
// `skillc plan make` and the server's make_plan all refuse on these.
func Errors(s *compiler.Skill, compiled compiler.Diagnostics) compiler.Diagnostics {
	var out compiler.Diagnostics
	for _, d := range append(compiled[:len(compiled):len(compiled)], Check(s)...) {
		if d.Severity == compiler.SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// Check reports the graph's problems, sorted by position. See the package
// function Check.
func (g *Graph) Check() compiler.Diagnostics {
	if g.Len() == 0 {
		return nil
	}
	var ds compiler.Diagnostics
	ds = append(ds, g.checkCycles()...)
	ds = append(ds, g.checkUnreachable()...)
	ds = append(ds, g.checkEnd()...)
	ds.Sort()
	return ds
}

func (g *Graph) checkCycles() compiler.Diagnostics {
	var ds compiler.Diagnostics
	var parent []int32
	for _, comp := range g.sccs {
		if parent == nil {
			parent = g.loopScratch()
		}
		loop := g.loopThrough(comp, parent)
		ids := make([]string, 0, len(loop)+1)
		for _, v := range loop {
			ids = append(ids, g.nodes[v])
		}
		ids = append(ids, ids[0])
		first := g.skill.Steps[loop[0]]
		last := g.skill.Steps[loop[len(loop)-1]]
		back := g.edgeBetween(last.ID, first.ID)

		var summary string
		if len(loop) == 1 {
			summary = fmt.Sprintf("step %s leads back to itself; a plan must always move forward: send the retry to a new step or to fail", first.ID)
		} else {
			summary = fmt.Sprintf("steps %s form a loop; a plan must always move forward: send the retry to a new step or to fail", strings.Join(ids, " -> "))
		}
		var detail strings.Builder
		fmt.Fprintf(&detail, "the loop: %s", g.describePath(loop))
		if len(comp) > len(loop) {
			others := make([]string, 0, len(comp)-len(loop))
			onLoop := make(map[int32]bool, len(loop))
			for _, v := range loop {
				onLoop[v] = true
			}
			for _, v := range comp {
				if !onLoop[v] {
					others = append(others, g.nodes[v])
				}
			}
			fmt.Fprintf(&detail, "; steps %s loop back into it too", strings.Join(others, ", "))
		}
		ds = append(ds, compiler.Diagnostic{
			Severity:   compiler.SeverityError,
			Rule:       RuleCycle,
			Summary:    summary,
			Detail:     detail.String(),
			Range:      g.stepRange(first),
			Suggestion: fmt.Sprintf("point step %s's %s edge at a new step, or at fail", last.ID, edgeName(back)),
		})
	}
	return ds
}

// describePath says edge by edge how the loop goes round:
// "2 on success goes to 3, 3 on failure (retry) goes to 2".
func (g *Graph) describePath(loop []int32) string {
	var b strings.Builder
	for i, v := range loop {
		from := g.nodes[v]
		to := g.nodes[loop[(i+1)%len(loop)]]
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s goes to %s", from, edgeName(g.edgeBetween(from, to)), to)
	}
	return b.String()
}

// edgeBetween is the first edge, in source order, from one step to another.
// A step has two edges, so this looks at two.
func (g *Graph) edgeBetween(from, to string) Edge {
	for _, e := range g.stepEdges(from) {
		if e.To == to {
			return e
		}
	}
	return Edge{From: from, To: to}
}

// stepEdges are the (at most two) edges out of a step. Edges are stored
// step by step in source order, so they are found by the step's index.
func (g *Graph) stepEdges(id string) []Edge {
	i, ok := g.lookup(id)
	if !ok || i >= g.Len() {
		return nil
	}
	// Edges are stored step by step; a binary search over their source
	// finds the step's block without a second map.
	lo := sort.Search(len(g.edges), func(m int) bool { return int(g.edges[m].from) >= i })
	var out []Edge
	for j := lo; j < len(g.edges) && int(g.edges[j].from) == i; j++ {
		out = append(out, g.spell(g.edges[j]))
	}
	return out
}

// edgeName names an edge for a message: `"no"`, or `on success`.
func edgeName(e Edge) string {
	kind := "on success"
	if e.Kind == compiler.Failure {
		kind = "on failure"
	}
	if e.Label != "" && e.Label != kind {
		return fmt.Sprintf("%s (%q)", kind, e.Label)
	}
	return kind
}

func (g *Graph) checkUnreachable() compiler.Diagnostics {
	reach := g.reach
	entry := g.nodes[g.entry]
	var ds compiler.Diagnostics
	for i := 0; i < g.Len(); i++ {
		if reach[i] {
			continue
		}
		st := g.skill.Steps[i]
		var from []string
		for _, p := range g.in(int32(i)) {
			if int(p) < g.Len() && int(p) != i {
				from = append(from, g.nodes[p])
			}
		}
		detail := "no other step leads to it"
		if len(from) > 0 {
			detail = fmt.Sprintf("only steps the entry never reaches lead to it (%s)", strings.Join(from, ", "))
		}
		ds = append(ds, compiler.Diagnostic{
			Severity:   compiler.SeverityError,
			Rule:       RuleUnreachable,
			Summary:    fmt.Sprintf("step %q can never be reached from the entry step %q", st.ID, entry),
			Detail:     detail,
			Range:      g.stepRange(st),
			Suggestion: fmt.Sprintf("send an earlier step's edge to %s (e.g. `no: %s`), or remove the step", st.ID, st.ID),
		})
	}
	return ds
}

func (g *Graph) checkEnd() compiler.Diagnostics {
	toEnd := g.toEnd
	reach := g.reach
	way := "fails"
	if len(g.sccs) > 0 {
		way = "fails or goes round a loop"
	}
	var ds compiler.Diagnostics
	for i := 0; i < g.Len(); i++ {
		st := g.skill.Steps[i]
		switch {
		case toEnd[i]:
		case i == g.entry:
			ds = append(ds, compiler.Diagnostic{
				Severity:   compiler.SeverityError,
				Rule:       RuleEntryCannotEnd,
				Summary:    fmt.Sprintf("no path from the entry step %q reaches end: every run of this skill %s", st.ID, way),
				Range:      g.stepRange(st),
				Suggestion: "send some step's success edge to end (e.g. `yes: end`)",
			})
		case reach[i]:
			// A step the entry never reaches already has an error; saying
			// also that it cannot end would only repeat it.
			ds = append(ds, compiler.Diagnostic{
				Severity:   compiler.SeverityWarning,
				Rule:       RuleNoPathToEnd,
				Summary:    fmt.Sprintf("step %q can never reach end: every path from it %s", st.ID, way),
				Range:      g.stepRange(st),
				Suggestion: "send one of its edges, or a later step's, to end or to a step that reaches it",
			})
		}
	}
	return ds
}

// stepRange is where a diagnostic about a step points: its ID as written,
// else its goal, else the whole step.
func (g *Graph) stepRange(st *compiler.Step) compiler.Range {
	r := st.IDRange
	if r.IsZero() {
		r = st.GoalRange
	}
	if r.IsZero() {
		r = st.Range
	}
	if r.Filename == "" {
		r.Filename = g.skill.Filename
	}
	return r
}
