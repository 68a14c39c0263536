package compiler

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"

	"github.com/skillc/skillc/graph"
)

// stepBuild is a step while the skill is being compiled: the parts of the
// markdown it came from, and what its annotations consumed.
type stepBuild struct {
	st *Step
	// number is the step's number as a reader sees it (list form) or as
	// written (heading form), so "3" reaches the third step even when it
	// has an {#id}; -1 when there is none.
	number int
	// blocks are the step's blocks after its goal: detail and annotations.
	blocks []ast.Node
	// consumed are bullet items that turned out to be annotations: a few
	// per step, so a slice beats a map.
	consumed []ast.Node
	// v2 is true when only version 2 reads the step where it is.
	v2 bool
	// lead is detail that comes before the blocks: the rest of a
	// paragraph whose bold lead or first sentence became the goal.
	lead string
}

// pendingEdge is an edge bullet whose target is resolved once all IDs are
// known, or a bullet with an unknown KEY (then ann is nil).
type pendingEdge struct {
	kind EdgeKind
	ann  *Annotation
	bt   bulletText
	syn  annotationSyntax
	item ast.Node
}

var stepsHeadings = map[string]bool{"steps": true, "workflow": true, "procedure": true, "process": true}

// headingStep matches the text of a heading-form step: "Step 2: Title",
// "Step 2. Title", "Step 2 - Title" or "2. Title". Compiled on first use,
// like the package's other regexps: not in a process that compiles nothing.
var headingStep = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:step\s+([0-9]{1,9})(?:\s*(?::|\.|-|–|—)\s*(.*)|\s*)|([0-9]{1,9})\.\s+(.*))$`)
})

// mayBeStepHeading is false for heading text headingStep cannot match:
// it must start with a digit, or with "step" (any case) and white space,
// where (?i) lets the "s" be "ſ" (U+017F, first byte 0xC5) too; "t", "e"
// and "p" have no such non-ASCII folds. Most headings ("Steps", "Notes")
// are ruled out without running the regexp.
func mayBeStepHeading(text string) bool {
	if text == "" {
		return false
	}
	switch c := text[0]; {
	case c >= '0' && c <= '9', c == 0xC5:
		return true
	case c == 's' || c == 'S':
		return len(text) >= 5 && text[1]|0x20 == 't' && text[2]|0x20 == 'e' && text[3]|0x20 == 'p' &&
			(text[4] == ' ' || text[4] == '\t' || text[4] == '\n' || text[4] == '\f' || text[4] == '\r')
	}
	return false
}

// findSteps locates the steps (heading form first, it wins) and builds them.
func (c *compilation) findSteps(doc ast.Node) {
	var builds []*stepBuild
	if hs := c.headingSteps(doc); hs != nil {
		c.skill.Form = FormHeading
		builds = hs
	} else if ps := c.paragraphSteps(doc); ps != nil {
		c.skill.Form = FormHeading
		builds = ps
	} else if parts, head := c.stepLists(doc); parts != nil {
		c.skill.Form = FormList
		if ss := c.sectionSteps(head); ss != nil {
			c.skill.Form = FormHeading
			builds = ss
		} else {
			builds = c.listSteps(parts)
		}
	}
	if len(builds) == 0 {
		c.skill.Form = FormNone
		return
	}
	c.finish(builds)
	c.skill.parts = c.parts
}

// headingSteps finds the first group of two or more sibling step headings
// and builds one step per heading. Headings at the shallowest level with
// such a group win; a group ends at a heading of a higher level.
func (c *compilation) headingSteps(doc ast.Node) []*stepBuild {
	var groups [7][][]stepHeading // by level; the last group of a level is open
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		for l := h.Level + 1; l <= 6; l++ {
			// A heading closes the open groups of deeper levels.
			if k := len(groups[l]); k > 0 && groups[l][k-1] != nil {
				groups[l] = append(groups[l], nil)
			}
		}
		text := c.inlineText(h, -1, -1, false)
		mt, ok := c.readStepHeading(text)
		if !ok {
			continue
		}
		mt.node = h
		k := len(groups[h.Level])
		if k == 0 || groups[h.Level][k-1] == nil {
			groups[h.Level] = append(groups[h.Level], nil)
			k++
		}
		groups[h.Level][k-1] = append(groups[h.Level][k-1], mt)
	}
	var chosen []stepHeading
	level := 0
	for l := 1; l <= 6 && chosen == nil; l++ {
		for _, g := range groups[l] {
			if len(g) >= 2 {
				chosen, level = g, l
				break
			}
		}
	}
	if chosen == nil {
		return nil
	}
	seriesIDs(chosen)
	var builds []*stepBuild
	var stop *ast.Heading // the heading that ended the last step
	for _, m := range chosen {
		b := &stepBuild{st: &Step{}, number: m.number, v2: m.v2}
		b.st.ID = m.id
		h := m.node.(*ast.Heading)
		hs, he := c.blockSpan(h)
		end := he
		stop = nil
		for n := h.NextSibling(); n != nil; n = n.NextSibling() {
			if h, ok := n.(*ast.Heading); ok && h.Level <= level {
				stop = h
				break
			}
			b.blocks = append(b.blocks, n)
			if _, e := c.blockSpan(n); e > end {
				end = e
			}
		}
		b.st.Range = c.idx.rng(hs, end)
		// The number's place in the heading line, for the ID's range.
		lineEnd := he
		if lines := h.Lines(); lines.Len() > 0 {
			lineEnd = c.abs(lines.At(0).Stop)
		}
		numAt := strings.Index(string(c.src[hs:lineEnd]), m.written)
		if numAt >= 0 {
			b.st.IDRange = c.idx.rng(hs+numAt, hs+numAt+len(m.written))
		} else {
			b.st.IDRange = c.idx.rng(hs, lineEnd)
		}
		skipS, skipE := -1, -1
		if lines := h.Lines(); lines.Len() > 0 {
			seg := lines.At(0)
			skipS, skipE = c.explicitID(b, c.abs(seg.Start), c.abs(seg.Stop))
		}
		title := m.title
		if skipS >= 0 {
			// Recompute the title without the {#id} attribute.
			full := c.inlineText(h, skipS, skipE, false)
			if mm, ok := c.readStepHeading(full); ok {
				title = mm.title
			}
		}
		b.st.Goal = strings.TrimSpace(title)
		b.st.GoalRange = c.idx.rng(hs, lineEnd)
		if m.v2 {
			b.st.v2().From = StepKeyword
			b.st.addInference(Inference{Kind: StepKeyword,
				Summary: fmt.Sprintf("step %q read from the heading %q", b.st.ID, m.text),
				Quote:   m.text, Range: b.st.GoalRange})
		}
		if b.st.Goal == "" && c.infer {
			c.goalFromParagraph(b)
		}
		builds = append(builds, b)
	}
	if stop != nil && stop.Level < level {
		if more := c.continuedSteps(stop, len(builds)+1); len(more) > 0 {
			c.parts = append(c.parts, len(builds))
			builds = append(builds, more...)
		}
	}
	return builds
}

// stepList picks the list of steps: the first top-level ordered list after a
// heading named Steps, Workflow, Procedure or Process, else the first
// top-level ordered list.
func (c *compilation) stepList(doc ast.Node) *ast.List {
	var first *ast.List
	afterStepsHeading := false
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch v := n.(type) {
		case *ast.Heading:
			t := strings.ToLower(strings.TrimSuffix(c.inlineText(v, -1, -1, false), ":"))
			if stepsHeadings[strings.TrimSpace(t)] {
				afterStepsHeading = true
			}
		case *ast.List:
			if !v.IsOrdered() {
				continue
			}
			if afterStepsHeading {
				return v
			}
			if first == nil {
				first = v
			}
		}
	}
	return first
}

// listSteps builds one step per item of the parts' lists. The blocks
// between two parts are the detail of the step before them.
func (c *compilation) listSteps(parts []listPart) []*stepBuild {
	// One allocation for all steps instead of two per step, and one for
	// all their blocks, each step taking a capped slice of it: a skill's
	// steps live and die together.
	n, nblocks := 0, 0
	for _, p := range parts {
		n += p.list.ChildCount()
		for it := p.list.FirstChild(); it != nil; it = it.NextSibling() {
			nblocks += it.ChildCount()
		}
	}
	builds := make([]*stepBuild, 0, n)
	buildSlab := make([]stepBuild, n)
	stepSlab := make([]Step, n)
	blockSlab := make([]ast.Node, 0, nblocks)
	i := 0
	for pi, p := range parts {
		if pi > 0 && len(builds) > 0 {
			last := builds[len(builds)-1]
			last.blocks = append(last.blocks, p.between...)
		}
		l := p.list
		k := 0
		for it := l.FirstChild(); it != nil; it = it.NextSibling() {
			num := p.start + k
			k++
			b := &buildSlab[i]
			b.st, b.number = &stepSlab[i], num
			b.st.ID = strconv.Itoa(num)
			i++
			if pi > 0 {
				b.st.v2().From = StepResumed
				b.v2 = true
			}
			if pi > 0 && k == 1 {
				summary := fmt.Sprintf("step %q goes on with the numbered list that a %s split", b.st.ID, c.blockName(p.between))
				if l.Start != p.start {
					c.parts = append(c.parts, len(builds))
					summary = fmt.Sprintf("the numbered list on line %d starts again at %d after prose: its steps go on from step %q", c.rangeOf(it).Start.Line, l.Start, b.st.ID)
				}
				b.st.addInference(Inference{Kind: StepResumed,
					Summary: summary, Quote: c.firstLineOf(it), Range: c.rangeOf(it)})
			}
			if pi == 0 && k == 1 && p.chosen != "" {
				b.st.v2().From = StepChosen
				b.st.addInference(Inference{Kind: StepChosen,
					Summary: "the steps are this list: " + p.chosen,
					Quote:   c.firstLineOf(it), Range: c.rangeOf(it)})
			}
			s, e := c.blockSpan(it)
			b.st.Range = c.idx.rng(s, e)
			// ListItem.Pos is the marker; its digits are the written number.
			ms := c.abs(it.Pos())
			me := ms
			for me < len(c.src) && c.src[me] >= '0' && c.src[me] <= '9' {
				me++
			}
			if me == ms {
				me = ms + 1
			}
			b.st.IDRange = c.idx.rng(ms, me)

			first := it.FirstChild()
			if first != nil && (first.Kind() == ast.KindParagraph || first.Kind() == ast.KindTextBlock) {
				skipS, skipE := -1, -1
				if lines := first.Lines(); lines.Len() > 0 {
					seg := lines.At(0)
					skipS, skipE = c.explicitID(b, c.abs(seg.Start), c.abs(seg.Stop))
				}
				gs, ge := c.blockSpan(first)
				b.st.GoalRange = c.idx.rng(gs, ge)
				c.readGoal(b, first, skipS, skipE)
				first = first.NextSibling()
			} else {
				b.st.GoalRange = b.st.IDRange
			}
			from := len(blockSlab)
			for n := first; n != nil; n = n.NextSibling() {
				blockSlab = append(blockSlab, n)
			}
			b.blocks = blockSlab[from:len(blockSlab):len(blockSlab)]
			builds = append(builds, b)
		}
	}
	return builds
}

func (c *compilation) rangeOf(n ast.Node) Range {
	s, e := c.blockSpan(n)
	return c.idx.rng(s, e)
}

// explicitID reads an {#id} attribute at the end of src[start:end] into b
// and returns the attribute's span (to leave out of the goal), or -1, -1.
func (c *compilation) explicitID(b *stepBuild, start, end int) (int, int) {
	for end > start && isSpace(c.src[end-1]) {
		end--
	}
	if end-start < 3 || c.src[end-1] != '}' {
		return -1, -1
	}
	open := bytes.LastIndex(c.src[start:end], []byte("{#"))
	if open < 0 {
		return -1, -1
	}
	open += start
	id := string(c.src[open+2 : end-1])
	idRange := c.idx.rng(open+2, end-1)
	if id == "" {
		idRange = c.idx.rng(open, end)
	}
	if graph.CheckID(id) != nil {
		// Not taken as written: the step keeps its number, and the
		// lint rule of the problem reports the ID where it is written.
		c.skill.RefusedIDs = append(c.skill.RefusedIDs, Ref{Name: id, Range: idRange})
		return open, end
	}
	b.st.ID = id
	b.st.ExplicitID = true
	b.st.IDRange = idRange
	return open, end
}

// finish numbers the steps, reads annotations, resolves edges and renders
// details, in that order: targets can name any step. Unwritten edges keep
// an empty Target: graph.Template.Defaults fills them in the template.
func (c *compilation) finish(builds []*stepBuild) {
	s := c.skill
	// The skill's own index of steps by ID is the resolver's and the
	// prose reader's too: one map per file, not three.
	ids := make(map[string]int, len(builds))
	s.Steps = make([]*Step, 0, len(builds))
	for _, b := range builds {
		if b.st.ID == "" {
			b.st.ID = strconv.Itoa(len(s.Steps) + 1)
		}
		if _, dup := ids[b.st.ID]; !dup {
			ids[b.st.ID] = len(s.Steps)
		}
		s.Steps = append(s.Steps, b.st)
	}
	s.Entry = s.Steps[0].ID
	s.byID = ids
	r := &resolver{ids: ids, builds: builds}
	// Annotations of all steps share one backing array, each step taking
	// a capped slice of it, so that reading them allocates once; so do the
	// bullets each step's annotations consume.
	total := 0
	for _, b := range builds {
		total += bulletCount(b)
	}
	slab := make([]Annotation, 0, total)
	consumed := make([]ast.Node, 0, total)
	// Every ID is known, so a step's edges resolve as soon as its bullets
	// are read; its pending edges (c.edges, c.unknown) are then done with,
	// and the next step reads its own into the same room. So it does its
	// tools, and keeps a copy of their exact size: appended one by one, a
	// step's two tools took two allocations and room for four.
	var tools []Ref
	for _, b := range builds {
		k := bulletCount(b)
		b.st.Annotations = slab[len(slab) : len(slab) : len(slab)+k]
		b.consumed = consumed[len(consumed) : len(consumed) : len(consumed)+k]
		c.edges, c.unknown, b.st.Tools = c.edges[:0], c.unknown[:0], tools[:0]
		c.readAnnotations(b)
		slab = slab[:len(slab)+len(b.st.Annotations)]
		c.resolveEdges(r, b)
		c.checkUnknownKeys(r, b)
		// Each step keeps all k of its room: the bullets checkUnknownKeys
		// consumes must not reach the next step's.
		consumed = consumed[:len(consumed)+k]
		tools, b.st.Tools = b.st.Tools, nil
		if len(tools) > 0 {
			b.st.Tools = slices.Clone(tools)
		}
	}
	for _, b := range builds {
		if !c.noDetails {
			b.st.Detail = c.detail(b)
		}
		if c.infer {
			c.subLists(b)
		}
	}
}

// detail renders a step's blocks without its annotation bullets.
func (c *compilation) detail(b *stepBuild) string {
	var buf [4]string // most steps have a few parts: no allocation for them
	parts := buf[:0]
	if b.lead != "" {
		parts = append(parts, b.lead)
	}
	for _, n := range b.blocks {
		var s string
		if l, ok := n.(*ast.List); ok && !l.IsOrdered() {
			s = c.renderList(l, b.consumed)
		} else {
			s = c.renderBlock(n)
		}
		if strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
		if l, ok := n.(*ast.List); ok && !l.IsOrdered() && len(b.consumed) > 0 {
			parts = c.annotationExtras(l, b, parts)
		}
	}
	return strings.Join(parts, "\n\n")
}

// annotationExtras adds what is written under the annotation bullets of l,
// after their first line, to parts: nothing an author wrote is lost.
// Nested bullets read as tools are consumed and left out.
func (c *compilation) annotationExtras(l *ast.List, b *stepBuild, parts []string) []string {
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		first := it.FirstChild()
		if first == nil || !slices.Contains(b.consumed, it) {
			continue
		}
		for n := first.NextSibling(); n != nil; n = n.NextSibling() {
			var s string
			if nl, ok := n.(*ast.List); ok && !nl.IsOrdered() {
				s = c.renderList(nl, b.consumed)
			} else {
				s = c.renderBlock(n)
			}
			if strings.TrimSpace(s) != "" {
				parts = append(parts, s)
			}
		}
	}
	return parts
}
