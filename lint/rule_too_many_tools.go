package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
)

// RuleTooManyTools flags a step that recommends more tools than the limit.
var RuleTooManyTools = &Rule{
	ID:       "too-many-tools",
	Severity: compiler.SeverityWarning,
	Source:   "lint",
	Summary:  "a step recommends more tools than the limit (default 5)",
	Doc: `A step is one thing to do; when it recommends many tools the agent has to
guess which one, and the step probably does several things. Split it, or keep
the tools it really needs. The limit is limits.max-tools in .skillc.yaml
(default 5).

Bad:
    2. Gather everything.
       - tools: search, fetch, list_orders, list_refunds, ask_user, send_email

Good:
    2. List the refunds.
       - tools: list_refunds
    3. Ask the user which one.
       - tools: ask_user`,
	Run: runTooManyTools,
}

func runTooManyTools(p *Pass) {
	limit := DefaultMaxTools
	if p.Config != nil && p.Config.MaxTools > 0 {
		limit = p.Config.MaxTools
	}
	for _, st := range p.Skill.Steps {
		if len(st.Tools) <= limit {
			continue
		}
		r := st.Tools[limit].Range
		if last := st.Tools[len(st.Tools)-1].Range; last.Start.Line == r.Start.Line {
			r.End = last.End
		}
		p.Report(compiler.Diagnostic{
			Range:   r,
			Summary: fmt.Sprintf("step %q recommends %d tools, more than the limit of %d", st.ID, len(st.Tools), limit),
			Detail:  "split the step, or raise limits.max-tools in .skillc.yaml",
		})
	}
}
