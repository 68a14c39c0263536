package plan

import "time"

// MaxEvents bounds a plan's history: a store keeps the last MaxEvents
// events of a plan and drops older ones. A plan of 100 steps walked one
// step per call takes a few hundred writes at most; a loop that runs away
// stops growing the store here instead.
const MaxEvents = 1000

// The tools that change a plan, as an Event names them.
const (
	ToolMake   = "make_plan"
	ToolUpdate = "update_plan"
	ToolClose  = "close_plan"
)

// Event is one change of a plan, as its history keeps it: when, which tool,
// the step lists it was given, and what it left: the plan's status, each
// step's status, the position, the version. It is how a person sees how the
// agent walked the graph.
type Event struct {
	At   time.Time `json:"at" jsonschema:"when the change was made"`
	Tool string    `json:"tool" jsonschema:"the tool that made it: make_plan, update_plan or close_plan"`
	// Changes are the step lists the call gave (none for make_plan).
	Changes
	// OffPosition are the steps it recorded off the position (OffPosition).
	OffPosition []string `json:"off_position,omitempty" jsonschema:"the steps it recorded that were off the position (kept as recorded)"`
	// Note is close_plan's note.
	Note   string      `json:"note,omitempty" jsonschema:"close_plan's note"`
	Status Status      `json:"status" jsonschema:"the plan's status it left: active, completed, failed or cancelled"`
	Steps  []StepState `json:"steps" jsonschema:"each step's status it left, in plan order"`
	// Position is the in-progress steps it left.
	Position []string `json:"position" jsonschema:"the IDs of the in-progress steps it left: where the plan was"`
	// Version is the plan's version the change wrote; the store sets it.
	Version int64 `json:"version" jsonschema:"the plan's version this change wrote"`
}

// StepState is one step's status in an Event.
type StepState struct {
	ID     string     `json:"id" jsonschema:"the step's ID"`
	Status StepStatus `json:"status" jsonschema:"pending, in_progress, done, failed or skipped"`
}

// NewEvent records that tool changed a plan into after, given ch, with off
// the steps it recorded off the position. The time is after's UpdatedAt.
func NewEvent(tool string, ch Changes, after *Plan, off []string) Event {
	ev := Event{
		At: after.UpdatedAt, Tool: tool, Changes: ch, OffPosition: off,
		Status: after.Status, Steps: make([]StepState, len(after.Steps)),
		Position: Position(after),
	}
	if ev.Position == nil {
		ev.Position = []string{}
	}
	if after.Closed() {
		ev.Note = after.Note
	}
	for i, s := range after.Steps {
		ev.Steps[i] = StepState{ID: s.ID, Status: s.Status}
	}
	return ev
}
