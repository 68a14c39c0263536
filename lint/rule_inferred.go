package lint

import "github.com/skillc/skillc/compiler"

// RuleInferred reports each reading of FORMAT version 2: a step, goal or
// tools value that v1 would have read otherwise, with the words it read
// (FORMAT 6: every inference is visible).
var RuleInferred = &Rule{
	ID:       "inferred",
	Severity: compiler.SeverityInfo,
	Source:   "lint",
	Summary:  "skillc inferred a step, goal or tools value the way a reader would (FORMAT version 2)",
	Doc: `Real write-ups head steps "### Phase 2 — Reproduce", lead items with a bold
phrase, split their lists with code blocks and write tools as prose. skillc
reads them as a careful reader does, and says so here, quoting what it read,
so nothing is guessed silently. Write the v1 form to make the reading
explicit, or set infer: false in .skillc.yaml (or pass --strict) to read v1
only.

Bad (inferred: the goal is the bold lead):
    1. **Check the ledger.** Then compare it with the statement.

Good (v1: the goal is the first paragraph):
    1. Check the ledger.

       Then compare it with the statement.`,
	Run: runInferred,
}

func runInferred(p *Pass) {
	for i := range p.Skill.Steps {
		st := p.Skill.Steps[i]
		for _, inf := range st.Inferences() {
			d := compiler.Diagnostic{
				Range:      inf.Range,
				Summary:    inf.Summary,
				Detail:     "read from: " + quoteShort(inf.Quote),
				Suggestion: inf.Fix,
			}
			// An edge read from the write-up's shape: the unsafe fix
			// writes its annotation, as prose-branch's does for prose.
			p.annotate(&d, st)
			p.Report(d)
		}
	}
}

// quoteShort quotes s for a message, shortened.
func quoteShort(s string) string {
	r := []rune(s)
	if len(r) > 100 {
		return "\"" + string(r[:100]) + "…\""
	}
	return "\"" + s + "\""
}
