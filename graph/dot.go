package graph

import (
	"bytes"
	"fmt"
	"strings"
)

// Colours shared by the DOT and Mermaid drawings.
const (
	colorStep       = "#4a5568"
	colorStepFill   = "#f7fafc"
	colorSuccess    = "#2d3748"
	colorFailure    = "#c53030"
	colorEndFill    = "#c6f6d5"
	colorEnd        = "#2f855a"
	colorFailFill   = "#fed7d7"
	colorToolsLabel = "#4a5568"
	// fontFamily is one name Graphviz has widths for, so that it sizes
	// each box and places each line by Helvetica's (Arial's) widths. A
	// list ("Helvetica,Arial,sans-serif") is a name it does not know: it
	// falls back to Times's, narrower, and the text then overflows its
	// box and sits off-centre wherever it is set in Helvetica or Arial.
	// Graphviz's SVG names the font "Helvetica,sans-Serif".
	fontFamily = "Helvetica"
)

// entryNode is the DOT name of the start point drawn before the entry. Its
// parentheses cannot appear in a step ID, so it never meets a step.
const entryNode = "(entry)"

// DOT writes the graph in Graphviz's DOT language. The output is the same
// byte for byte for the same skill: it is written by hand in source order,
// because the library's draw.DOT ranges over maps.
//
// Steps are rounded boxes showing the ID, the goal wrapped to short lines
// and the recommended tools; success edges are solid, failure edges dashed
// and red; labels are the author's LABEL or key word; end is a green double
// circle, fail a red octagon, and a black dot points at the entry. A step
// that waits for something outside the agent (wait_for) has a double
// border and a "waits for:" line.
func (g *Graph) DOT() []byte { return g.DOTWith(nil) }

