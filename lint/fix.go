package lint

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/skillc/skillc/compiler"
)

// Fixes are exact edits a rule attaches to its finding (compiler.Fix). A
// fix is offered only after the skill was linted again with it applied
// (Pass.fixWorks): it must remove the finding it belongs to, add no
// finding of any rule or severity, and keep every step's ID and goal. A
// fix that fails any of that is dropped, never shown, so --fix, SARIF's
// fixes and an editor's code actions only ever see fixes that work.

// MaxFixPasses bounds how often FixSource lints and fixes a file again: a
// fix can make room for another (a frontmatter added, then its name
// fixed), and each pass removes at least one finding, but a file of many
// fixes must not keep a run busy.
const MaxFixPasses = 10

// maxFixChecks bounds the fixes checked per lint of one file, each a lint
// of its own, and maxFixCheckBytes the text those lints read together: a
// skill of a few KiB has all its fixes checked, one of hundreds of KiB
// only a few. The fixes past the bound are not offered in this lint;
// FixSource's next pass reaches them once the first are applied.
const (
	maxFixChecks     = 64
	maxFixCheckBytes = 4 << 20
)

// findingKey is what makes two findings the same when a fix is judged:
// the rule and the message, not the place, since a fix that adds a line
// moves every finding after it. A message that names a line ("the
// numbered list on line 54") is compared without the number, for the
// same reason.
type findingKey struct{ rule, summary string }

var lineNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bline [0-9]+`) })

func keyOf(rule, summary string) findingKey {
	if strings.Contains(summary, "line ") {
		summary = lineNumber().ReplaceAllString(summary, "line N")
	}
	return findingKey{rule, summary}
}

// fixCheck is what the fix checks of one pass share: the skill's findings
// as they are, linted once, and each fixed text's verdict.
type fixCheck struct {
	opts    Options
	base    map[findingKey]int
	checked int
	verdict map[string]bool
	// pending are the places, in the pass's findings, of those reported
	// with fixes: they are checked once every rule has run (offer).
	pending []int
}

// lint lints src as a fix check does: under the pass's options with a
// config that offers no fixes, so checking never recurses.
func (fc *fixCheck) lint(filename string, src []byte) (*compiler.Skill, compiler.Diagnostics) {
	return lintForFix(filename, src, fc.opts)
}

// lintForFix is lintSkill, set in init: Report checks fixes with it, and
// a rule that reached lintSkill directly would make the registry (Rules)
// depend on itself at initialisation.
var lintForFix func(filename string, src []byte, opts Options) (*compiler.Skill, compiler.Diagnostics)

func init() { lintForFix = lintSkill }

// newFixCheck is the fix checks of a pass linted with opts. Their own
// options are made when the first fix is checked (prepare): most skills
// have no finding with a fix.
func newFixCheck(opts Options) *fixCheck {
	return &fixCheck{opts: opts}
}

// prepare makes the options a fix check lints with, once.
func (fc *fixCheck) prepare() {
	if fc.verdict != nil {
		return
	}
	cfg := *DefaultConfig()
	if fc.opts.Config != nil {
		cfg = *fc.opts.Config
	}
	cfg.checkingFix = true
	fc.opts.Config = &cfg
	// The source is in memory already, within whatever limit read it.
	fc.opts.MaxSize = -1
	fc.verdict = map[string]bool{}
}

func countFindings(diags compiler.Diagnostics) map[findingKey]int {
	out := make(map[findingKey]int, len(diags))
	for _, d := range diags {
		out[keyOf(d.Rule, d.Summary)]++
	}
	return out
}

// fixWorks reports whether fix, applied to the pass's skill, removes d
// (a finding of the running rule), adds no finding and keeps the steps.
// Outside a pass that offers fixes (a fix check's own lint, Errors) it
// reports true without looking: nothing is offered there.
func (p *Pass) fixWorks(d compiler.Diagnostic, fix compiler.Fix) bool {
	if p.fixes == nil {
		return true
	}
	p.fixes.prepare()
	fixed, err := ApplyEdits(p.Skill.Source, fix.Edits)
	if err != nil {
		return false
	}
	rule := d.Rule // set once reported; a rule asking before that is the running one
	if rule == "" {
		rule = p.rule.ID
	}
	key := keyOf(rule, d.Summary)
	cacheKey := key.rule + "\x00" + key.summary + "\x00" + string(fixed)
	if v, ok := p.fixes.verdict[cacheKey]; ok {
		return v
	}
	if p.fixes.checked >= maxFixChecks || (p.fixes.checked+2)*len(fixed) > maxFixCheckBytes {
		return false // the base lint counts as one
	}
	p.fixes.checked++
	fc := p.fixes
	if fc.base == nil {
		_, diags := fc.lint(p.Skill.Filename, p.Skill.Source)
		fc.base = countFindings(diags)
	}
	sk, diags := fc.lint(p.Skill.Filename, fixed)
	after := countFindings(diags)
	ok := after[key] < fc.base[key] && sameSteps(p.Skill, sk)
	for k, n := range after {
		ok = ok && n <= fc.base[k]
	}
	fc.verdict[cacheKey] = ok
	return ok
}

// sameSteps reports whether two compilations have the same steps, ID for
// ID and goal for goal: a fix may rewrite edges and frontmatter, never
// lose, add or reword a step.
func sameSteps(a, b *compiler.Skill) bool {
	if len(a.Steps) != len(b.Steps) {
		return false
	}
	for i := range a.Steps {
		if a.Steps[i].ID != b.Steps[i].ID || a.Steps[i].Goal != b.Steps[i].Goal {
			return false
		}
	}
	return true
}

// offer keeps, of the fixes of the findings reported with some, those
// that work (Pass.fixWorks). found are the pass's findings; those kept
// says, with more, are the lint's result (the others are suppressed, so
// no fix of theirs is checked). The fixes are checked once every rule has
// run so that the findings they are weighed against can be the pass's
// own, instead of a lint of the text as it is, which a check during the
// pass (a rule that asks fixWorks itself) needs: a lint fewer for every
// file with a fix, a third of the fix checks of the real-world write-ups.
// The pass's findings stand for that lint when its compile read the whole
// file (whole; not so past --max-size, where the checks' lints, without a
// size limit, read more).
func (fc *fixCheck) offer(p *Pass, found compiler.Diagnostics, kept func(compiler.Diagnostic) bool, more compiler.Diagnostics, whole bool) {
	if len(fc.pending) == 0 {
		return
	}
	if fc.base == nil && whole {
		base := countFindings(more)
		for _, d := range found {
			if kept(d) {
				base[keyOf(d.Rule, d.Summary)]++
			}
		}
		fc.base = base
	}
	for _, i := range fc.pending {
		if kept(found[i]) {
			found[i].Fixes = p.workingFixes(found[i])
		}
	}
}

// workingFixes keeps the fixes of d that work (Pass.fixWorks): their edits
// are to the skill's file, d.File. Only offer asks, in a pass that offers
// fixes (Report drops them in one that does not).
func (p *Pass) workingFixes(d compiler.Diagnostic) []compiler.Fix {
	var out []compiler.Fix
	for _, f := range d.Fixes {
		if len(f.Edits) == 0 || !p.fixWorks(d, f) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// ApplyEdits returns src with edits applied, or an error when an edit
// falls outside src or two overlap (two edits that start at the same
// place count: their order would be a guess). src is not changed.
func ApplyEdits(src []byte, edits []compiler.Edit) ([]byte, error) {
	sorted := append([]compiler.Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Range.Start.Byte < sorted[j].Range.Start.Byte })
	out := make([]byte, 0, len(src))
	at := 0
	for i, e := range sorted {
		s, end := e.Range.Start.Byte, e.Range.End.Byte
		if s < 0 || end < s || end > len(src) {
			return nil, fmt.Errorf("edit at bytes %d-%d is outside the file (%d bytes)", s, end, len(src))
		}
		if i > 0 && (s < at || s == sorted[i-1].Range.Start.Byte) {
			return nil, fmt.Errorf("edits overlap at byte %d", s)
		}
		out = append(out, src[at:s]...)
		out = append(out, e.NewText...)
		at = end
	}
	return append(out, src[at:]...), nil
}

// FixResult is what FixSource did to one file.
type FixResult struct {
	// Source is the text with the fixes applied (the input when none was).
	Source []byte
	// Fixed counts the fixes applied; Diags are the findings of Source.
	Fixed int
	Diags compiler.Diagnostics
}

// FixSource applies the fixes of src's findings, the safe ones or with
// unsafe every one, pass after pass until none is left or MaxFixPasses
// is reached, and lints the result. Each finding gives its first fix that
// applies; fixes whose edits overlap one already taken wait for the next
// pass. Every fix was checked alone; when several are applied together
// and the result has a finding the text before did not, only the first is
// kept, so the whole never adds a finding either.
func FixSource(filename string, src []byte, opts Options, unsafe bool) FixResult {
	sk, diags := lintSkill(filename, src, opts)
	res := FixResult{Source: src, Diags: diags}
	for pass := 0; pass < MaxFixPasses; pass++ {
		var taken []compiler.Fix
		var edits []compiler.Edit
		for _, d := range res.Diags {
			for _, f := range d.Fixes {
				if !f.Safe && !unsafe {
					continue
				}
				if _, err := ApplyEdits(res.Source, append(append([]compiler.Edit(nil), edits...), f.Edits...)); err != nil {
					break // overlaps a fix taken: next pass
				}
				taken = append(taken, f)
				edits = append(edits, f.Edits...)
				break
			}
		}
		if len(taken) == 0 {
			break
		}
		fixed, err := ApplyEdits(res.Source, edits)
		if err != nil {
			break // cannot happen: every edit was tried together above
		}
		fixedSk, diags := lintSkill(filename, fixed, opts)
		n := len(taken)
		if n > 1 && (addsFinding(res.Diags, diags) || !sameSteps(sk, fixedSk)) {
			// Checked alone, each fix works; together these do not.
			if fixed, err = ApplyEdits(res.Source, taken[0].Edits); err != nil {
				break
			}
			fixedSk, diags = lintSkill(filename, fixed, opts)
			n = 1
		}
		sk = fixedSk
		res.Source, res.Diags, res.Fixed = fixed, diags, res.Fixed+n
	}
	return res
}

// lintSkill is LintSource, returning the compiled skill too.
func lintSkill(filename string, src []byte, opts Options) (*compiler.Skill, compiler.Diagnostics) {
	copts := opts.CompilerOptions()
	copts.NoDetails = true // only findings and steps' IDs and goals are read
	sk, compiled := compiler.Compile(filename, src, copts)
	if sk == nil {
		sk = &compiler.Skill{Filename: filename, Source: src}
	}
	if sk.Source == nil {
		sk.Source = src
	}
	return sk, Check(sk, compiled, opts)
}

// addsFinding reports whether after has a finding before does not.
func addsFinding(before, after compiler.Diagnostics) bool {
	b := countFindings(before)
	for k, n := range countFindings(after) {
		if n > b[k] {
			return true
		}
	}
	return false
}
