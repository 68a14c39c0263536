package plan

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillc/skillc/graph"
)

// MakeInput is what make_plan receives: a title and steps, or a compiled
// skill's template. With a template, Title (when set) overrides its title.
// Steps are graph.Step, the one step shape: every field but Goal may be left
// out, and takes the format's default (graph.Template.Defaults).
type MakeInput struct {
	Title string `json:"title,omitempty"`
	// Objective is one line on what the plan is for; with a template,
	// when set, it overrides the template's.
	Objective string          `json:"objective,omitempty"`
	Steps     []graph.Step    `json:"steps,omitempty"`
	Template  *graph.Template `json:"-"`
	// Limits bound the template; the zero value is the runtime's
	// (graph.DefaultLimits).
	Limits graph.Limits `json:"-"`
}

// Make builds a new active plan from in, with the given ID and creation
// time. prev is the session's current plan, or nil: when it is still
// active, superseded is a copy of it closed as cancelled with the note
// "superseded" (the store keeps only the new plan; the caller reports the
// old one). On error nothing is returned and the caller must store nothing.
//
// What makes the steps valid is graph.Check's, so that what lint passes
// Make accepts; Make refuses its problems except the reachability ones
// (unreachable-step, no-path-to-end, entry-cannot-end): an agent's own plan
// may list a fallback it never takes.
func Make(prev *Plan, in MakeInput, id string, now time.Time) (p *Plan, superseded *Plan, err error) {
	// The objective is one line: white space, line breaks included, is
	// folded as in a goal.
	t := graph.Template{Format: graph.FormatVersion, Title: strings.TrimSpace(in.Title), Objective: oneLine(in.Objective)}
	steps := in.Steps
	if in.Template != nil {
		if len(in.Steps) > 0 {
			return nil, nil, errorf(CodeInvalid, "give either steps or a skill, not both")
		}
		if t.Title == "" {
			t.Title = strings.TrimSpace(in.Template.Title)
		}
		if t.Title == "" {
			t.Title = in.Template.Skill
		}
		if t.Objective == "" {
			t.Objective = oneLine(in.Template.Objective)
		}
		t.Skill, t.Description, t.Entry = in.Template.Skill, in.Template.Description, in.Template.Entry
		steps = in.Template.Steps
	}
	if t.Title == "" {
		return nil, nil, errorf(CodeInvalid, "the plan needs a title: a short sentence that names the task")
	}
	if len(steps) == 0 {
		return nil, nil, errorf(CodeInvalid, "the plan needs at least one step: give steps, each with a goal")
	}
	if n := utf8.RuneCountInString(t.Objective); n > MaxObjectiveLen {
		return nil, nil, errorf(CodeLimit, "the objective is %d characters; at most %d are allowed: one line on what the plan is for", n, MaxObjectiveLen)
	}
	t.Steps = make([]graph.Step, len(steps))
	for i, s := range steps {
		t.Steps[i] = normalize(s)
		if n := utf8.RuneCountInString(t.Steps[i].Detail); n > MaxDetailLen {
			sid := t.Steps[i].ID
			if sid == "" {
				sid = strconv.Itoa(i + 1)
			}
			return nil, nil, errorf(CodeLimit, "the detail of step %q is %d characters; at most %d are allowed", sid, n, MaxDetailLen)
		}
	}
	t.Defaults()
	if in.Template != nil {
		// A compiled skill's loop without a bound takes the default, as
		// lint (unbounded-loop) told its author; an agent's own steps
		// must say it (below).
		graph.BoundLoops(&t, in.Limits.LoopRounds)
	}
	for _, pr := range graph.Check(&t, in.Limits) {
		if code, refused := refusal(pr.Code); refused {
			msg := pr.Message
			if pr.Detail != "" {
				msg += "; " + pr.Detail
			}
			if pr.Code == graph.CodeUnboundedLoop {
				msg = unboundedMessage(pr, t.Steps[pr.Index])
			}
			return nil, nil, &Error{Code: code, Msg: msg}
		}
	}

	out := &Plan{
		ID:        id,
		Title:     t.Title,
		Objective: t.Objective,
		Status:    StatusActive,
		Skill:     t.Skill,
		Entry:     t.Entry,
		Steps:     make([]Step, len(t.Steps)),
		CreatedAt: now,
		UpdatedAt: now,
	}
	for i, s := range t.Steps {
		if s.RecommendedTools == nil {
			s.RecommendedTools = []string{}
		}
		out.Steps[i] = Step{Step: s, Status: StepPending}
		if s.ID == t.Entry {
			out.Steps[i].Status = StepInProgress
		}
	}
	if prev != nil && prev.Status == StatusActive {
		superseded = prev.Clone()
		superseded.Status = StatusCancelled
		superseded.Note = "superseded"
		superseded.UpdatedAt = now
	}
	return out, superseded, nil
}

