package graph

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillc/skillc/diag"
)

// Codes of the problems Check reports. Each is the ID of the lint rule that
// reports it, so configs and suppressions name them; they are stable.
const (
	CodeInvalidID       = "invalid-id"
	CodeReservedID      = "reserved-id"
	CodeDuplicateID     = "duplicate-id"
	CodeEmptyGoal       = "empty-goal"
	CodeUnknownTarget   = "unknown-target"
	CodeInvalidToolName = "invalid-tool-name"
	CodeLimit           = "limit-exceeded"
	CodeCycle           = "cycle"
	CodeUnreachable     = "unreachable-step"
	CodeNoPathToEnd     = "no-path-to-end"
	CodeEntryCannotEnd  = "entry-cannot-end"
	CodeUnboundedLoop   = "unbounded-loop"
)

// Limits bound what a template may hold: what make_plan accepts, and so
// what lint reports as an error. They keep a checklist short enough to
// read at a glance and bound what a store row can grow to. A zero field
// takes the default of DefaultLimits.
type Limits struct {
	MaxSteps    int // steps per template
	MaxGoalLen  int // characters (code points) per goal
	MaxTools    int // recommended tools per step
	MaxTitleLen int // characters per title
	// LoopRounds is the bound a loop without one takes (FORMAT.md 6.5,
	// config limits.loop-rounds): how many times its back edge may be
	// taken.
	LoopRounds int
	// Strict reads loops as FORMAT v1 does (--strict, infer: false): every
	// loop is a cycle, bounded or not. It is no limit, but it changes what
	// Check reports about loops, as the limits change what it reports
	// about sizes.
	Strict bool
}

// DefaultLimits are the runtime's limits (DESIGN.md §2).
func DefaultLimits() Limits {
	return Limits{MaxSteps: 100, MaxGoalLen: 500, MaxTools: 16, MaxTitleLen: 200, LoopRounds: 3}
}

// OrDefault is l with each zero field set to its default.
func (l Limits) OrDefault() Limits {
	d := DefaultLimits()
	if l.MaxSteps <= 0 {
		l.MaxSteps = d.MaxSteps
	}
	if l.MaxGoalLen <= 0 {
		l.MaxGoalLen = d.MaxGoalLen
	}
	if l.MaxTools <= 0 {
		l.MaxTools = d.MaxTools
	}
	if l.MaxTitleLen <= 0 {
		l.MaxTitleLen = d.MaxTitleLen
	}
	if l.LoopRounds <= 0 {
		l.LoopRounds = d.LoopRounds
	}
	return l
}

// The syntax of names (FORMAT.md §3): not limits a config may change.
const (
	MaxIDLen   = 64
	MaxToolLen = 64
)

// Problem is one thing wrong with a template, without a position: the
// compiled skill's lint rules turn it into a diagnostic at the right
// range, plan.Make into a typed error.
type Problem struct {
	// Code is the lint rule ID (CodeCycle, ...).
	Code string
	// Step is the ID of the step the problem is about, "" when it is about
	// the template as a whole (the title, the number of steps, the entry).
	Step string
	// Index is the step's position in Steps, -1 when Step is "". IDs may
	// repeat, positions do not.
	Index int
	// Edge is the edge the problem is about, when OnEdge.
	Edge   EdgeKind
	OnEdge bool
	// Tool is the tool name the problem is about, when there is one.
	Tool string
	// Limit says which limit a CodeLimit problem exceeds.
	Limit LimitKind

	Message    string
	Detail     string
	Suggestion string
}

// LimitKind names the limit a CodeLimit problem exceeds.
type LimitKind int

const (
	NoLimit LimitKind = iota
	LimitSteps
	LimitGoal
	LimitTools
	LimitTitle
)

// Check reports everything wrong with t, in a stable order: the title and
// step limits, then per step its ID, goal and tools, then repeated IDs, the
// entry and the edges' targets, then the graph's loops, unreachable steps
// and steps that cannot end. Empty edges
// and the entry take the format's defaults. When the steps cannot be told
// apart (an empty, invalid, duplicate or reserved ID) the graph analyses
// are left out: they would be about a graph the author did not write.
func Check(t *Template, limits Limits) []Problem {
	if t == nil {
		return nil
	}
	return CheckSteps(t.Title, t.Entry, t.steps(), limits)
}

