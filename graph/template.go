package graph

import (
	"strconv"
	"strings"
)

// FormatVersion is the version of the skill format and of plan templates.
const FormatVersion = 1

// Terminal step IDs. They are reserved: no step may take them, in any case.
const (
	End  = "end"
	Fail = "fail"
)

// EdgeKind tells the success edge from the failure edge. A byte: the
// graph keeps one in each of its edges, which an int made 16 bytes, not 12.
type EdgeKind uint8

const (
	Success EdgeKind = iota
	Failure
)

func (k EdgeKind) String() string {
	if k == Failure {
		return "failure"
	}
	return "success"
}

// Field is the template field of an edge of this kind, as messages about
// a template name it.
func (k EdgeKind) Field() string {
	if k == Failure {
		return "next_on_failure"
	}
	return "next_on_success"
}

// Template is a step graph as a plan template (FORMAT.md §5): what the
// compiler makes of a skill and exactly what make_plan accepts, so a
// compiled skill seeds an agent's plan unchanged. Field order is the JSON
// order, and the tags are those of `skillc compile`'s output.
type Template struct {
	Format int    `json:"format" yaml:"format"`
	Skill  string `json:"skill" yaml:"skill"`
	Title  string `json:"title" yaml:"title"`
	// Objective is one line on what a plan made from the template is for
	// (make_plan's objective). The compiler leaves it empty: a skill's
	// description says when to use the skill, not what one run is for.
	Objective   string `json:"objective,omitempty" yaml:"objective,omitempty"`
	Description string `json:"description" yaml:"description"`
	Entry       string `json:"entry" yaml:"entry"`
	Steps       []Step `json:"steps" yaml:"steps"`
}

// Step is THE step shape: one step of a template, of make_plan's input,
// of the CLI's steps file, and (with a status) of a plan. Every field but
// Goal may be left out of an input; Defaults fills in what the format
// implies. The jsonschema tags are what an agent reads in make_plan's
// input schema.
type Step struct {
	ID               string   `json:"id" yaml:"id" jsonschema:"the step's ID: 1-64 letters, digits, _ or -; end and fail are reserved. Default: the step's 1-based position in the list"`
	Goal             string   `json:"goal" yaml:"goal" jsonschema:"what the step achieves, one short sentence (at most 500 characters), e.g. List ACAT transfers."`
	RecommendedTools []string `json:"recommended_tools" yaml:"recommended_tools" jsonschema:"names of the tools this step will call, at most 16, in the order you expect to call them"`
	NextOnSuccess    string   `json:"next_on_success" yaml:"next_on_success" jsonschema:"where to go when the step succeeds (or is skipped): a step ID, end (the plan is done) or fail. Default: the next step in the list; after the last step, end"`
	NextOnFailure    string   `json:"next_on_failure" yaml:"next_on_failure" jsonschema:"where to go when the step fails: a step ID, end or fail (the plan has failed). Default: fail"`
	SuccessLabel     string   `json:"success_label" yaml:"success_label" jsonschema:"a short name for the success edge shown in the checklist, e.g. one record"`
	FailureLabel     string   `json:"failure_label" yaml:"failure_label" jsonschema:"a short name for the failure edge shown in the checklist, e.g. many records"`
	Detail           string   `json:"detail" yaml:"detail" jsonschema:"notes for whoever carries the step out; kept with the step, not shown in the checklist"`
	// Line is the line of the skill the step was compiled from, 0 for a
	// step an agent wrote.
	Line int `json:"line" yaml:"line" jsonschema:"the line of the skill the step was compiled from; leave it out"`

	// Where a version 2 inference came from (FORMAT.md §6): the phrase or
	// rule the compiler read the goal or an edge from. Empty for what a
	// version 1 skill writes out, so v1 templates are unchanged.
	GoalFrom    string `json:"goal_from,omitempty" yaml:"goal_from,omitempty" jsonschema:"where the compiler read the goal from, for a version 2 inference; leave it out"`
	SuccessFrom string `json:"success_from,omitempty" yaml:"success_from,omitempty" jsonschema:"where the compiler read the success edge from, for a version 2 inference; leave it out"`
	FailureFrom string `json:"failure_from,omitempty" yaml:"failure_from,omitempty" jsonschema:"where the compiler read the failure edge from, for a version 2 inference; leave it out"`

	// A loop (FORMAT.md 6.5): an edge back to this step or an earlier one
	// may be taken at most Bound times; after that it leads to Then
	// (default fail). Zero and empty for an edge that is no loop, so v1
	// templates are unchanged.
	SuccessBound int    `json:"success_bound,omitempty" yaml:"success_bound,omitempty" jsonschema:"when next_on_success goes back to this step or an earlier one (a loop): how many times it may be taken, e.g. 3. Required for such an edge in your own steps"`
	SuccessThen  string `json:"success_then,omitempty" yaml:"success_then,omitempty" jsonschema:"where the success edge leads once success_bound is used up: a step ID, end or fail. Default: fail"`
	FailureBound int    `json:"failure_bound,omitempty" yaml:"failure_bound,omitempty" jsonschema:"when next_on_failure goes back to this step or an earlier one (a retry loop): how many times it may be taken, e.g. 3. Required for such an edge in your own steps"`
	FailureThen  string `json:"failure_then,omitempty" yaml:"failure_then,omitempty" jsonschema:"where the failure edge leads once failure_bound is used up: a step ID, end or fail. Default: fail"`
	// WaitFor is what the step waits for outside the agent (FORMAT.md
	// 6.6): a person's answer, a signed form, an approval.
	WaitFor string `json:"wait_for,omitempty" yaml:"wait_for,omitempty" jsonschema:"what the step waits for outside the agent, e.g. the customer's signed form; shown while the step is in progress"`
}

