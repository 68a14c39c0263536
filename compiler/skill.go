// Package compiler turns a workflow skill, a markdown write-up in the format
// of docs/format.md, into a Skill: an intermediate representation in which
// every step, edge, annotation and frontmatter field keeps its source range,
// and from it a graph.Template. It reports the syntax's problems (where an
// ID, an edge or a tool is written and how the text resolves) as Diagnostic
// values and never prints; what makes a template valid is graph.Check's.
package compiler

import (
	"github.com/skillc/skillc/compiler/prose"
	"github.com/skillc/skillc/graph"
)

// Terminal step IDs, graph's (reserved: no step may take them, in any case).
const (
	End  = graph.End
	Fail = graph.Fail
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

	// Links are the body's links and images, in written order.
	Links []Link

	Form  Form
	Entry string // the first step's ID, or "" when there are no steps
	Steps []*Step
	// RefusedIDs are the {#id}s written that graph.CheckID refuses, with
	// their ranges: each step keeps its number, and the invalid-id or
	// reserved-id rule reports them. InvalidTools are the tool names
	// written, in allowed-tools or on a step, that graph.CheckToolName
	// refuses, each time one is written: left out of the registry and of
	// the steps' tools, and the invalid-tool-name rule's to report. They
	// are the skill's, not the steps', so a step costs no more for them.
	RefusedIDs   []Ref
	InvalidTools []Ref
	// Unread is true when the body was not parsed, as the file is over
	// the size limit or nests too deep (file-too-large): no steps were
	// looked for, so none is missing.
	Unread bool

	// Strict is true when the skill was read by FORMAT v1's rules only
	// (Options.Strict): its loops are then cycles, as v1 has them.
	Strict bool

	// byID maps each step ID to its position in Steps (the first step of
	// an ID), set by Compile so Step is not a scan per call; ReadProse
	// reads it as the prose reader's Index. Skills built by hand go
	// without.
	byID map[string]int
	// prose holds what each step's prose says, read once by Compile
	// (ReadProse); nil for a skill built by hand.
	prose []*prose.Reading
	// text is Source as a string, made once by Compile when it first
	// needs one (compilation.bodyString): the strings cut from the body
	// and every step's prose share its memory. Empty for a skill built by
	// hand.
	text string
	// parts are the indices of the steps that begin a part of the
	// procedure after the first (compilation.parts).
	parts []int
}

// Step returns the step with the given ID, or nil.
func (s *Skill) Step(id string) *Step {
	if id == End || id == Fail {
		return nil // reserved: never a step
	}
	if i, ok := s.byID[id]; ok && i < len(s.Steps) && s.Steps[i].ID == id {
		return s.Steps[i]
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
	// AllowedTools is the skill's tool registry when HasAllowedTools: each
	// tool once, where it was first written. For an entry with a host's
	// permission pattern, such as Bash(git:*), the tool is Bash.
	AllowedTools    []Ref
	HasAllowedTools bool
	AllowedRange    Range
	// AllowedEntries are the allowed-tools entries as written, in order,
	// with their permission patterns: how each AllowedTools name was read.
	AllowedEntries []AllowedTool
	// Unknown lists top-level keys that neither the Agent Skills
	// specification nor a skill host defines.
	Unknown []Ref
	// HostKeys lists top-level keys that a skill host defines outside the
	// Agent Skills specification (Claude Code's argument-hint, ...): known,
	// kept, not checked. Under Options.Strict they are Unknown instead.
	HostKeys []Ref

	// Document is true when the frontmatter belongs to a document, such as
	// a runbook on a docs site (a title and no name), not to a skill: the
	// file compiles as a bare write-up and none of its fields is checked.
	// Never set under Options.Strict.
	Document bool
	// Title is the document's title field.
	Title Field
	// DocumentKey is the key that marks a document: title, else the first
	// docs-site page key written.
	DocumentKey Ref
	// Strict is true when the frontmatter was read by FORMAT v1's rules
	// only (Options.Strict).
	Strict bool
	// Malformed is true when the YAML could not be read as a mapping of
	// fields (the compiler reported invalid-frontmatter): no field is
	// known, so the lint rules check none.
	Malformed bool
}

// AllowedTool is one allowed-tools entry: a tool, and the permission
// pattern a host may write after it in parentheses ("git:*" in
// Bash(git:*)), empty when there is none.
type AllowedTool struct {
	Tool    string
	Pattern string
	Range   Range // the whole entry
}

// Field is a scalar frontmatter value and where it was written.
type Field struct {
	Value string
	Set   bool
	// Invalid is true when the value is not a string (the compiler
	// reported invalid-frontmatter): it is written, so it is not missing,
	// but it has no text to check.
	Invalid  bool
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

	// V2 is what version 2 readings found for the step beyond v1's
	// fields, nil when they found nothing: a pointer, as most steps have
	// none (all of them under Options.Strict), and inline its fields
	// would be a quarter of every step's size. Read it with the methods
	// of the same names, which answer for a nil V2.
	V2 *StepV2
}

// StepV2 is the part of a Step that only version 2 readings set.
type StepV2 struct {
	// GoalFrom says how a version 2 reading found the goal (GoalBoldLead,
	// GoalFirstSentence, GoalHeadingParagraph); empty when v1 rules gave
	// it.
	GoalFrom string

	// From says how a version 2 reading found the step (StepKeyword,
	// StepParagraph, StepResumed, ...); empty when v1 rules found it.
	From string
	// SubLists are the numbered lists inside the step's detail (version
	// 2 only): "step 4" written inside one names its own item 4 when it
	// has one, not step 4 of the skill.
	SubLists []SubList
	// Inferences are the version 2 readings made for this step, each
	// with the words it read, for lint to show (FORMAT 6: every
	// inference is visible).
	Inferences []Inference

	// Loops are the back edges its prose states (FORMAT 6.5), as read;
	// each becomes the step's edge of its kind unless an annotation or a
	// forward edge of the prose states that edge.
	Loops []Loop
	// WaitFor is what the step waits for outside the agent (FORMAT 6.6),
	// from a wait annotation or else from prose; WaitRange is where it was
	// written, WaitFrom is "prose" when prose said it.
	WaitFor   string
	WaitRange Range
	WaitFrom  string
	// ProseDropped says why the edges read from this step's prose were
	// not applied after all (they would leave a step unreachable), or "".
	ProseDropped string
}

// v2 is the step's V2, made when it has none: for the compiler to set.
func (s *Step) v2() *StepV2 {
	if s.V2 == nil {
		s.V2 = new(StepV2)
	}
	return s.V2
}

// The version 2 fields, read through V2 or, for a step without one, the
// zero StepV2 (noV2, never written).
var noV2 StepV2

func (s *Step) read2() *StepV2 {
	if s.V2 == nil {
		return &noV2
	}
	return s.V2
}

func (s *Step) GoalFrom() string        { return s.read2().GoalFrom }
func (s *Step) From() string            { return s.read2().From }
func (s *Step) SubLists() []SubList     { return s.read2().SubLists }
func (s *Step) Inferences() []Inference { return s.read2().Inferences }
func (s *Step) Loops() []Loop           { return s.read2().Loops }
func (s *Step) WaitFor() string         { return s.read2().WaitFor }
func (s *Step) WaitRange() Range        { return s.read2().WaitRange }
func (s *Step) WaitFrom() string        { return s.read2().WaitFrom }
func (s *Step) ProseDropped() string    { return s.read2().ProseDropped }

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
func (s *Step) Line() int { return int(s.Range.Start.Line) }

// ToolNames returns the names of the step's recommended tools.
func (s *Step) ToolNames() []string {
	out := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.Name
	}
	return out
}

