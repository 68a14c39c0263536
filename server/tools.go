package server

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/tools"
)

// MakePlanArgs is make_plan's input.
type MakePlanArgs struct {
	Title     string       `json:"title,omitempty" jsonschema:"the plan's title, at most 200 characters, e.g. Refund a duplicate charge. Required with steps; with skill it replaces the skill's title"`
	Objective string       `json:"objective,omitempty" jsonschema:"one line on what the plan is for, at most 500 characters, e.g. Refund the customer's second charge for order 1182. Shown under the title"`
	Steps     []graph.Step `json:"steps,omitempty" jsonschema:"the steps in order, at most 100 (three to eight is typical). Give steps or skill, not both"`
	Skill     string       `json:"skill,omitempty" jsonschema:"the name of a workflow skill to copy the steps from instead of writing them (the server's resources list them, e.g. acat-reimbursement)"`
}

// ViewPlanArgs is view_plan's input: the conversation is implied.
type ViewPlanArgs struct {
	History bool `json:"history,omitempty" jsonschema:"true to get the plan's history (every change: when, which tool, the step lists, the statuses and position it left) in the structured result; the text stays the checklist"`
}

// UpdatePlanArgs is update_plan's input.
type UpdatePlanArgs struct {
	Check   []string `json:"check,omitempty" jsonschema:"IDs of steps that succeeded: they become done and the plan moves along their success edge"`
	Uncheck []string `json:"uncheck,omitempty" jsonschema:"IDs of steps to reopen: they go back to pending"`
	Fail    []string `json:"fail,omitempty" jsonschema:"IDs of steps that failed: they become failed and the plan moves along their failure edge"`
	Skip    []string `json:"skip,omitempty" jsonschema:"IDs of steps that do not apply: they become skipped and the plan moves along their success edge"`
}

// ClosePlanArgs is close_plan's input.
type ClosePlanArgs struct {
	Note    string   `json:"note" jsonschema:"one line for the user on how it ended, at most 2000 characters, e.g. Transfer credited on 3 May."`
	Status  string   `json:"status,omitempty" jsonschema:"completed, failed or cancelled. Leave it out to derive it from the path: completed if it reached end, failed if it reached fail, else cancelled"`
	Check   []string `json:"check,omitempty" jsonschema:"IDs of steps that succeeded, recorded before closing (e.g. the last step)"`
	Uncheck []string `json:"uncheck,omitempty" jsonschema:"IDs of steps to reopen before closing"`
	Fail    []string `json:"fail,omitempty" jsonschema:"IDs of steps that failed, recorded before closing"`
	Skip    []string `json:"skip,omitempty" jsonschema:"IDs of steps that did not apply, recorded before closing"`
}

// PlanOutput is the plan as structured content: the plan package's JSON
// shape, with descriptions so the output schema documents it.
type PlanOutput struct {
	ID         string         `json:"id" jsonschema:"the plan's ID"`
	Title      string         `json:"title" jsonschema:"the plan's title"`
	Objective  string         `json:"objective,omitempty" jsonschema:"one line on what the plan is for"`
	Status     string         `json:"status" jsonschema:"active, completed, failed or cancelled"`
	Entry      string         `json:"entry" jsonschema:"the ID of the first step"`
	Skill      string         `json:"skill,omitempty" jsonschema:"the workflow skill the plan was seeded from, if any"`
	Steps      []StepOutput   `json:"steps" jsonschema:"the steps in order"`
	Note       string         `json:"note,omitempty" jsonschema:"the closing note"`
	CreatedAt  time.Time      `json:"created_at" jsonschema:"when make_plan made it"`
	UpdatedAt  time.Time      `json:"updated_at" jsonschema:"when it last changed"`
	ExpiresAt  time.Time      `json:"expires_at" jsonschema:"when the store forgets it unless it changes again"`
	Version    int64          `json:"version" jsonschema:"grows by one on every change"`
	Rounds     map[string]int `json:"rounds,omitempty" jsonschema:"how many rounds each loop has gone so far, by edge: 4:failure is step 4's failure edge"`
	Superseded *Superseded    `json:"superseded,omitempty" jsonschema:"the active plan this make_plan closed as cancelled, if any"`
	History    []plan.Event   `json:"history,omitempty" jsonschema:"the plan's changes, oldest first (the last 1000): only from view_plan with history true"`
}

// StepOutput is one step of PlanOutput: the plan's step, graph.Step with
// its status.
type StepOutput = plan.Step

// Superseded names a plan that make_plan cancelled.
type Superseded struct {
	ID    string `json:"id" jsonschema:"the cancelled plan's ID"`
	Title string `json:"title" jsonschema:"the cancelled plan's title"`
}

