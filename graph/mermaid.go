package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Mermaid node names. Step IDs are not used as names: Mermaid reads `end`
// and some punctuation as syntax, so steps are s0, s1, ... in source order
// and the terminals get fixed names no step can have.
const (
	mermaidEntry = "t_entry"
	mermaidEnd   = "t_end"
	mermaidFail  = "t_fail"
)

// Mermaid writes the graph as a Mermaid flowchart, top to bottom, with the
// same content as DOT: ID, wrapped goal and tools in each step, success
// edges solid, failure edges dotted and red, the author's labels, end and
// fail as distinct terminals and a dot before the entry. A step that waits
// for something outside the agent is a stadium with a "waits for:" line.
// The output is the same byte for byte for the same skill.
func (g *Graph) Mermaid() []byte { return g.MermaidWith(nil) }

// MermaidWith is Mermaid with a run drawn over it, as DOTWith draws it:
// states as classes and status lines, the path taken and the terminal it
// reached in bold, the caption after the title. A nil overlay draws
// Mermaid.
func (g *Graph) MermaidWith(o *Overlay) []byte {
	var b bytes.Buffer
	title := g.tmpl.Title
	if title == "" {
		title = g.tmpl.Skill
	}
	if o.active() && o.Caption != "" {
		if title != "" {
			title += " · "
		}
		title += o.Caption
	}
	if title != "" {
		fmt.Fprintf(&b, "---\ntitle: %s\n---\n", yamlQuote(title))
	}
	b.WriteString("flowchart TD\n")

	name := func(i int) string {
		switch i {
		case g.endIndex():
			return mermaidEnd
		case g.failIndex():
			return mermaidFail
		}
		return "s" + strconv.Itoa(i)
	}

	for i := range g.tmpl.Steps {
		st := &g.tmpl.Steps[i]
		open, close := "[", "]"
		if st.WaitFor != "" {
			open, close = "([", "])"
		}
		fmt.Fprintf(&b, "    %s%s\"%s\"%s\n", name(i), open, mermaidNodeLabel(st, o.statusLine(st.ID)), close)
	}
	terms := g.terminalLayout()
	shape := [2]string{`((("end")))`, `{{"fail"}}`}
	termNames := [2][]string{} // terminal nodes by terminal, for their classes
	for t, nm := range []string{mermaidEnd, mermaidFail} {
		if terms.used[t] && terms.shared[t] {
			fmt.Fprintf(&b, "    %s%s\n", nm, shape[t])
			termNames[t] = append(termNames[t], nm)
		}
	}

	link := 0 // Mermaid styles links by their index in the file
	var failures, pathLinks, pathFailures []string
	var reached []string // terminal nodes the path reached
	if g.entry >= 0 {
		fmt.Fprintf(&b, "    %s((\" \")) --> %s\n", mermaidEntry, name(g.entry))
		if o.state(g.nodes[g.entry]) != Pending {
			pathLinks = append(pathLinks, strconv.Itoa(link))
		}
		link++
	}
	stubbed := map[string]bool{}
	for _, ie := range g.edges {
		e := g.spell(ie)
		to := name(int(ie.to))
		if t, ok := g.terminalOf(ie.to); ok && !terms.shared[t] {
			// A copy of the terminal for this step alone (see
			// maxSharedTerminal).
			to += "_" + strconv.Itoa(int(ie.from))
			if !stubbed[to] {
				stubbed[to] = true
				fmt.Fprintf(&b, "    %s%s\n", to, shape[t])
				termNames[t] = append(termNames[t], to)
			}
		}
		arrow := "-->"
		taken := o.taken(e.From, e.Kind)
		if _, ok := g.terminalOf(ie.to); ok && taken && !slices.Contains(reached, to) {
			reached = append(reached, to)
		}
		switch {
		case e.Kind == Failure && taken:
			arrow = "-.->"
			pathFailures = append(pathFailures, strconv.Itoa(link))
		case e.Kind == Failure:
			arrow = "-.->"
			failures = append(failures, strconv.Itoa(link))
		case taken:
			pathLinks = append(pathLinks, strconv.Itoa(link))
		}
		label := ""
		if e.Label != "" {
			lines := wrap(e.Label, wrapWidth)
			for i := range lines {
				lines[i] = mermaidEscape(lines[i])
			}
			label = "|\"" + strings.Join(lines, "<br/>") + "\"|"
		}
		fmt.Fprintf(&b, "    %s %s%s %s\n", name(int(ie.from)), arrow, label, to)
		link++
	}

	fmt.Fprintf(&b, "    classDef step fill:%s,stroke:%s,color:#1a202c\n", colorStepFill, colorStep)
	fmt.Fprintf(&b, "    classDef done fill:%s,stroke:%s,color:%s\n", colorEndFill, colorEnd, colorEnd)
	fmt.Fprintf(&b, "    classDef failed fill:%s,stroke:%s,color:%s\n", colorFailFill, colorFailure, colorFailure)
	b.WriteString("    classDef entry fill:#000,stroke:#000\n")
	// A step is in one class: its state's under an overlay, else step.
	byState := map[State][]string{}
	for i := range g.tmpl.Steps {
		s := o.state(g.tmpl.Steps[i].ID)
		byState[s] = append(byState[s], name(i))
	}
	for _, s := range []State{Done, Failed, Skipped, InProgress, Waiting} {
		if len(byState[s]) == 0 {
			continue
		}
		ss := stateStyles[s]
		fmt.Fprintf(&b, "    classDef %s fill:%s,stroke:%s,color:#1a202c", mermaidStateClass(s), ss.fill, ss.color)
		if ss.pen != "" {
			fmt.Fprintf(&b, ",stroke-width:%spx", ss.pen)
		}
		if s == Skipped {
			b.WriteString(",stroke-dasharray:5 3")
		}
		b.WriteByte('\n')
	}
	if len(g.tmpl.Steps) > 0 {
		if names := byState[Pending]; len(names) > 0 {
			fmt.Fprintf(&b, "    class %s step\n", strings.Join(names, ","))
		}
		fmt.Fprintf(&b, "    class %s entry\n", mermaidEntry)
	}
	for _, s := range []State{Done, Failed, Skipped, InProgress, Waiting} {
		if names := byState[s]; len(names) > 0 {
			fmt.Fprintf(&b, "    class %s %s\n", strings.Join(names, ","), mermaidStateClass(s))
		}
	}
	for t, class := range []string{"done", "failed"} {
		if len(termNames[t]) > 0 {
			fmt.Fprintf(&b, "    class %s %s\n", strings.Join(termNames[t], ","), class)
		}
	}
	for _, nm := range reached {
		fmt.Fprintf(&b, "    style %s stroke-width:%s\n", nm, mermaidPathStroke)
	}
	if len(failures) > 0 {
		fmt.Fprintf(&b, "    linkStyle %s stroke:%s,color:%s\n", strings.Join(failures, ","), colorFailure, colorFailure)
	}
	if len(pathLinks) > 0 {
		fmt.Fprintf(&b, "    linkStyle %s stroke-width:%s\n", strings.Join(pathLinks, ","), mermaidPathStroke)
	}
	if len(pathFailures) > 0 {
		fmt.Fprintf(&b, "    linkStyle %s stroke:%s,color:%s,stroke-width:%s\n", strings.Join(pathFailures, ","), colorFailure, colorFailure, mermaidPathStroke)
	}
	return b.Bytes()
}

