package lint

import (
	"github.com/skillc/skillc/compiler"
)

// fixAddsError reports whether changing the skill's source to fixed would
// bring an error the source does not have. A rule offers a fix only when it
// does not: a suggestion that turns a warning into an error (a frontmatter
// whose name is not valid) makes things worse. Both texts are linted under
// the pass's config, whose rules the fix must satisfy too; the lint of
// fixed never checks fixes itself, so the check never recurses.
func (p *Pass) fixAddsError(fixed []byte) bool {
	if p.Config == nil || p.Config.checkingFix {
		return false
	}
	cfg := *p.Config
	cfg.checkingFix = true
	// The source is in memory already, within whatever limit read it.
	opts := Options{Config: &cfg, MaxSize: -1, Strict: p.Skill.Strict}
	before := errorsByRule(lintFixed(p.Skill.Filename, p.Skill.Source, opts))
	for rule, n := range errorsByRule(lintFixed(p.Skill.Filename, fixed, opts)) {
		if n > before[rule] {
			return true
		}
	}
	return false
}

// errorsByRule counts the errors of each rule: positions move when a fix
// adds lines, so errors are compared by rule, not by place.
func errorsByRule(diags compiler.Diagnostics) map[string]int {
	out := map[string]int{}
	for _, d := range diags {
		if d.Severity == compiler.SeverityError {
			out[d.Rule]++
		}
	}
	return out
}

// lintFixed is LintSource, set in init: a rule that calls LintSource
// directly would make the registry (Rules) depend on itself at
// initialisation.
var lintFixed func(filename string, src []byte, opts Options) compiler.Diagnostics

func init() { lintFixed = LintSource }
