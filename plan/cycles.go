package plan

import (
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// findCycles returns the plan's loops, each as step IDs starting at its
// earliest step, using the same analysis that checks compiled skills. The
// plan's edges are already resolved, so the skill built here has no
// defaults left for package graph to fill in.
func findCycles(p *Plan) [][]string {
	s := &compiler.Skill{Name: p.Title, Title: p.Title, Entry: p.Entry, Steps: make([]*compiler.Step, len(p.Steps))}
	for i, st := range p.Steps {
		s.Steps[i] = &compiler.Step{
			ID:      st.ID,
			Goal:    st.Goal,
			Success: compiler.Edge{Target: st.NextOnSuccess, Explicit: true},
			Failure: compiler.Edge{Target: st.NextOnFailure, Explicit: true},
		}
	}
	g, err := graph.New(s)
	if err != nil {
		// Make has already refused empty, duplicate and reserved IDs and
		// an unknown entry, which is all New checks.
		return nil
	}
	return g.Cycles()
}
