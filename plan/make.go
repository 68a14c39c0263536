package plan

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// StepInput is one step as make_plan receives it. Every field but Goal may
// be left out: a missing ID is the step's 1-based position, a missing
// success edge is the next step (after the last one: end), a missing
// failure edge is fail (FORMAT.md §3).
type StepInput struct {
	ID               string   `json:"id,omitempty"`
	Goal             string   `json:"goal"`
	RecommendedTools []string `json:"recommended_tools,omitempty"`
	NextOnSuccess    string   `json:"next_on_success,omitempty"`
	NextOnFailure    string   `json:"next_on_failure,omitempty"`
	SuccessLabel     string   `json:"success_label,omitempty"`
	FailureLabel     string   `json:"failure_label,omitempty"`
	Detail           string   `json:"detail,omitempty"`
}

// MakeInput is what make_plan receives: a title and steps, or a compiled
// skill's template. With a template, Title (when set) overrides its title.
type MakeInput struct {
	Title    string             `json:"title,omitempty"`
	Steps    []StepInput        `json:"steps,omitempty"`
	Template *compiler.Template `json:"-"`
}

// Make builds a new active plan from in, with the given ID and creation
// time. prev is the session's current plan, or nil: when it is still
// active, superseded is a copy of it closed as cancelled with the note
// "superseded" (the store keeps only the new plan; the caller reports the
// old one). On error nothing is returned and the caller must store nothing.
func Make(prev *Plan, in MakeInput, id string, now time.Time) (p *Plan, superseded *Plan, err error) {
	title := strings.TrimSpace(in.Title)
	steps := in.Steps
	entry := ""
	skill := ""
	if in.Template != nil {
		if len(in.Steps) > 0 {
			return nil, nil, errorf(CodeInvalid, "give either steps or a skill, not both")
		}
		if title == "" {
			title = strings.TrimSpace(in.Template.Title)
		}
		if title == "" {
			title = in.Template.Skill
		}
		skill = in.Template.Skill
		entry = in.Template.Entry
		steps = make([]StepInput, len(in.Template.Steps))
		for i, s := range in.Template.Steps {
			steps[i] = StepInput{
				ID: s.ID, Goal: s.Goal, RecommendedTools: s.RecommendedTools,
				NextOnSuccess: s.NextOnSuccess, NextOnFailure: s.NextOnFailure,
				SuccessLabel: s.SuccessLabel, FailureLabel: s.FailureLabel, Detail: s.Detail,
			}
		}
	}
	if title == "" {
		return nil, nil, errorf(CodeInvalid, "the plan needs a title: a short sentence that names the task")
	}
	if n := utf8.RuneCountInString(title); n > MaxTitleLen {
		return nil, nil, errorf(CodeLimit, "the title is %d characters; at most %d are allowed", n, MaxTitleLen)
	}
	if len(steps) == 0 {
		return nil, nil, errorf(CodeInvalid, "the plan needs at least one step: give steps, each with a goal")
	}
	if len(steps) > MaxSteps {
		return nil, nil, errorf(CodeLimit, "the plan has %d steps; at most %d are allowed: split the work or keep the steps coarser", len(steps), MaxSteps)
	}

	out := &Plan{
		ID:        id,
		Title:     title,
		Status:    StatusActive,
		Skill:     skill,
		Steps:     make([]Step, len(steps)),
		CreatedAt: now,
		UpdatedAt: now,
	}
	index := make(map[string]int, len(steps))
	for i, in := range steps {
		sid := strings.TrimSpace(in.ID)
		if sid == "" {
			sid = strconv.Itoa(i + 1)
		}
		if err := checkID(sid, i); err != nil {
			return nil, nil, err
		}
		if j, dup := index[sid]; dup {
			return nil, nil, errorf(CodeDuplicate, "steps %d and %d both have the ID %q: step IDs must be unique", j+1, i+1, sid)
		}
		index[sid] = i
		goal := collapseSpace(in.Goal)
		if goal == "" {
			return nil, nil, errorf(CodeInvalid, "step %q has no goal: give each step a short sentence saying what it achieves", sid)
		}
		if n := utf8.RuneCountInString(goal); n > MaxGoalLen {
			return nil, nil, errorf(CodeLimit, "the goal of step %q is %d characters; at most %d are allowed: keep it to one sentence and put the rest in detail", sid, n, MaxGoalLen)
		}
		tools, err := checkTools(sid, in.RecommendedTools)
		if err != nil {
			return nil, nil, err
		}
		if n := utf8.RuneCountInString(in.Detail); n > MaxDetailLen {
			return nil, nil, errorf(CodeLimit, "the detail of step %q is %d characters; at most %d are allowed", sid, n, MaxDetailLen)
		}
		out.Steps[i] = Step{
			ID: sid, Goal: goal, RecommendedTools: tools, Status: StepPending,
			NextOnSuccess: strings.TrimSpace(in.NextOnSuccess),
			NextOnFailure: strings.TrimSpace(in.NextOnFailure),
			SuccessLabel:  strings.TrimSpace(in.SuccessLabel),
			FailureLabel:  strings.TrimSpace(in.FailureLabel),
			Detail:        strings.TrimSpace(in.Detail),
		}
	}
	// Edges are resolved once every ID is known: a step may point forward.
	for i := range out.Steps {
		s := &out.Steps[i]
		def := compiler.End
		if i+1 < len(out.Steps) {
			def = out.Steps[i+1].ID
		}
		var err error
		if s.NextOnSuccess, err = resolveTarget(out, index, s.ID, "next_on_success", s.NextOnSuccess, def); err != nil {
			return nil, nil, err
		}
		if s.NextOnFailure, err = resolveTarget(out, index, s.ID, "next_on_failure", s.NextOnFailure, compiler.Fail); err != nil {
			return nil, nil, err
		}
	}
	if entry == "" {
		entry = out.Steps[0].ID
	}
	if _, ok := index[entry]; !ok {
		return nil, nil, errorf(CodeUnknownStep, "the entry %q names no step; valid IDs: %s", entry, validIDs(out))
	}
	out.Entry = entry
	if err := checkCycles(out); err != nil {
		return nil, nil, err
	}
	out.Steps[index[entry]].Status = StepInProgress

	if prev != nil && prev.Status == StatusActive {
		superseded = prev.Clone()
		superseded.Status = StatusCancelled
		superseded.Note = "superseded"
		superseded.UpdatedAt = now
	}
	return out, superseded, nil
}

