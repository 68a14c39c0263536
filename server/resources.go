package server

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource URIs: skill://NAME is a workflow skill's markdown and
// skill://NAME/template.json its compiled plan template, the exact steps
// make_plan(skill: NAME) copies.
func skillURI(name string) string    { return "skill://" + name }
func templateURI(name string) string { return "skill://" + name + "/template.json" }

// addResources registers every catalog skill. The catalog is fixed at start,
// so plain resources (not a template) list exactly what exists.
func (s *Server) addResources() error {
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
