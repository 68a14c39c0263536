package graph

// State is where one step of a run stands, as a drawing of the run shows
// it. The graph package knows no plans: package plan turns a plan's step
// statuses into States (plan.Overlay).
type State uint8

const (
	Pending State = iota
	Done
	Failed
	Skipped
	InProgress
	// Waiting is a step in progress that waits for something outside the
	// agent (Step.WaitFor).
	Waiting
)

// String is the state as a drawing's status line writes it.
func (s State) String() string {
	switch s {
	case Done:
		return "done"
	case Failed:
		return "failed"
	case Skipped:
		return "skipped"
	case InProgress:
		return "in progress"
	case Waiting:
		return "waiting"
	}
	return "pending"
}

// marker is the checklist's box for the state, so a drawing and the
// checklist read alike, in colour or not.
func (s State) marker() string {
	switch s {
	case Done:
		return "[x]"
	case Failed:
		return "[!]"
	case Skipped:
		return "[-]"
	case InProgress, Waiting:
		return "[>]"
	}
	return "[ ]"
}

// Arc names one drawn edge: the step it leaves and its kind.
type Arc struct {
	From string
	Kind EdgeKind
}

// Overlay is a run drawn over the step graph: DOTWith and MermaidWith draw
// the same graph as DOT and Mermaid, with each step's state as a style and
// a status line, the path taken in bold and the position (the steps in
// progress) with a thick border. The zero Overlay, or nil, draws the plain
// graph.
type Overlay struct {
	// States by step ID; a step not named is pending.
	States map[string]State
	// Notes are one more word on a step's status line, by step ID, e.g.
	// "round 2 of 3".
	Notes map[string]string
	// Path holds the edges the run took.
	Path map[Arc]bool
	// Caption is a line under the title, e.g. "active · 1/4 done".
	Caption string
}

// active reports whether o draws anything over the plain graph.
func (o *Overlay) active() bool {
	return o != nil && (len(o.States) > 0 || len(o.Notes) > 0 || len(o.Path) > 0 || o.Caption != "")
}

func (o *Overlay) state(id string) State {
	if o == nil {
		return Pending
	}
	return o.States[id]
}

func (o *Overlay) taken(from string, k EdgeKind) bool {
	return o != nil && o.Path[Arc{From: from, Kind: k}]
}

// statusLine is the line a step's box gets under an overlay, "" for a
// pending step without a note: "[x] done", "[>] in progress · round 2 of 3".
func (o *Overlay) statusLine(id string) string {
	if !o.active() {
		return ""
	}
	s, note := o.state(id), o.Notes[id]
	if s == Pending && note == "" {
		return ""
	}
	line := s.marker() + " " + s.String()
	if note != "" {
		line += " · " + note
	}
	return line
}

// Colours of the states, shared by both writers.
const (
	colorDoneFill     = "#c6f6d5"
	colorDone         = "#2f855a"
	colorFailedFill   = "#fed7d7"
	colorSkippedFill  = "#edf2f7"
	colorSkipped      = "#718096"
	colorActiveFill   = "#bee3f8"
	colorActive       = "#2b6cb0"
	colorWaitingFill  = "#fefcbf"
	colorWaiting      = "#b7791f"
	penPath           = "3"
	penPosition       = "3"
	mermaidPathStroke = "3px"
)

// stateStyle is how a state is drawn: DOT style, line colour, fill, pen
// width ("" the default).
type stateStyle struct {
	style, color, fill, pen string
}

var stateStyles = map[State]stateStyle{
	Done:       {"rounded,filled", colorDone, colorDoneFill, "1.5"},
	Failed:     {"rounded,filled", colorFailure, colorFailedFill, "1.5"},
	Skipped:    {"rounded,filled,dashed", colorSkipped, colorSkippedFill, ""},
	InProgress: {"rounded,filled,bold", colorActive, colorActiveFill, penPosition},
	Waiting:    {"rounded,filled,bold", colorWaiting, colorWaitingFill, penPosition},
}

// waitsLine is the line a waiting step's box gets in every drawing.
func waitsLine(st *Step) string { return "waits for: " + st.WaitFor }
