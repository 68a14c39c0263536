// Package compiler turns a workflow skill, a markdown write-up in the format
// of docs/format.md, into a Skill: an intermediate representation in which
// every step, edge, annotation and frontmatter field keeps its source range.
// It reports problems as Diagnostic values and never prints.
package compiler

// Terminal step IDs. They are reserved: no step may take them, in any case.
const (
	End  = "end"
	Fail = "fail"
)

// Form is how a skill writes its steps.
type Form int

const (
	FormNone    Form = iota // no steps found
	FormList                // the items of one ordered list
	FormHeading             // sibling "Step N: Title" headings
)

func (f Form) String() string {
	switch f {
	case FormList:
		return "list"
	case FormHeading:
		return "heading"
	}
	return "none"
}

// Skill is a compiled workflow skill.
type Skill struct {
	// Filename is the path the source was read from, as given.
	Filename string
	// Source is the file's bytes as read, a byte order mark included, so
	// that every Range's Byte offsets index it (and the file on disk);
	// diagnostics quote their line from it.
	Source []byte

	// Frontmatter is nil when the file has none.
	Frontmatter *Frontmatter

	// Name is the frontmatter name, else the folder name of a SKILL.md,
	// else the file name without extension.
	Name string
	// Title is the text of the first H1, else Name.
	Title string
	// TitleRange is the H1's range, zero when there is none.
	TitleRange Range
	// Description is the frontmatter description, else empty.
	Description string

	Form  Form
	Entry string // the first step's ID, or "" when there are no steps
	Steps []*Step

	// byID indexes Steps by ID (the first step of an ID), set by Compile
	// so Step is not a scan per call. Skills built by hand go without.
	byID map[string]*Step
}

// Step returns the step with the given ID, or nil.
func (s *Skill) Step(id string) *Step {
	if id == End || id == Fail {
		return nil // reserved: never a step
	}
	if st := s.byID[id]; st != nil && st.ID == id {
		return st
	}
	for _, st := range s.Steps {
		if st.ID == id {
			return st
		}
	}
	return nil
}

// Frontmatter is the YAML block at the top of a file, field by field, each
// with the range of its value.
type Frontmatter struct {
	Range Range // the whole block, including the --- lines

	Name          Field
	Description   Field
	License       Field
	Compatibility Field
	Metadata      map[string]Field
	MetadataRange Range
	// AllowedTools is the skill's tool registry when HasAllowedTools.
	AllowedTools    []Ref
	HasAllowedTools bool
	AllowedRange    Range
	// Unknown lists top-level keys outside the Agent Skills set.
	Unknown []Ref
}

// Field is a scalar frontmatter value and where it was written.
type Field struct {
	Value    string
	Set      bool
	Range    Range // the value's range; the key's when the value is empty
	KeyRange Range
}

// Ref is a name written somewhere: a tool, a key.
type Ref struct {
	Name  string
	Range Range
}

// Step is one step of the graph.
type Step struct {
	ID string
	// IDRange is where the ID was written: the list marker's number, the
	// heading's number, or the {#id} attribute.
	IDRange Range
	// ExplicitID is true when the ID came from {#id}.
	ExplicitID bool

	// Goal is plain text: inline markup removed, code span text kept,
	// white space collapsed.
	Goal      string
	GoalRange Range

	// Tools are the recommended tools in written order, without duplicates.
	Tools []Ref

	Success Edge
	Failure Edge

	// Detail is everything else in the step, as text for the agent.
	Detail string

	// Annotations are the annotation bullets as written, in order.
	Annotations []Annotation

	// Range covers the whole step: the list item, or the heading and its
	// section.
	Range Range

	// Loops are the back edges its prose states (FORMAT 6.5), kept here
	// and not applied as edges until the runtime can run a round.
	Loops []Loop
	// WaitFor is what the step waits for outside the agent (FORMAT 6.6),
	// read from prose; WaitRange is where it was written.
	WaitFor   string
	WaitRange Range
}

// Loop is a back edge read from prose: to this step or an earlier one.
type Loop struct {
	Kind   EdgeKind
	Target string
	// Label is the condition as written ("any fail", "until the queue is
	// empty").
	Label string
	// Bound is the rounds written ("up to 3 times"), 0 when none is.
	Bound int
	// Then is where the edge leads when the bound is used up, "" if not
	// written (FORMAT 6.5: fail).
	Then  string
	Range Range
	From  string // "prose"
}

// Line is the 1-based line the step starts on.
func (s *Step) Line() int { return s.Range.Start.Line }

// ToolNames returns the names of the step's recommended tools.
func (s *Step) ToolNames() []string {
	out := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.Name
	}
	return out
}

// EdgeKind tells the success edge from the failure edge.
type EdgeKind int

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

// Edge is where a step goes next.
type Edge struct {
	// Target is a step ID, End or Fail.
	Target string
	// Explicit is false when the edge took the default of the format.
	Explicit bool
	// Key is the annotation key as written, lowercased ("yes", "on failure").
	Key string
	// Label is the optional text in parentheses ("one record").
	Label string
	// Note is text written after the target.
	Note string
	// Range is the annotation bullet's range; TargetRange the target's.
	Range       Range
	TargetRange Range
	From        string // where an inferred edge came from: "" for v1 (annotation or default), "prose" for FORMAT 6.4
}

// DisplayLabel is the edge's LABEL, else its key word, else "".
func (e Edge) DisplayLabel() string {
	if e.Label != "" {
		return e.Label
	}
	return e.Key
}

// AnnotationKind is what an annotation bullet says.
type AnnotationKind int

const (
	AnnotationTools AnnotationKind = iota
	AnnotationSuccess
	AnnotationFailure
)

// Annotation is one `KEY [(LABEL)] SEP VALUE` bullet.
type Annotation struct {
	Kind       AnnotationKind
	Key        string // as written
	KeyRange   Range
	Label      string
	Value      string
	ValueRange Range
	Range      Range // the whole bullet
}