// EdgeKind tells the success edge from the failure edge: graph's.
type EdgeKind = graph.EdgeKind

const (
	Success = graph.Success
	Failure = graph.Failure
)

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
	// From says how a version 2 reading found the edge: empty for an
	// annotation or a v1 default, "prose" for FORMAT 6.4.
	From string
	// Bound is the loop's bound when one is written (FORMAT 6.5: "at
	// most 3 times"), else nil. A pointer: few edges have one, and inline
	// its fields would be a fifth of every step's size.
	Bound *Bound
}

// Bound is how many times a looping edge may be taken.
type Bound struct {
	// Rounds is the number written ("at most 3 times"); Then is where the
	// edge leads once the bound is used up ("then 6"), "" for fail.
	Rounds int
	Then   string
	// Range is where the bound was written, ThenRange where its then
	// target was; both are zero for a bound read from prose.
	Range     Range
	ThenRange Range
}

// Rounds is the edge's bound, 0 when none is written.
func (e *Edge) Rounds() int {
	if e.Bound == nil {
		return 0
	}
	return e.Bound.Rounds
}

// Then is where the edge leads once its bound is used up: "" for fail,
// or when it has no bound.
func (e *Edge) Then() string {
	if e.Bound == nil {
		return ""
	}
	return e.Bound.Then
}

// SubList is a numbered list inside a step: where it is, and the numbers
// of its items (Start to Start+Count-1).
type SubList struct {
	Range        Range
	Start, Count int
}

// Inference is one reading version 2 made that v1 would not: what it
// concluded, from which words, and where they are.
type Inference struct {
	// Kind is what was inferred: one of the Goal* or Step* constants,
	// or ToolsNone, ToolsNote, ToolsProse.
	Kind string
	// Summary says what was read, for a diagnostic.
	Summary string
	// Quote is the words it read, as written.
	Quote string
	Range Range
	// Fix is the annotation that states what was inferred, when one can
	// ("- on failure: 3"), else "".
	Fix string
}

// Sources of version 2 readings, in Step.GoalFrom, Step.From and
// Inference.Kind.
const (
	GoalBoldLead         = "bold-lead"         // "**Check the ledger.** Then ..."
	GoalFirstSentence    = "first-sentence"    // a first paragraph over the goal limit
	GoalHeadingParagraph = "heading-paragraph" // "### Step 3" with no title

	StepKeyword   = "heading-keyword" // "Phase 2: ...", "Step 1b", "Step 2 -- ...", "3) ..."
	StepParagraph = "step-paragraph"  // a paragraph "**Step 2: Title**"
	StepResumed   = "list-resumed"    // an ordered list continuing a split one
	StepChosen    = "list-chosen"     // the procedure, chosen over lists that are not
	StepSection   = "section"         // one of several sections that each hold a numbered list

	ToolsNone  = "tools-none"  // "tools: none"
	ToolsNote  = "tools-note"  // "tools: ask_user (only if needed)"
	ToolsProse = "tools-prose" // "tools: ask the user for the order"
)

// DisplayLabel is the edge's LABEL, else its key word, else "". (A
// pointer receiver: an Edge is too large to copy for two strings.)
func (e *Edge) DisplayLabel() string {
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

// addInference adds inf to the step's Inferences.
func (s *Step) addInference(inf Inference) {
	v := s.v2()
	v.Inferences = append(v.Inferences, inf)
}