// DOTWith is DOT with a run drawn over it (see Overlay): each step's state
// as its colours and a status line ("[x] done"), the steps in progress with
// a thick border, the edges of the path taken, and the terminal it reached,
// in bold, and the caption under the title. A nil overlay draws DOT.
func (g *Graph) DOTWith(o *Overlay) []byte {
	var b bytes.Buffer
	title := g.tmpl.Title
	if title == "" {
		title = g.tmpl.Skill
	}
	label := dotQuote(title)
	if o.active() && o.Caption != "" {
		label = dotLines([]string{title, o.Caption})
	}
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(g.tmpl.Skill))
	fmt.Fprintf(&b, "\tgraph [label=%s, labelloc=t, fontname=%s, fontsize=16, rankdir=TB, nodesep=0.4, ranksep=0.45, pad=0.3];\n",
		label, dotQuote(fontFamily))
	fmt.Fprintf(&b, "\tnode [shape=box, style=\"rounded,filled\", color=%s, fillcolor=%s, fontname=%s, fontsize=11, margin=\"0.15,0.08\"];\n",
		dotQuote(colorStep), dotQuote(colorStepFill), dotQuote(fontFamily))
	fmt.Fprintf(&b, "\tedge [color=%s, fontname=%s, fontsize=10];\n", dotQuote(colorSuccess), dotQuote(fontFamily))

	if g.entry >= 0 {
		fmt.Fprintf(&b, "\t%s [shape=point, width=0.15, height=0.15, style=filled, color=black, fillcolor=black, label=\"\"];\n", dotQuote(entryNode))
		entryAttrs := "color=black"
		if o.state(g.nodes[g.entry]) != Pending {
			entryAttrs += ", penwidth=" + penPath
		}
		fmt.Fprintf(&b, "\t%s -> %s [%s];\n", dotQuote(entryNode), dotQuote(g.nodes[g.entry]), entryAttrs)
	}
	for i := range g.tmpl.Steps {
		st := &g.tmpl.Steps[i]
		// One group for all steps: Graphviz then keeps the edges between
		// them straight, so the main path runs down the page.
		fmt.Fprintf(&b, "\t%s [group=steps%s, label=<%s>];\n", dotQuote(st.ID), stepAttrs(st, o), nodeHTML(st, o.statusLine(st.ID)))
	}
	terms := g.terminalLayout()
	// The terminal nodes the path reached, by DOT name, drawn bold.
	reached := map[string]bool{}
	for _, ie := range g.edges {
		if o.taken(g.nodes[ie.from], ie.kind) {
			reached[g.dotTarget(ie, terms)] = true
		}
	}
	for t, name := range []string{End, Fail} {
		if terms.used[t] && terms.shared[t] {
			fmt.Fprintf(&b, "\t%s [%s];\n", dotQuote(name), terminalAttrs(t, false, reached[dotQuote(name)]))
		}
	}
	stubbed := map[string]bool{} // terminal copies already declared
	for _, ie := range g.edges {
		e := g.spell(ie)
		to := g.dotTarget(ie, terms)
		if t, ok := g.terminalOf(ie.to); ok && !terms.shared[t] && !stubbed[to] {
			stubbed[to] = true
			fmt.Fprintf(&b, "\t%s [%s];\n", to, terminalAttrs(t, true, reached[to]))
		}
		var attrs []string
		if e.Label != "" {
			attrs = append(attrs, "label="+dotLines(wrap(e.Label, wrapWidth)))
		}
		taken := o.taken(e.From, e.Kind)
		switch {
		case e.Kind == Failure && taken:
			attrs = append(attrs, `style="dashed,bold"`, "penwidth="+penPath, "color="+dotQuote(colorFailure), "fontcolor="+dotQuote(colorFailure))
		case e.Kind == Failure:
			attrs = append(attrs, "style=dashed", "color="+dotQuote(colorFailure), "fontcolor="+dotQuote(colorFailure))
		case taken:
			attrs = append(attrs, "style=bold", "penwidth="+penPath)
		}
		fmt.Fprintf(&b, "\t%s -> %s", dotQuote(e.From), to)
		if len(attrs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// dotTarget is the DOT name of an edge's target: the step or shared
// terminal, or the copy of a terminal for this step alone, whose name has
// a colon, which no step ID has.
func (g *Graph) dotTarget(ie edge, terms terminalLayout) string {
	if t, ok := g.terminalOf(ie.to); ok && !terms.shared[t] {
		return dotQuote(g.nodes[ie.to] + ":" + g.nodes[ie.from])
	}
	return dotQuote(g.nodes[ie.to])
}

// stepAttrs are a step's attributes beyond the defaults: a double border
// when it waits for something outside the agent, its state's style under
// an overlay.
func stepAttrs(st *Step, o *Overlay) string {
	var b strings.Builder
	if st.WaitFor != "" {
		b.WriteString(", peripheries=2")
	}
	if ss, ok := stateStyles[o.state(st.ID)]; ok {
		fmt.Fprintf(&b, ", style=%s, color=%s, fillcolor=%s", dotQuote(ss.style), dotQuote(ss.color), dotQuote(ss.fill))
		if ss.pen != "" {
			b.WriteString(", penwidth=" + ss.pen)
		}
	}
	return b.String()
}

// terminalAttrs are the attributes of end (a green double circle) or fail
// (a red octagon); a per-step copy is drawn smaller, and one the path
// reached with a thick line.
func terminalAttrs(t int, copy, reached bool) string {
	size := ""
	if copy {
		size = ", fontsize=9, width=0.3, height=0.3"
	}
	if reached {
		size += ", penwidth=" + penPath
	}
	if t == termEnd {
		return fmt.Sprintf("shape=doublecircle, color=%s, fillcolor=%s, fontcolor=%s, style=filled, label=\"end\", margin=0.02%s",
			dotQuote(colorEnd), dotQuote(colorEndFill), dotQuote(colorEnd), size)
	}
	return fmt.Sprintf("shape=octagon, color=%s, fillcolor=%s, fontcolor=%s, style=filled, label=\"fail\", margin=0.02%s",
		dotQuote(colorFailure), dotQuote(colorFailFill), dotQuote(colorFailure), size)
}

// nodeHTML is a step's label as a Graphviz HTML-like label (stepLabel),
// the tools in small grey type, a line each.
func nodeHTML(st *Step, status string) string {
	return stepLabel(st, status, htmlEscape, func(b *strings.Builder, lines []string) {
		for _, line := range lines {
			fmt.Fprintf(b, `<br/><font point-size="9" color="%s">%s</font>`, colorToolsLabel, htmlEscape(line))
		}
	})
}

// stepLabel is a step's label in the HTML subset Graphviz and Mermaid both
// read: the ID in bold, the goal wrapped, the tools as tools writes their
// wrapped lines, what it waits for in italics and, under an overlay, its
// status line in bold. esc escapes text for the one or the other.
func stepLabel(st *Step, status string, esc func(string) string, tools func(b *strings.Builder, lines []string)) string {
	var b strings.Builder
	b.WriteString("<b>")
	b.WriteString(esc(st.ID))
	b.WriteString("</b>")
	for _, line := range wrap(st.Goal, wrapWidth) {
		b.WriteString("<br/>")
		b.WriteString(esc(line))
	}
	if len(st.RecommendedTools) > 0 {
		tools(&b, wrap("tools: "+strings.Join(st.RecommendedTools, ", "), wrapWidth))
	}
	if st.WaitFor != "" {
		for _, line := range wrap(waitsLine(st), wrapWidth) {
			b.WriteString("<br/><i>")
			b.WriteString(esc(line))
			b.WriteString("</i>")
		}
	}
	if status != "" {
		b.WriteString("<br/><b>")
		b.WriteString(esc(status))
		b.WriteString("</b>")
	}
	return b.String()
}

// dotQuote writes s as a DOT double-quoted string. Backslashes are doubled
// so Graphviz's own escapes (\n, \l, \N) never fire on an author's text,
// and line breaks become spaces: a label's lines are ours to choose.
func dotQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// dotLines quotes lines as one DOT string, each line centred (\n): the
// escape is added after quoting so it is Graphviz's, not the author's.
func dotLines(lines []string) string {
	if len(lines) == 0 {
		return `""`
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, l := range lines {
		if i > 0 {
			b.WriteString(`\n`)
		}
		q := dotQuote(l)
		b.WriteString(q[1 : len(q)-1])
	}
	b.WriteByte('"')
	return b.String()
}

// htmlEscape makes text safe inside a Graphviz HTML-like label.
func htmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
