package plan

import (
	"fmt"
	"strings"

	"github.com/skillc/skillc/graph"
)

// The plan as a picture: its step graph, drawn by graph's one DOT and
// Mermaid writer (the one `skillc graph` draws skills with), with the run
// over it (graph.Overlay). `skillc plan view --format dot|mermaid|svg|png`
// and the web view show these.

// Graph is the plan's step graph. A plan that Make built always has one;
// an error means a plan that was changed behind the store's back.
func (p *Plan) Graph() (*graph.Graph, error) {
	t := &graph.Template{Format: graph.FormatVersion, Skill: p.Skill, Title: p.Title, Entry: p.Entry}
	if t.Skill == "" {
		t.Skill = "plan"
	}
	t.Steps = make([]graph.Step, len(p.Steps))
	for i := range p.Steps {
		t.Steps[i] = p.Steps[i].Step
	}
	g, err := graph.New(t)
	if err != nil {
		return nil, fmt.Errorf("plan %s cannot be drawn: %w", p.ID, err)
	}
	return g, nil
}

// Overlay is the run of p as a drawing shows it: each step's status (an in
// progress step that waits for something outside the agent is waiting),
// the round a loop is in as the step's note, the walk from the entry along
// the recorded outcomes (WalkOf) as the path, and a caption with the
// plan's status, how many steps are done and where it is.
func Overlay(p *Plan) *graph.Overlay {
	o := &graph.Overlay{
		States: make(map[string]graph.State, len(p.Steps)),
		Notes:  p.roundNotes(),
		Path:   map[graph.Arc]bool{},
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		switch s.Status {
		case StepDone:
			o.States[s.ID] = graph.Done
		case StepFailed:
			o.States[s.ID] = graph.Failed
		case StepSkipped:
			o.States[s.ID] = graph.Skipped
		case StepInProgress:
			o.States[s.ID] = graph.InProgress
			if s.WaitFor != "" {
				o.States[s.ID] = graph.Waiting
			}
		}
	}
	walk := WalkOf(p)
	for _, id := range walk.Steps {
		if k, ok := takenKind(p.Step(id).Status); ok {
			o.Path[graph.Arc{From: id, Kind: k}] = true
		}
	}
	o.Caption = caption(p, walk)
	return o
}

// caption is the line under a picture's title:
//
//	active · 1/4 done · position: 4
//	completed · 3/4 done · the path reached end
func caption(p *Plan, walk Walk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %d/%d done", p.Status, p.Done(), len(p.Steps))
	pos := Position(p)
	switch {
	case len(pos) > 0 && !p.Closed():
		b.WriteString(" · position: " + strings.Join(pos, ", "))
	case graph.IsTerminal(walk.At):
		b.WriteString(" · the path reached " + walk.At)
	}
	return b.String()
}

// DOT is p drawn in Graphviz's DOT with its run over it (Overlay): the
// picture of `skillc plan view --format dot`, and the source of its SVG
// and PNG. It is the same byte for byte for the same plan.
func DOT(p *Plan) ([]byte, error) {
	g, err := p.Graph()
	if err != nil {
		return nil, err
	}
	return g.DOTWith(Overlay(p)), nil
}

// Mermaid is p drawn as a Mermaid flowchart with its run over it, as DOT
// draws it.
func Mermaid(p *Plan) ([]byte, error) {
	g, err := p.Graph()
	if err != nil {
		return nil, err
	}
	return g.MermaidWith(Overlay(p)), nil
}
