package server

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/plan"
)

// Resource URIs: skill://NAME is a workflow skill's markdown and
// skill://NAME/template.json its compiled plan template, the exact steps
// make_plan(skill: NAME) copies.
func skillURI(name string) string    { return "skill://" + name }
func templateURI(name string) string { return "skill://" + name + "/template.json" }

// CurrentPlanURI is the resource of the calling conversation's plan: its
// checklist, what view_plan returns as text. A host reads it to put the
// plan back into a context it compacted; the plan skill tells the model to
// read it when the plan was lost from its context.
const CurrentPlanURI = "plan://current"

// noPlanText is plan://current without a plan: a text, not an error, so a
// host that re-reads the resource after every compaction gets an answer it
// can show.
const noPlanText = "There is no plan in this conversation yet: make_plan starts one when the work has several steps."

// addResources registers plan://current and every catalog skill. The
// catalog is fixed at start, so plain resources (not a template) list
// exactly what exists.
func (s *Server) addResources() error {
	s.mcp.AddResource(&mcp.Resource{
		URI: CurrentPlanURI, Name: "current plan", Title: "This conversation's plan",
		Description: "The checklist of this conversation's latest plan, as view_plan shows it: read it when the plan was lost from the context (after compaction), or put it back into a compacted context.",
		MIMEType:    "text/plain",
	}, s.guardResource(s.readCurrentPlan))
	for _, name := range s.catalog.Names() {
		sk, _ := s.catalog.Lookup(name)
		tpl := sk.Template()
		desc := sk.Skill.Description
		if tpl == nil {
			desc += " (does not compile, so make_plan cannot seed from it: see its errors with skillc lint)"
		} else {
			desc += fmt.Sprintf(" Seed a plan from it with make_plan(skill: %q).", name)
		}
		// A file over the size limit was not read whole (its Source is
		// nil): a resource of part of it would mislead, so there is none,
		// and make_plan(skill) says why.
		if md := sk.Skill.Source; md != nil {
			s.mcp.AddResource(&mcp.Resource{
				URI: skillURI(name), Name: name, Title: sk.Skill.Title, Description: desc,
				MIMEType: "text/markdown", Size: int64(len(md)),
			}, s.guardResource(func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
					URI: req.Params.URI, MIMEType: "text/markdown", Text: string(md),
				}}}, nil
			}))
		}
		if tpl == nil {
			continue
		}
		js, err := templateJSON(tpl)
		if err != nil {
			return fmt.Errorf("skill %q: template: %w", name, err)
		}
		s.mcp.AddResource(&mcp.Resource{
			URI: templateURI(name), Name: name + "/template.json", Title: sk.Skill.Title + " (plan template)",
			Description: fmt.Sprintf("The compiled steps of skill %q: what make_plan(skill: %q) copies.", name, name),
			MIMEType:    "application/json", Size: int64(len(js)),
		}, s.guardResource(func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
				URI: req.Params.URI, MIMEType: "application/json", Text: string(js),
			}}}, nil
		}))
	}
	return nil
}

// readCurrentPlan answers plan://current for the caller: the same user and
// conversation as a tool call on the same connection would act on.
func (s *Server) readCurrentPlan(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	key, err := s.keyOf(req.Session, req.Extra)
	if err != nil {
		return nil, err
	}
	text := noPlanText
	r, err := s.planner.View(ctx, key)
	var pe *plan.Error
	switch {
	case err == nil:
		text = strings.TrimRight(r.Checklist, "\n")
	case errors.As(err, &pe) && pe.Code == plan.CodeNoPlan:
	case errors.Is(err, context.Canceled):
		return nil, err
	default:
		s.logger.Error("store failed", "err", err, "uri", CurrentPlanURI)
		return nil, fmt.Errorf("the plan store failed (%v); try again", err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: CurrentPlanURI, MIMEType: "text/plain", Text: text,
	}}}, nil
}

func (s *Server) guardResource(h mcp.ResourceHandler) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (res *mcp.ReadResourceResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("panic in resource handler", "uri", req.Params.URI, "panic", r, "stack", string(debug.Stack()))
				res, err = nil, fmt.Errorf("internal error reading %q; the server is still running", req.Params.URI)
			}
		}()
		return h(ctx, req)
	}
}