// Tool descriptions tell a model when to call each tool and how to batch,
// after the plan skill (skills/plan), which is also the server's
// instructions.
const (
	makePlanDesc = `Start the plan for this conversation: a short checklist of steps, each with a goal, the tools it needs, and where to go on success and on failure. Use it when the work has several dependent steps or many tool calls; not for a single lookup.

Give either title and steps, or skill: the name of a workflow skill (listed as skill:// resources) whose steps fit the request; prefer a skill when one fits. The first step becomes in progress. A plan already active in this conversation is cancelled ("superseded").

Call make_plan in the same turn as the first step's tool calls, not alone. Returns the checklist and what comes next.`

	viewPlanDesc = `Show this conversation's plan as a checklist, with what comes next. Every other plan tool already returns the checklist: call view_plan only when you have lost track of it. With history true, the structured result also lists every change made to the plan.`

	updatePlanDesc = `Record what happened to one or more steps, by ID: check (succeeded), fail (failed), skip (does not apply), uncheck (reopen). Name several steps in one call when several finished. The plan then moves along each step's success or failure edge and returns the checklist with the next step and its tools.

Send update_plan in the same turn as the next step's tool calls, not alone. For the last step, call close_plan with the step in check or fail instead. A call naming an unknown step, naming a step twice, or on a closed plan changes nothing.`

	closePlanDesc = `End this conversation's plan with a one-line note for the user, recording the last steps' outcomes (check, fail, skip, uncheck, as in update_plan) in the same call. Call it when the last step's work has returned, or when the path reached fail. Leave status out to derive it: completed if the path reached end, failed if it reached fail, else cancelled.`
)

func (s *Server) addTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: "make_plan", Title: "Make a plan", Description: makePlanDesc,
		InputSchema: inputSchema[MakePlanArgs](func(sc *jsonschema.Schema) {
			// One step shape for templates and input: in make_plan every
			// field but goal may be left out (its default), and the line
			// and provenance are the compiler's, not the model's.
			items := sc.Properties["steps"].Items
			items.Required = []string{"goal"}
			for _, f := range []string{"line", "goal_from", "success_from", "failure_from"} {
				delete(items.Properties, f)
			}
		}), OutputSchema: outputSchema(),
	}, guard(s, "make_plan", s.makePlan))
	addPlanTool(s, &mcp.Tool{
		Name: "view_plan", Title: "View the plan", Description: viewPlanDesc,
		InputSchema: inputSchema[ViewPlanArgs](nil), OutputSchema: outputSchema(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, guard(s, "view_plan", s.viewPlan))
	addPlanTool(s, &mcp.Tool{
		Name: "update_plan", Title: "Update the plan", Description: updatePlanDesc,
		InputSchema: inputSchema[UpdatePlanArgs](nil), OutputSchema: outputSchema(),
	}, guard(s, "update_plan", s.updatePlan))
	addPlanTool(s, &mcp.Tool{
		Name: "close_plan", Title: "Close the plan", Description: closePlanDesc,
		InputSchema: inputSchema[ClosePlanArgs](func(sc *jsonschema.Schema) {
			sc.Properties["status"].Enum = []any{"completed", "failed", "cancelled"}
		}), OutputSchema: outputSchema(),
	}, guard(s, "close_plan", s.closePlan))
}

// addPlanTool registers view_plan, update_plan or close_plan, the tools
// called on every step, without the SDK's generic schema validation, which
// was a quarter of the server's CPU per call: args decodes the arguments,
// refusing what the input schema refuses; and the structured result is the
// PlanOutput h built, typed, so it matches the output schema by
// construction (the tests validate every tool's output against it), and is
// encoded once, with the response. make_plan, called once per plan with nested steps, keeps
// the SDK's path.
func addPlanTool[In any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, PlanOutput]) {
	a := newArgs[In](t.Name, t.InputSchema.(*jsonschema.Schema))
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := a.decode(req.Params.Arguments, &in); err != nil {
			return toolError(fmt.Errorf("validating \"arguments\": %w", err)), nil
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			return toolError(err), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		// Encoded with the response, once: a json.RawMessage here would be
		// re-scanned (compacted) when the response is.
		res.StructuredContent = out
		return res, nil
	})
}

// toolError is a tool result that reports err, as the SDK's typed handlers
// report a handler's error.
func toolError(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// inputSchema infers T's schema and lets edit refine what struct tags
// cannot say (enums). A failure is a programming error in this file.
func inputSchema[T any](edit func(*jsonschema.Schema)) *jsonschema.Schema {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	plainArrays(sc)
	if edit != nil {
		edit(sc)
	}
	return sc
}

// plainArrays turns the inferred `"type": ["null", "array"]` of Go slices
// into `"type": "array"`: leaving a list out is how a caller says "none",
// and some model APIs refuse union types in tool schemas.
func plainArrays(sc *jsonschema.Schema) {
	if sc == nil {
		return
	}
	if len(sc.Types) == 2 && sc.Types[0] == "null" && sc.Types[1] == "array" {
		sc.Types, sc.Type = nil, "array"
	}
	for _, p := range sc.Properties {
		plainArrays(p)
	}
	plainArrays(sc.Items)
}

func outputSchema() *jsonschema.Schema {
	return inputSchema[PlanOutput](func(sc *jsonschema.Schema) {
		sc.Properties["status"].Enum = []any{"active", "completed", "failed", "cancelled"}
		sc.Properties["steps"].Items.Properties["status"].Enum = []any{"pending", "in_progress", "done", "failed", "skipped"}
	})
}

// guard turns a panic in a handler into a tool error, so one bad request
// never takes the server (and every other conversation on it) down, and
// counts the call in the server's metrics.
func guard[In, Out any](s *Server, name string, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		ctx, done := s.metrics.begin(ctx, name) // metrics.go
		defer func() { done(&out, err) }()
		defer func() {
			if r := recover(); r != nil {
				serverFault(ctx)
				s.logger.Error("panic in tool handler", "tool", name, "panic", r, "stack", string(debug.Stack()))
				var zero Out
				res, out = nil, zero
				err = fmt.Errorf("internal error in %s (%v); the server is still running: call view_plan to see whether the change was recorded", name, r)
			}
		}()
		return h(ctx, req, in)
	}
}