// CheckSteps is Check of the template with this title, entry ("" for the
// first step) and steps: the one check, whether the steps are a
// Template's (make_plan) or a compiled skill's read in place (lint).
func CheckSteps(title, entry string, steps Steps, limits Limits) []Problem {
	l := limits.OrDefault()
	var ps []Problem
	add := func(p Problem) { ps = append(ps, p) }

	if n := utf8.RuneCountInString(title); n > l.MaxTitleLen {
		add(Problem{Code: CodeLimit, Index: -1, Limit: LimitTitle,
			Message: fmt.Sprintf("the title is %d characters; at most %d are allowed", n, l.MaxTitleLen)})
	}
	n := steps.Len()
	if n > l.MaxSteps {
		add(Problem{Code: CodeLimit, Index: -1, Limit: LimitSteps,
			Message: fmt.Sprintf("the plan has %d steps; at most %d are allowed: split the work or keep the steps coarser", n, l.MaxSteps)})
	}

	idsOK := true
	for i := range n {
		id, goal := steps.ID(i), steps.Goal(i)
		if p, ok := checkID(id, i); !ok {
			add(p)
			idsOK = false
		}
		if strings.TrimSpace(goal) == "" {
			add(Problem{Code: CodeEmptyGoal, Step: id, Index: i,
				Message: fmt.Sprintf("step %q has no goal", id),
				Detail:  "the step's first line says what it achieves, such as \"List ACAT transfers.\""})
		} else if len(goal) > l.MaxGoalLen {
			// A goal has no more characters than bytes, so most goals are
			// never counted: counting them all was a tenth of Check.
			if n := utf8.RuneCountInString(goal); n > l.MaxGoalLen {
				add(Problem{Code: CodeLimit, Step: id, Index: i, Limit: LimitGoal,
					Message: fmt.Sprintf("the goal of step %q is %d characters; at most %d are allowed: keep it to one sentence and put the rest in detail", id, n, l.MaxGoalLen)})
			}
		}
		tools := steps.Tools(i)
		for j := range tools {
			if p := CheckToolName(steps.Tool(i, j)); p != nil {
				p.Step, p.Index = id, i
				add(*p)
			}
		}
		if tools > l.MaxTools {
			add(Problem{Code: CodeLimit, Step: id, Index: i, Limit: LimitTools,
				Message: fmt.Sprintf("step %q recommends %d tools; at most %d are allowed: keep the few the step needs", id, tools, l.MaxTools)})
		}
	}
	if n == 0 {
		return ps
	}

	// The graph's own index of the IDs finds duplicates and resolves
	// targets without a map of every ID (see indexSteps); only when it
	// cannot be built does a map say which IDs repeat.
	var g *Graph
	if idsOK {
		var err error
		g, err = build(entry, steps)
		idsOK = err == nil
	}
	if !idsOK {
		return append(ps, duplicates(steps)...)
	}
	if g.entryMissing {
		add(Problem{Code: CodeUnknownTarget, Index: -1,
			Message: fmt.Sprintf("the entry %q names no step", entry),
			Detail:  "valid IDs: " + idList(steps)})
	}

	suggestions := 0
	var targets [4]edgeTarget
	for i := range n {
		id := g.nodes[i]
		for _, e := range stepTargets(steps, i, &targets) {
			k, to := e.kind, e.to
			if to == "" {
				continue
			}
			if _, ok := g.lookup(to); ok {
				continue
			}
			p := Problem{Code: CodeUnknownTarget, Step: id, Index: i, Edge: k, OnEdge: true,
				Message: fmt.Sprintf("step %q: %s %q names no step", id, e.field, to),
				Detail:  "valid targets: " + idList(steps) + ", end, fail"}
			// Numbers are not typos: "9" is not a near miss of "1". A few
			// suggestions are enough, and each reads every ID.
			if _, numeric := strconv.Atoi(to); numeric != nil && suggestions < 64 {
				suggestions++
				if s := diag.Nearest(to, append(stepIDs(steps), End, Fail)); s != "" {
					p.Suggestion = s
					p.Detail = fmt.Sprintf("did you mean %q? ", s) + p.Detail
				}
			}
			add(p)
		}
	}
	if g.entryMissing {
		// Reachability from an entry that is not there would be noise.
		return ps
	}
	g.v1Loops = l.Strict
	g.loopRounds = l.LoopRounds
	return append(ps, g.Problems()...)
}