// refusal maps a graph.Check problem to the Code Make refuses it with.
func refusal(code string) (Code, bool) {
	switch code {
	case graph.CodeUnreachable, graph.CodeNoPathToEnd, graph.CodeEntryCannotEnd:
		return "", false
	case graph.CodeDuplicateID:
		return CodeDuplicate, true
	case graph.CodeUnknownTarget:
		return CodeUnknownStep, true
	case graph.CodeLimit:
		return CodeLimit, true
	case graph.CodeCycle, graph.CodeUnboundedLoop:
		return CodeCycle, true
	}
	return CodeInvalid, true
}

// unboundedMessage is the refusal of a loop without a bound in an agent's
// own steps, with the fix in make_plan's own fields.
func unboundedMessage(pr graph.Problem, st graph.Step) string {
	to := st.Next(pr.Edge)
	back := "step " + strconv.Quote(to)
	if to == st.ID {
		back = "itself"
	}
	return fmt.Sprintf("step %q: %s goes back to %s, a loop with no bound: set %s on step %q to how many times it may be taken (e.g. 3), and %s to where it goes after that (default fail)",
		st.ID, pr.Edge.Field(), back, pr.Edge.BoundField(), st.ID, pr.Edge.ThenField())
}

// normalize forgives what a model types loosely, before the step is
// checked: space around IDs, targets, tools and labels, runs of white space
// in the goal, a target written "#id" as in skills or END in capitals, a
// tool named twice.
func normalize(s graph.Step) graph.Step {
	s.ID = strings.TrimSpace(s.ID)
	s.Goal = oneLine(s.Goal)
	s.NextOnSuccess = target(s.NextOnSuccess)
	s.NextOnFailure = target(s.NextOnFailure)
	s.SuccessLabel = strings.TrimSpace(s.SuccessLabel)
	s.FailureLabel = strings.TrimSpace(s.FailureLabel)
	s.SuccessThen = thenTarget(s.SuccessThen)
	s.FailureThen = thenTarget(s.FailureThen)
	s.WaitFor = strings.Join(strings.Fields(s.WaitFor), " ")
	s.Detail = strings.TrimSpace(s.Detail)
	tools := make([]string, 0, len(s.RecommendedTools))
	seen := make(map[string]bool, len(s.RecommendedTools))
	for _, tool := range s.RecommendedTools {
		tool = strings.TrimSpace(tool)
		if !seen[tool] {
			seen[tool] = true
			tools = append(tools, tool)
		}
	}
	s.RecommendedTools = tools
	return s
}

// thenTarget is target for a then field, which stays empty (fail) when
// not given.
func thenTarget(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return target(s)
}

// oneLine folds every run of white space, line breaks included, into one
// space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func target(s string) string {
	s = strings.TrimSpace(s)
	if graph.IsTerminal(s) {
		return strings.ToLower(s)
	}
	return strings.TrimPrefix(s, "#")
}

// validIDs lists the plan's step IDs for error messages, in plan order.
func validIDs(p *Plan) string {
	ids := make([]string, 0, len(p.Steps))
	for _, s := range p.Steps {
		if s.ID != "" {
			ids = append(ids, strconv.Quote(s.ID))
		}
	}
	return strings.Join(ids, ", ")
}
