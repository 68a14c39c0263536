package compiler

import "github.com/skillc/skillc/graph"

// FormatVersion is the version of the skill format and of plan templates.
const FormatVersion = graph.FormatVersion

// Template returns the skill's plan template (FORMAT.md §5): steps keep
// written order, and an edge the author did not write is left to
// graph.Template.Defaults, the one place the format's defaults live.
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
	for _, st := range s.Steps {
		from := len(names)
		for _, tool := range st.Tools {
			names = append(names, tool.Name)
		}
		t.Steps = append(t.Steps, graph.Step{
			ID:               st.ID,
			Goal:             st.Goal,
			RecommendedTools: names[from:len(names):len(names)],
			NextOnSuccess:    writtenTarget(&st.Success),
			NextOnFailure:    writtenTarget(&st.Failure),
			SuccessLabel:     st.Success.DisplayLabel(),
			FailureLabel:     st.Failure.DisplayLabel(),
			Detail:           st.Detail,
			Line:             st.Line(),
			GoalFrom:         st.GoalFrom(),
			SuccessFrom:      st.Success.From,
			FailureFrom:      st.Failure.From,
			SuccessBound:     st.Success.Rounds(),
			SuccessThen:      st.Success.Then(),
			FailureBound:     st.Failure.Rounds(),
			FailureThen:      st.Failure.Then(),
			WaitFor:          st.WaitFor(),
		})
	}
	t.Defaults()
	return t
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