// duplicates reports each step whose ID an earlier step has. It builds a
// map of every ID, so Check calls it only when the graph cannot be built.
func duplicates(steps Steps) []Problem {
	var ps []Problem
	first := make(map[string]int, steps.Len())
	for i := range steps.Len() {
		id := steps.ID(i)
		j, dup := first[id]
		if !dup {
			first[id] = i
			continue
		}
		// A compiled step knows its line, and its author writes {#id}.
		detail := fmt.Sprintf("the first step with this ID is step %d of the list; give each step its own ID", j+1)
		if line := steps.Line(j); line > 0 {
			detail = fmt.Sprintf("the first step with this ID is on line %d; give each step its own {#id}", line)
		}
		ps = append(ps, Problem{Code: CodeDuplicateID, Step: id, Index: i,
			Message: fmt.Sprintf("step ID %q is used twice", id),
			Detail:  detail})
	}
	return ps
}

// CheckID applies the ID rule of FORMAT.md §3 and 6.2: 1-64 characters
// of A-Za-z0-9_-. (version 2 numbers steps 2.1), and never a terminal name in any case. It returns nil for a
// valid ID, else the invalid-id or reserved-id problem (with Index -1).
// The compiler asks it too, before it takes an {#id} as written.
func CheckID(id string) *Problem {
	valid := id != "" && len(id) <= MaxIDLen && strings.IndexFunc(id, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
	}) < 0
	switch {
	case !valid:
		return &Problem{Code: CodeInvalidID, Step: id, Index: -1,
			Message:    fmt.Sprintf("step ID %q is not valid: use 1-%d characters of A-Z, a-z, 0-9, _, - and .", id, MaxIDLen),
			Suggestion: suggestID(id)}
	case IsTerminal(id):
		return &Problem{Code: CodeReservedID, Step: id, Index: -1,
			Message: fmt.Sprintf("step ID %q is reserved: %q and %q are the plan's terminals", id, End, Fail),
			Detail:  "to end the plan after a step, write an edge such as \"on success: end\" instead"}
	}
	return nil
}

func checkID(id string, i int) (Problem, bool) {
	p := CheckID(id)
	if p == nil {
		return Problem{}, true
	}
	p.Index = i
	return *p, false
}

func suggestID(id string) string {
	s := diag.Slug(id, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}, MaxIDLen)
	if IsTerminal(s) {
		return ""
	}
	return s
}

// CheckToolName applies the tool name rule, what MCP and function-calling
// APIs accept: 1-64 characters of A-Za-z0-9_.- It returns nil for a valid
// name, else the invalid-tool-name problem (with Index -1). The compiler
// asks it too, before it keeps a tool a step names.
func CheckToolName(name string) *Problem {
	if validToolName(name) {
		return nil
	}
	return &Problem{Code: CodeInvalidToolName, Index: -1, Tool: name,
		Message:    fmt.Sprintf("tool name %q is not valid: use 1-%d characters of A-Z, a-z, 0-9, _, . and -", name, MaxToolLen),
		Suggestion: suggestToolName(name)}
}

func validToolName(name string) bool {
	if name == "" || len(name) > MaxToolLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !toolNameByte[name[i]] {
			return false
		}
	}
	return true
}

// toolNameByte is true for the bytes a tool name may hold: a table, as the
// compiler and Check look at every byte of every tool of every step, and
// a look-up costs less than the six comparisons.
var toolNameByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
	}
	return t
}()

// suggestToolName keeps the valid characters of name and turns the
// separators people write (space, slash, colon) into '_'.
func suggestToolName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < utf8.RuneSelf && validToolName(string(r)):
			b.WriteRune(r)
		case r == ' ' || r == '/' || r == ':':
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > MaxToolLen {
		s = s[:MaxToolLen]
	}
	if s == name {
		return ""
	}
	return s
}

func stepIDs(steps Steps) []string {
	out := make([]string, steps.Len())
	for i := range out {
		out[i] = steps.ID(i)
	}
	return out
}

// idList names the steps for a message, shortened for long templates.
func idList(steps Steps) string {
	var ids []string
	for i := range steps.Len() {
		if i == 10 {
			ids = append(ids, fmt.Sprintf("and %d more", steps.Len()-10))
			break
		}
		ids = append(ids, strconv.Quote(steps.ID(i)))
	}
	return strings.Join(ids, ", ")
}

