package lint

import (
	"fmt"

	"github.com/skillc/skillc/compiler"
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
	// Source says where the finding comes from: "compiler", "graph",
	// "lint" or "driver". Compiler and graph rules forward what those
	// packages report; they are listed so they carry docs and can be
	// re-severitied or disabled like any other.
	Source string
	// Run reports the rule's findings on one skill.
	Run func(p *Pass)
}

// Pass is what a rule sees of one skill, and where it reports.
type Pass struct {
	Skill  *compiler.Skill
	Config *Config
	// Upstream holds the compiler's and the graph's diagnostics, which the
	// forwarding rules pass on.
	Upstream compiler.Diagnostics

	rule  *Rule
	lines *compiler.Lines
	out   *compiler.Diagnostics
}

// Report records a finding of the running rule. Rule and Severity are
// filled in by the pass: a rule never decides its own effective severity.
func (p *Pass) Report(d compiler.Diagnostic) {
	d.Rule = p.rule.ID
	if d.Range.Filename == "" {
		d.Range.Filename = p.Skill.Filename
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
		p.lines = compiler.NewLines(p.Skill.Filename, p.Skill.Source)
	}
	return p.lines
}

// forward returns the Run func of a rule whose findings come from the
// compiler or the graph analyses.
func forward(id string) func(p *Pass) {
	return func(p *Pass) {
		for _, d := range p.Upstream {
			if d.Rule == id {
				p.Report(d)
			}
		}
	}
}
