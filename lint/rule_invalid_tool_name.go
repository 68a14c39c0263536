package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// RuleInvalidToolName reports a tool name MCP would refuse: the names the
// compiler kept out of allowed-tools and of the steps' tools
// (Skill.InvalidTools), and graph.Check's, for a template's step, placed
// at the tool when the skill names it. An allowed-tools entry whose
// parentheses do not balance is the compiler's syntax finding, forwarded.
var RuleInvalidToolName = &Rule{
	ID:       "invalid-tool-name",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "a tool name is not 1-64 characters of A-Za-z0-9_.-",
	Doc: `Tool names are what MCP servers and function-calling APIs accept: 1-64
characters of letters, digits, _, . and -. In allowed-tools an entry may carry
a host's permission pattern in balanced parentheses, Bash(git:*) or
Read(./docs/**): the tool is the part before the parenthesis, and only it must
be a valid name (not under --strict, where allowed-tools is names separated by
spaces).

Bad:
    - tools: search/thread

Good:
    - tools: search_thread`,
	Fix:      "unsafe: the suggested slug written in the name's place (search/thread to search_thread).",
	Requires: []*Analysis{GraphAnalysis},
	Run:      runInvalidToolName,
}

func runInvalidToolName(p *Pass) {
	forward("invalid-tool-name")(p)
	for _, ref := range p.Skill.InvalidTools {
		if pr := graph.CheckToolName(ref.Name); pr != nil {
			d := compiler.Diagnostic{Summary: pr.Message, Range: ref.Range, Suggestion: pr.Suggestion}
			// Unsafe: the suggestion is a slug of the name, which drops
			// or swaps the characters a tool name may not have.
			if s := pr.Suggestion; s != "" && graph.CheckToolName(s) == nil && ref.Range.End.Byte-ref.Range.Start.Byte == len(ref.Name) {
				d.Fixes = []compiler.Fix{{Title: fmt.Sprintf("replace %q with %q", ref.Name, s), Edits: []compiler.Edit{{Range: ref.Range, NewText: s}}}}
			}
			p.Report(d)
		}
	}
	for _, pr := range p.problems("invalid-tool-name") {
		r := p.stepRange(pr.Index)
		for _, t := range p.Skill.Steps[pr.Index].Tools {
			if t.Name == pr.Tool {
				r = t.Range
				break
			}
		}
		p.reportProblem(pr, r)
	}
}
