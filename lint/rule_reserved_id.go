package lint

import "github.com/skillc/skillc/compiler"

// RuleReservedId reports a step ID that is a terminal's: an {#id} the
// compiler did not take (Skill.RefusedIDs), and graph.Check's, for a template's step.
var RuleReservedId = &Rule{
	ID:       "reserved-id",
	Severity: compiler.SeverityError,
	Source:   "graph",
	Summary:  "a step ID is end or fail",
	Doc: `end and fail are the two terminals of every graph, in any case; a step cannot
take either name.

Bad:
    3. Wrap up. {#end}

Good:
    3. Wrap up. {#wrap-up}`,
	Requires: []*Analysis{GraphAnalysis},
	Run:      runReservedID,
}

func runReservedID(p *Pass) {
	p.refusedIDs("reserved-id")
	graphRule("reserved-id")(p)
}