// Next is the step's edge of the given kind.
func (s *Step) Next(k EdgeKind) string {
	if k == Failure {
		return s.NextOnFailure
	}
	return s.NextOnSuccess
}

// Bound is how many times the step's edge of the given kind may be taken
// when it is a loop, 0 when no bound is written.
func (s *Step) Bound(k EdgeKind) int {
	if k == Failure {
		return s.FailureBound
	}
	return s.SuccessBound
}

// Then is where the step's edge of the given kind leads once its bound is
// used up: as written, else fail.
func (s *Step) Then(k EdgeKind) string {
	t := s.SuccessThen
	if k == Failure {
		t = s.FailureThen
	}
	if t == "" {
		return Fail
	}
	return t
}

// Label is the step's label for the edge of the given kind.
func (s *Step) Label(k EdgeKind) string {
	if k == Failure {
		return s.FailureLabel
	}
	return s.SuccessLabel
}

// Defaults fills in, in place, what the format leaves unwritten
// (FORMAT.md §3, DESIGN.md §2): an empty ID is the step's 1-based
// position, an empty edge takes DefaultNext, an empty entry is the first
// step. The compiler and plan.Make call it; New reads an unfilled template
// through the same rules without changing it. A template without steps
// keeps its empty entry.
func (t *Template) Defaults() {
	for i := range t.Steps {
		if t.Steps[i].ID == "" {
			t.Steps[i].ID = strconv.Itoa(i + 1)
		}
	}
	for i := range t.Steps {
		s := &t.Steps[i]
		if s.NextOnSuccess == "" {
			s.NextOnSuccess = t.DefaultNext(i, Success)
		}
		if s.NextOnFailure == "" {
			s.NextOnFailure = t.DefaultNext(i, Failure)
		}
	}
	t.Entry = t.EntryID()
}

// DefaultNext is where step i goes on an edge of kind k that is not
// written: on success the next step (after the last: end), on failure
// fail.
func (t *Template) DefaultNext(i int, k EdgeKind) string {
	return defaultNext(t.steps(), i, k)
}

// EntryID is the entry step's ID: Entry, else the first step's, else "".
func (t *Template) EntryID() string {
	if t.Entry == "" && len(t.Steps) > 0 {
		return t.Steps[0].ID
	}
	return t.Entry
}

// IsTerminal reports whether id is end or fail, in any case.
func IsTerminal(id string) bool {
	// No other character folds to a letter of end or fail (only k and s
	// have non-ASCII folds), so an ID of another length is neither: most
	// IDs are turned away by that, without EqualFold's call.
	return len(id) == len(End) && strings.EqualFold(id, End) || len(id) == len(Fail) && strings.EqualFold(id, Fail)
}