func (s *Server) makePlan(ctx context.Context, req *mcp.CallToolRequest, in MakePlanArgs) (*mcp.CallToolResult, PlanOutput, error) {
	key, err := s.key(req)
	if err != nil {
		return nil, PlanOutput{}, err
	}
	mi := plan.MakeInput{Title: in.Title, Objective: in.Objective}
	switch {
	case in.Skill != "" && len(in.Steps) > 0:
		return nil, PlanOutput{}, errors.New("give either steps or skill, not both")
	case in.Skill != "":
		t, err := s.catalog.seedTemplate(in.Skill)
		if err != nil {
			return nil, PlanOutput{}, err
		}
		mi.Template = t
	case len(in.Steps) == 0:
		return nil, PlanOutput{}, errors.New("a plan needs steps: give title and steps (a list of {goal, recommended_tools, next_on_success, next_on_failure}), or skill with a workflow skill's name")
	default:
		mi.Steps = in.Steps
	}
	r, err := s.planner.Make(ctx, key, mi)
	return s.result(r, err)
}

func (s *Server) viewPlan(ctx context.Context, req *mcp.CallToolRequest, in ViewPlanArgs) (*mcp.CallToolResult, PlanOutput, error) {
	key, err := s.key(req)
	if err != nil {
		return nil, PlanOutput{}, err
	}
	if in.History {
		r, err := s.planner.History(ctx, key)
		return s.result(r, err)
	}
	r, err := s.planner.View(ctx, key)
	return s.result(r, err)
}

func (s *Server) updatePlan(ctx context.Context, req *mcp.CallToolRequest, in UpdatePlanArgs) (*mcp.CallToolResult, PlanOutput, error) {
	key, err := s.key(req)
	if err != nil {
		return nil, PlanOutput{}, err
	}
	r, err := s.planner.Update(ctx, key, plan.Changes{Check: in.Check, Uncheck: in.Uncheck, Fail: in.Fail, Skip: in.Skip})
	return s.result(r, err)
}

func (s *Server) closePlan(ctx context.Context, req *mcp.CallToolRequest, in ClosePlanArgs) (*mcp.CallToolResult, PlanOutput, error) {
	key, err := s.key(req)
	if err != nil {
		return nil, PlanOutput{}, err
	}
	ch := plan.Changes{Check: in.Check, Uncheck: in.Uncheck, Fail: in.Fail, Skip: in.Skip}
	r, err := s.planner.Close(ctx, key, in.Note, plan.Status(in.Status), ch)
	return s.result(r, err)
}

// result turns a planner result into the tool result: the checklist as text,
// the plan as structured content. A refused operation (*plan.Error) is
// returned as is, since its message already says what to do; anything else
// (the store failing) is said to be the server's fault, not the model's.
func (s *Server) result(r *tools.Result, err error) (*mcp.CallToolResult, PlanOutput, error) {
	if err != nil {
		var pe *plan.Error
		if errors.As(err, &pe) || errors.Is(err, context.Canceled) {
			return nil, PlanOutput{}, err
		}
		s.logger.Error("store failed", "err", err)
		return nil, PlanOutput{}, fmt.Errorf("the plan store failed (%v); nothing was changed, try again", err)
	}
	text := strings.TrimRight(r.Text(), "\n")
	out := toOutput(r.Plan)
	if r.Superseded != nil {
		out.Superseded = &Superseded{ID: r.Superseded.ID, Title: r.Superseded.Title}
	}
	out.History = r.History
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

func toOutput(p *plan.Plan) PlanOutput {
	out := PlanOutput{
		ID: p.ID, Title: p.Title, Objective: p.Objective, Status: string(p.Status), Entry: p.Entry, Skill: p.Skill,
		Steps: make([]StepOutput, len(p.Steps)), Note: p.Note,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, ExpiresAt: p.ExpiresAt, Version: p.Version,
		Rounds: p.Rounds,
	}
	for i, st := range p.Steps {
		if st.RecommendedTools == nil {
			st.RecommendedTools = []string{} // the schema says array; null would fail validation
		}
		out.Steps[i] = st
	}
	return out
}
