package graph

// Steps is what Check and the graph read of a template's steps, by
// position. A Template's steps are one; the compiler reads its skill's
// steps through it in place (compiler.Skill.TemplateSteps), so lint checks
// every skill it reads by the same code as make_plan without first copying
// each step, its detail and its labels into a Template.
type Steps interface {
	Len() int
	ID(i int) string
	Goal(i int) string
	// Tools is how many tools step i recommends; Tool is the j-th.
	Tools(i int) int
	Tool(i, j int) string
	// Next is where step i's edge of kind k goes as written, "" when it
	// takes the format's default (NextOf).
	Next(i int, k EdgeKind) string
	// Label is the edge's label, Bound its bound (0: none) and Then
	// where it leads once the bound is used up, as written ("": fail).
	Label(i int, k EdgeKind) string
	Bound(i int, k EdgeKind) int
	Then(i int, k EdgeKind) string
	// Line is the line of the skill the step was compiled from, 0 for a
	// step an agent wrote.
	Line(i int) int
}

// NextOf is where step i's edge of kind k goes once Defaults has run: as
// written, else DefaultNext.
func NextOf(s Steps, i int, k EdgeKind) string {
	if to := s.Next(i, k); to != "" {
		return to
	}
	return defaultNext(s, i, k)
}

// defaultNext is Template.DefaultNext over any Steps.
func defaultNext(s Steps, i int, k EdgeKind) string {
	switch {
	case k == Failure:
		return Fail
	case i+1 < s.Len():
		return s.ID(i + 1)
	}
	return End
}

// thenOf is where a bounded edge leads once its bound is used up: as
// written, else fail (Step.Then).
func thenOf(s Steps, i int, k EdgeKind) string {
	if to := s.Then(i, k); to != "" {
		return to
	}
	return Fail
}

// templateSteps are a Template's steps as Steps: a pointer, so handing
// them to Check boxes nothing.
type templateSteps Template

func (t *Template) steps() Steps { return (*templateSteps)(t) }

func (s *templateSteps) Len() int                       { return len(s.Steps) }
func (s *templateSteps) ID(i int) string                { return s.Steps[i].ID }
func (s *templateSteps) Goal(i int) string              { return s.Steps[i].Goal }
func (s *templateSteps) Tools(i int) int                { return len(s.Steps[i].RecommendedTools) }
func (s *templateSteps) Tool(i, j int) string           { return s.Steps[i].RecommendedTools[j] }
func (s *templateSteps) Next(i int, k EdgeKind) string  { return s.Steps[i].Next(k) }
func (s *templateSteps) Label(i int, k EdgeKind) string { return s.Steps[i].Label(k) }
func (s *templateSteps) Bound(i int, k EdgeKind) int    { return s.Steps[i].Bound(k) }
func (s *templateSteps) Line(i int) int                 { return s.Steps[i].Line }

func (s *templateSteps) Then(i int, k EdgeKind) string {
	if k == Failure {
		return s.Steps[i].FailureThen
	}
	return s.Steps[i].SuccessThen
}
