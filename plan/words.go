package plan

// Words are the names the runtime's messages give the four tools and their
// step lists: a model calling the MCP tools reads "call make_plan", a person
// at a shell reads "run skillc plan make". Refusals (*Error.In) and the
// checklist's guidance (ChecklistIn) take them.
type Words struct {
	Make, View, Update, Close string
	// Check, Uncheck, Fail and Skip name the step lists.
	Check, Uncheck, Fail, Skip string
	// Note names close_plan's note.
	Note string
	// Call is the verb before a tool's name: "call", "run".
	Call string
}

// ToolWords are the MCP tools' names, the default everywhere.
var ToolWords = Words{
	Make: "make_plan", View: "view_plan", Update: "update_plan", Close: "close_plan",
	Check: "check", Uncheck: "uncheck", Fail: "fail", Skip: "skip", Note: "a note",
	Call: "call",
}

// list names a step list of Changes by its ToolWords name.
func (w Words) list(name string) string {
	switch name {
	case "check":
		return w.Check
	case "uncheck":
		return w.Uncheck
	case "fail":
		return w.Fail
	case "skip":
		return w.Skip
	}
	return name
}
