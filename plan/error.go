package plan

import (
	"errors"
	"fmt"
)

// Code classifies an Error so a server can map it (to an MCP tool error, an
// exit code) without parsing the message.
type Code string

const (
	// CodeInvalid: the input is malformed (empty title, bad ID, bad tool
	// name, unknown status, missing note, nothing to update).
	CodeInvalid Code = "invalid_input"
	// CodeLimit: a limit on steps, goal, tools, title or note is exceeded.
	CodeLimit Code = "limit_exceeded"
	// CodeUnknownStep: a step ID or an edge target names no step.
	CodeUnknownStep Code = "unknown_step"
	// CodeDuplicate: an ID is used twice (two steps, or twice in one call).
	CodeDuplicate Code = "duplicate_id"
	// CodeCycle: the steps form a loop.
	CodeCycle Code = "cycle"
	// CodeClosed: the plan is closed and takes no more changes.
	CodeClosed Code = "plan_closed"
	// CodeNoPlan: the session has no live plan.
	CodeNoPlan Code = "no_plan"
)

// Error is a refused operation. Nothing was changed.
type Error struct {
	Code Code
	// Msg is the message in ToolWords.
	Msg string
	// say renders the message in other Words; nil when it names no tool.
	say func(Words) string
}

func (e *Error) Error() string { return e.Msg }

// In is the message in w's words: the CLI's refusals name its commands
// and flags, the server's the MCP tools and their arguments.
func (e *Error) In(w Words) string {
	if e.say == nil {
		return e.Msg
	}
	return e.say(w)
}

// Message is err's message in w's words when err is (or wraps) an *Error,
// else err.Error().
func Message(err error, w Words) string {
	var e *Error
	if errors.As(err, &e) {
		return e.In(w)
	}
	return err.Error()
}

// errorw is an Error whose message names tools or step lists, in Words.
func errorw(code Code, say func(w Words) string) *Error {
	return &Error{Code: code, Msg: say(ToolWords), say: say}
}

// NoPlanError is the refusal of an operation on a session without a live
// plan.
func NoPlanError() *Error {
	return errorw(CodeNoPlan, func(w Words) string {
		return fmt.Sprintf("there is no plan in this session: %s %s to start one", w.Call, w.Make)
	})
}

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the Code of err if it is (or wraps) an *Error, else "".
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
