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
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

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