// mermaidStateClass is the class of a state's steps: names no other class
// of the drawing has (done and failed are the terminals').
func mermaidStateClass(s State) string {
	switch s {
	case Done:
		return "stepDone"
	case Failed:
		return "stepFailed"
	case Skipped:
		return "stepSkipped"
	case InProgress:
		return "stepActive"
	case Waiting:
		return "stepWaiting"
	}
	return "step"
}

// mermaidNodeLabel is a step's label for Mermaid (stepLabel), the tools in
// one <small> block.
func mermaidNodeLabel(st *Step, status string) string {
	return stepLabel(st, status, mermaidEscape, func(b *strings.Builder, lines []string) {
		b.WriteString("<br/><small>")
		for i, line := range lines {
			if i > 0 {
				b.WriteString("<br/>")
			}
			b.WriteString(mermaidEscape(line))
		}
		b.WriteString("</small>")
	})
}

// mermaidEscape makes text safe inside a Mermaid "..." label, which Mermaid
// renders as HTML: quotes and markup characters become Mermaid's #code;
// entities, and so does # itself, so an author's "#12;" stays text.
func mermaidEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString("#quot;")
		case r == '#':
			b.WriteString("#35;")
		case r == '&':
			b.WriteString("#amp;")
		case r == '<':
			b.WriteString("#lt;")
		case r == '>':
			b.WriteString("#gt;")
		case r == '`':
			b.WriteString("#96;")
		case r == '|':
			b.WriteString("#124;")
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// yamlQuote writes s as a double-quoted YAML scalar; JSON's string syntax is
// a subset of it.
func yamlQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