// Problems reports the graph's own problems: loops, steps the entry never
// reaches, steps that can never reach end, and an entry that can never
// end, in source order of the steps they are about; on one step a loop
// comes first. A loop is reported once, at its earliest step. Loops are
// read as FORMAT v2 reads them (checkLoops) unless Check was given
// Limits.Strict.
func (g *Graph) Problems() []Problem {
	if g.Len() == 0 {
		return nil
	}
	if g.loopRounds <= 0 {
		g.loopRounds = DefaultLimits().LoopRounds
	}
	var ps []Problem
	if g.v1Loops {
		ps = append(ps, g.checkCycles()...)
	} else {
		ps = append(ps, g.checkLoops()...)
	}
	ps = append(ps, g.checkUnreachable()...)
	ps = append(ps, g.checkEnd()...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Index < ps[j].Index })
	return ps
}

// loopIDs is the shortest loop through comp's earliest step (loopThrough)
// as node indexes, and as step IDs closed by its first again, for messages.
func (g *Graph) loopIDs(comp []int32, parent []int32) ([]int32, []string) {
	loop := g.loopThrough(comp, parent)
	ids := make([]string, 0, len(loop)+1)
	for _, v := range loop {
		ids = append(ids, g.nodes[v])
	}
	return loop, append(ids, ids[0])
}

func (g *Graph) checkCycles() []Problem {
	var ps []Problem
	var parent []int32
	for _, comp := range g.sccs {
		if parent == nil {
			parent = g.loopScratch()
		}
		loop, ids := g.loopIDs(comp, parent)
		first := g.nodes[loop[0]]
		last := g.nodes[loop[len(loop)-1]]
		back := g.edgeBetween(last, first)

		var msg string
		if len(loop) == 1 {
			msg = fmt.Sprintf("step %s leads back to itself; a plan must always move forward: send the retry to a new step or to fail", first)
		} else {
			msg = fmt.Sprintf("steps %s form a loop; a plan must always move forward: send the retry to a new step or to fail", strings.Join(ids, " -> "))
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
		ps = append(ps, Problem{
			Code:       CodeCycle,
			Step:       first,
			Index:      int(loop[0]),
			Message:    msg,
			Detail:     detail.String(),
			Suggestion: fmt.Sprintf("point step %s's %s edge at a new step, or at fail", last, edgeName(back)),
		})
	}
	return ps
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
	if e.Kind == Failure {
		kind = "on failure"
	}
	if e.Label != "" && e.Label != kind {
		return fmt.Sprintf("%s (%q)", kind, e.Label)
	}
	return kind
}

func (g *Graph) checkUnreachable() []Problem {
	reach := g.reach
	entry := g.nodes[g.entry]
	var ps []Problem
	for i := 0; i < g.Len(); i++ {
		if reach[i] {
			continue
		}
		id := g.nodes[i]
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
		ps = append(ps, Problem{
			Code:       CodeUnreachable,
			Step:       id,
			Index:      i,
			Message:    fmt.Sprintf("step %q can never be reached from the entry step %q", id, entry),
			Detail:     detail,
			Suggestion: fmt.Sprintf("send an earlier step's edge to %s (e.g. `no: %s`), or remove the step", id, id),
		})
	}
	return ps
}

func (g *Graph) checkEnd() []Problem {
	toEnd := g.toEnd
	reach := g.reach
	way := "fails"
	if len(g.sccs) > 0 {
		way = "fails or goes round a loop"
	}
	var ps []Problem
	for i := 0; i < g.Len(); i++ {
		id := g.nodes[i]
		switch {
		case toEnd[i]:
		case i == g.entry:
			ps = append(ps, Problem{
				Code:       CodeEntryCannotEnd,
				Step:       id,
				Index:      i,
				Message:    fmt.Sprintf("no path from the entry step %q reaches end: every run of this skill %s", id, way),
				Suggestion: "send some step's success edge to end (e.g. `yes: end`)",
			})
		case reach[i]:
			// A step the entry never reaches already has a problem; saying
			// also that it cannot end would only repeat it.
			ps = append(ps, Problem{
				Code:       CodeNoPathToEnd,
				Step:       id,
				Index:      i,
				Message:    fmt.Sprintf("step %q can never reach end: every path from it %s", id, way),
				Suggestion: "send one of its edges, or a later step's, to end or to a step that reaches it",
			})
		}
	}
	return ps
}
