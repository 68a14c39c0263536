package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// Rule is one check, in the shape of go/analysis's Analyzer: a value with a
// stable ID, its documentation and a Run func that reports through a Pass
// and never prints. The registry in rules.go lists every rule.
type Rule struct {
	// ID is the stable kebab-case name used in output, config and
	// suppressions.
	ID string
	// Severity is the default; config may change it or turn the rule off.
	Severity compiler.Severity
	// Summary is one line for `skillc rules` and SARIF shortDescription.
	Summary string
	// Doc is the longer explanation with a bad and a good example, printed
	// by `skillc explain`.
	Doc string
	// Fix says what the rule's fixes write and when one is safe (applied
	// by --fix) or unsafe (--unsafe-fixes); "" for a rule with none.
	Fix string
	// Source says where the finding comes from:
	//   - "compiler": the compiler's syntax findings, what it must report
	//     because it cannot read the text as written (not UTF-8, too large,
	//     nested too deep, two success edges). The rule owns no check: its
	//     Run is forward(ID), listed so the findings carry docs and can be
	//     re-severitied or disabled like any other.
	//   - "spec": the rule checks what the compiler read (the frontmatter's
	//     fields, with their ranges; the steps found) against the Agent
	//     Skills specification and FORMAT.md; its errors make a skill no
	//     valid template, so Errors runs it. It may also forward the
	//     compiler's syntax findings of its ID (invalid-frontmatter's YAML
	//     errors).
	//   - "graph": the rule reads graph.Check's problems (GraphAnalysis)
	//     and places them in the source, and reports the IDs and tool
	//     names the compiler refused by graph's rules (Skill.RefusedIDs,
	//     Skill.InvalidTools); Errors runs it too.
	//   - "lint": a style check of the rule's own; "driver": reported by
	//     the lint driver itself (no Run).
	Source string
	// Requires are the shared results the rule reads through
	// Pass.ResultOf, as go/analysis's Analyzer.Requires: each is computed
	// once per skill, and only when an enabled rule requires it.
	Requires []*Analysis
	// Run reports the rule's findings on one skill.
	Run func(p *Pass)
}

// Analysis is a result rules share instead of each computing it again,
// such as graph.Check's problems. It is not a rule: it reports nothing.
type Analysis struct {
	Name string
	Run  func(p *Pass) any
}

// GraphAnalysis is graph.Check of the skill's template, with the config's
// limits: its result is a *GraphResult. It checks the template's steps in
// place (compiler.Skill.TemplateSteps) by the code make_plan's graph.Check
// runs, without building the Template.
var GraphAnalysis = &Analysis{
	Name: "graph",
	Run: func(p *Pass) any {
		limits := graph.DefaultLimits()
		if p.Config != nil {
			limits = p.Config.Limits
		}
		// FORMAT v1 has no bounds: under --strict every loop is a cycle.
		limits.Strict = p.Skill.Strict
		sk := p.Skill
		return &GraphResult{Limits: limits.OrDefault(), Problems: graph.CheckSteps(sk.Title, sk.Entry, sk.TemplateSteps(), limits)}
	},
}

// GraphResult is what GraphAnalysis computes.
type GraphResult struct {
	Limits   graph.Limits
	Problems []graph.Problem
}

// ResultOf is the result of an analysis the running rule requires. Asking
// for one it does not require is a programming error, as in go/analysis:
// the registry would not know to compute it.
func (p *Pass) ResultOf(a *Analysis) any {
	required := false
	for _, r := range p.rule.Requires {
		required = required || r == a
	}
	if !required {
		panic(fmt.Sprintf("lint: rule %s reads analysis %s without requiring it", p.rule.ID, a.Name))
	}
	if v, ok := p.results[a]; ok {
		return v
	}
	if p.results == nil {
		p.results = make(map[*Analysis]any)
	}
	v := a.Run(p)
	p.results[a] = v
	return v
}

