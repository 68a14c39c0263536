package compiler

import (
	"strconv"

	"github.com/skillc/skillc/graph"
)

// FormatVersion is the version of the skill format and of plan templates.
const FormatVersion = graph.FormatVersion

// Template returns the skill's plan template (FORMAT.md §5): steps keep
// written order, and an edge the author did not write is left to
// graph.Template.Defaults, the one place the format's defaults live. What
// each step holds of the skill's is what TemplateSteps reads, so a graph
// check of either says the same.
func (s *Skill) Template() *graph.Template {
	t := &graph.Template{
		Format:      FormatVersion,
		Skill:       s.Name,
		Title:       s.Title,
		Description: s.Description,
		Entry:       s.Entry,
		Steps:       make([]graph.Step, 0, len(s.Steps)),
	}
	// The steps' tool names share one backing array, each step taking a
	// capped slice of it: one allocation per template, not one per step.
	n := 0
	for _, st := range s.Steps {
		n += len(st.Tools)
	}
	names := make([]string, 0, n)
	in := (*templateSteps)(s)
	for i, st := range s.Steps {
		from := len(names)
		for _, tool := range st.Tools {
			names = append(names, tool.Name)
		}
		t.Steps = append(t.Steps, graph.Step{
			ID:               in.ID(i),
			Goal:             st.Goal,
			RecommendedTools: names[from:len(names):len(names)],
			NextOnSuccess:    in.Next(i, Success),
			NextOnFailure:    in.Next(i, Failure),
			SuccessLabel:     in.Label(i, Success),
			FailureLabel:     in.Label(i, Failure),
			Detail:           st.Detail,
			Line:             st.Line(),
			GoalFrom:         st.GoalFrom(),
			SuccessFrom:      st.Success.From,
			FailureFrom:      st.Failure.From,
			SuccessBound:     in.Bound(i, Success),
			SuccessThen:      in.Then(i, Success),
			FailureBound:     in.Bound(i, Failure),
			FailureThen:      in.Then(i, Failure),
			WaitFor:          st.WaitFor(),
		})
	}
	t.Defaults()
	return t
}

// TemplateSteps are the steps of the skill's template read in place, for
// graph.CheckSteps: lint checks every skill it reads, and building a
// Template only to check it copied every step (some 250 bytes each) and
// was most of what lint's graph check allocated.
func (s *Skill) TemplateSteps() graph.Steps { return (*templateSteps)(s) }

// templateSteps is a Skill's steps as graph.Steps: each method is the
// Template field of the same name before Defaults.
type templateSteps Skill

func (s *templateSteps) Len() int             { return len(s.Steps) }
func (s *templateSteps) Goal(i int) string    { return s.Steps[i].Goal }
func (s *templateSteps) Tools(i int) int      { return len(s.Steps[i].Tools) }
func (s *templateSteps) Tool(i, j int) string { return s.Steps[i].Tools[j].Name }
func (s *templateSteps) Line(i int) int       { return s.Steps[i].Line() }

// ID is the step's ID; a step without one, as only a skill built by hand
// has, takes its position as Defaults gives it.
func (s *templateSteps) ID(i int) string {
	if id := s.Steps[i].ID; id != "" {
		return id
	}
	return strconv.Itoa(i + 1)
}

// Next is writtenTarget of the step's edge.
func (s *templateSteps) Next(i int, k EdgeKind) string { return writtenTarget(s.edge(i, k)) }

func (s *templateSteps) Label(i int, k EdgeKind) string { return s.edge(i, k).DisplayLabel() }
func (s *templateSteps) Bound(i int, k EdgeKind) int    { return s.edge(i, k).Rounds() }
func (s *templateSteps) Then(i int, k EdgeKind) string  { return s.edge(i, k).Then() }

// edge is step i's edge of kind k, by pointer: an Edge is some 400 bytes.
func (s *templateSteps) edge(i int, k EdgeKind) *Edge {
	if k == Failure {
		return &s.Steps[i].Failure
	}
	return &s.Steps[i].Success
}

// writtenTarget is the edge's target when the author wrote it, in an
// annotation or in prose that version 2 read (e.From), else "" for
// Defaults to fill in. It takes the edge by pointer: an Edge is some 400
// bytes, and copying four of them per step was most of Template's cost.
func writtenTarget(e *Edge) string {
	if e.Explicit || e.From != "" {
		return e.Target
	}
	return ""
}