// checkID applies the ID rule of FORMAT.md §3 and 6.2: 1-64 characters of
// A-Za-z0-9_.- (version 2 numbers steps 2.1), and never a terminal name
// in any case.
func checkID(id string, pos int) error {
	if strings.EqualFold(id, compiler.End) || strings.EqualFold(id, compiler.Fail) {
		return errorf(CodeInvalid, "step %d has the ID %q, which is reserved for the terminal %q: pick another ID", pos+1, id, strings.ToLower(id))
	}
	if len(id) > MaxIDLen {
		return errorf(CodeInvalid, "step %d has an ID of %d characters; at most %d are allowed", pos+1, len(id), MaxIDLen)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return errorf(CodeInvalid, "step %d has the ID %q: an ID is letters, digits, '_', '-' and '.' only", pos+1, id)
		}
	}
	return nil
}

// checkTools validates tool names as MCP and function-calling APIs accept
// them and drops duplicates, keeping written order.
func checkTools(sid string, tools []string) ([]string, error) {
	out := make([]string, 0, len(tools))
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		t = strings.TrimSpace(t)
		if seen[t] {
			continue
		}
		if t == "" || len(t) > MaxToolLen || strings.IndexFunc(t, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-')
		}) >= 0 {
			return nil, errorf(CodeInvalid, "step %q recommends the tool %q: a tool name is 1-%d characters of letters, digits, '_', '.' and '-'", sid, t, MaxToolLen)
		}
		seen[t] = true
		out = append(out, t)
	}
	if len(out) > MaxTools {
		return nil, errorf(CodeLimit, "step %q recommends %d tools; at most %d are allowed: keep the few the step needs", sid, len(out), MaxTools)
	}
	return out, nil
}

// resolveTarget normalises an edge: empty takes def, the terminals match in
// any case, and "#id" is accepted as in skills.
func resolveTarget(p *Plan, index map[string]int, sid, field, target, def string) (string, error) {
	if target == "" {
		return def, nil
	}
	if strings.EqualFold(target, compiler.End) {
		return compiler.End, nil
	}
	if strings.EqualFold(target, compiler.Fail) {
		return compiler.Fail, nil
	}
	t := strings.TrimPrefix(target, "#")
	if _, ok := index[t]; ok {
		return t, nil
	}
	return "", errorf(CodeUnknownStep, "step %q: %s %q names no step; valid targets: %s, end, fail", sid, field, target, validIDs(p))
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

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkCycles rejects loops: a plan must always move forward.
func checkCycles(p *Plan) error {
	cycles := findCycles(p)
	if len(cycles) == 0 {
		return nil
	}
	c := cycles[0]
	loop := strings.Join(append(append([]string(nil), c...), c[0]), " -> ")
	msg := fmt.Sprintf("steps %s form a loop; a plan must always move forward: send the retry to a new step or to fail", loop)
	if len(c) == 1 {
		msg = fmt.Sprintf("step %s leads back to itself (%s); a plan must always move forward: send the retry to a new step or to fail", c[0], loop)
	}
	return errorf(CodeCycle, "%s", msg)
}