// problems are graph.Check's problems of one code, for the graph rules.
func (p *Pass) problems(code string) []graph.Problem {
	var out []graph.Problem
	for _, pr := range p.ResultOf(GraphAnalysis).(*GraphResult).Problems {
		if pr.Code == code {
			out = append(out, pr)
		}
	}
	return out
}

// reportProblem reports a graph problem at r.
func (p *Pass) reportProblem(pr graph.Problem, r compiler.Range) {
	p.Report(compiler.Diagnostic{Range: r, Summary: pr.Message, Detail: pr.Detail, Suggestion: pr.Suggestion})
}

// stepRange is where a finding about a step points: its ID as written,
// else its goal, else the whole step; the file's start for the template
// as a whole.
func (p *Pass) stepRange(i int) compiler.Range {
	if i < 0 || i >= len(p.Skill.Steps) {
		return p.RangeOf(0, 0)
	}
	st := p.Skill.Steps[i]
	r := st.IDRange
	if r.IsZero() {
		r = st.GoalRange
	}
	if r.IsZero() {
		r = st.Range
	}
	return r
}

// graphRule is the Run of a rule whose findings are graph.Check's problems
// of its ID, each at the step it is about.
func graphRule(code string) func(p *Pass) {
	return func(p *Pass) {
		for _, pr := range p.problems(code) {
			p.reportProblem(pr, p.stepRange(pr.Index))
		}
	}
}

// refusedIDs reports the {#id}s the compiler did not take
// (Skill.RefusedIDs) whose graph.CheckID problem is of code, where each
// is written.
func (p *Pass) refusedIDs(code string) {
	for _, id := range p.Skill.RefusedIDs {
		if pr := graph.CheckID(id.Name); pr != nil && pr.Code == code {
			p.reportProblem(*pr, id.Range)
		}
	}
}

// Pass is what a rule sees of one skill, and where it reports.
type Pass struct {
	Skill  *compiler.Skill
	Config *Config
	// Upstream holds the compiler's diagnostics, which the forwarding
	// rules pass on.
	Upstream compiler.Diagnostics

	rule    *Rule
	results map[*Analysis]any
	// fixes checks the fixes findings carry before they are offered
	// (Pass.fixWorks); nil where none is offered: under Errors, and in
	// the lint a fix check runs.
	fixes *fixCheck
	lines *compiler.Lines
	out   *compiler.Diagnostics
}

// Report records a finding of the running rule. Rule and Severity are
// filled in by the pass: a rule never decides its own effective severity.
func (p *Pass) Report(d compiler.Diagnostic) {
	d.Rule = p.rule.ID
	if d.File == "" {
		d.File = p.Skill.Filename
	}
	if len(d.Fixes) > 0 {
		if p.fixes == nil {
			d.Fixes = nil // none is offered here (see Pass.fixes)
		} else {
			// Checked once every rule has run (fixCheck.offer).
			p.fixes.pending = append(p.fixes.pending, len(*p.out))
		}
	}
	*p.out = append(*p.out, d)
}

// Reportf reports a finding at r with a formatted summary.
func (p *Pass) Reportf(r compiler.Range, suggestion, format string, args ...any) {
	p.Report(compiler.Diagnostic{Range: r, Summary: fmt.Sprintf(format, args...), Suggestion: suggestion})
}

// RangeOf converts byte offsets of the skill's source into a Range.
func (p *Pass) RangeOf(start, end int) compiler.Range {
	return p.Lines().Range(start, end)
}

// Lines is the skill's line index, built on first use.
func (p *Pass) Lines() *compiler.Lines {
	if p.lines == nil {
		p.lines = compiler.NewLines(p.Skill.Source)
	}
	return p.lines
}

// forward returns the Run func of a rule whose findings are the
// compiler's syntax findings of id: what the compiler reports because it
// cannot read the text as written. A check of what the text means belongs
// in its rule, never here.
func forward(id string) func(p *Pass) {
	return func(p *Pass) {
		for _, d := range p.Upstream {
			if d.Rule == id {
				p.Report(d)
			}
		}
	}
}
