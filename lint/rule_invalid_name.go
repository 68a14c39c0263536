package lint

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/diag"
)

// RuleInvalidName reports a frontmatter name that the Agent Skills
// specification (under --strict, FORMAT v1) does not allow.
var RuleInvalidName = &Rule{
	ID:       "invalid-name",
	Severity: compiler.SeverityError,
	Source:   "spec",
	Summary:  "the name is not 1-64 lowercase letters, digits and -",
	Doc: `A skill name is 1-64 characters of lowercase letters, digits and -, with no
leading or trailing - and no --, as the reference validator (skills-ref) reads
it: after NFKC normalisation, letters of any script count, so 技能-审查 and
мой-навык are names, and Refund_Check or НАВЫК are not. Under --strict
(FORMAT v1) only a-z, 0-9 and - count. Other names are rejected by Agent
Skills loaders.

Bad:
    name: Refund_Check

Good:
    name: refund-check`,
	Fix:      "a valid name written in its place: a SKILL.md's folder's name, else the name lowercased or made a slug (Refund_Check to refund-check). Safe when it is the name lowercased, else unsafe.",
	Requires: []*Analysis{NameAnalysis},
	Run:      runInvalidName,
}

// NameAnalysis reads the frontmatter's name as the specification does:
// its result is a *NameResult, or nil when there is no name to judge
// (missing-name's case, or a value invalid-frontmatter reported).
// invalid-name reports its Problem; name-mismatch compares a valid
// name with the folder.
var NameAnalysis = &Analysis{Name: "name", Run: analyzeName}

// NameResult is what NameAnalysis computes.
type NameResult struct {
	// Field is the frontmatter's name field.
	Field *compiler.Field
	// Name is the name as compared: under version 2 trimmed and NFKC
	// normalised, as skills-ref compares it; under --strict as written.
	Name string
	// Problem says what breaks the rule ("contains \"--\""), "" for a
	// valid name; Suggestion is a valid name to write instead, if any.
	Problem, Suggestion string
}

func analyzeName(p *Pass) any {
	fm := specFields(p.Skill)
	if fm == nil || !fm.Name.Set || fm.Name.Invalid || fm.Name.Value == "" {
		return (*NameResult)(nil)
	}
	res := &NameResult{Field: &fm.Name, Name: fm.Name.Value}
	// FORMAT v1: a-z, 0-9 and -. Version 2 follows the reference
	// validator, skills-ref: after trimming and NFKC normalisation,
	// lowercase letters of any script, digits and -, so 技能 and мой-навык
	// are names.
	v2 := !fm.Strict
	if v2 {
		res.Name = norm.NFKC.String(strings.TrimSpace(res.Name))
	}
	name := res.Name
	n := utf8.RuneCountInString(name)
	switch {
	case n > maxNameLen:
		res.Problem = fmt.Sprintf("is %d characters; the limit is %d", n, maxNameLen)
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		res.Problem = "starts or ends with \"-\""
	case strings.Contains(name, "--"):
		res.Problem = "contains \"--\""
	default:
		// ASCII is judged as v1 judges it in both versions, with v1's
		// words: the rules agree there. Version 2 adds the other scripts.
		for _, r := range name {
			switch {
			case r < utf8.RuneSelf || !v2:
				if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
					res.Problem = fmt.Sprintf("contains %q; use only a-z, 0-9 and -", r)
				}
			case unicode.ToLower(r) != r:
				res.Problem = fmt.Sprintf("contains the uppercase %q; names are lowercase", r)
				if lower := strings.ToLower(name); validName(lower) {
					res.Suggestion = lower
				}
			case !nameRune(r):
				res.Problem = fmt.Sprintf("contains %q; use only lowercase letters (of any script), digits and -", r)
			}
			if res.Problem != "" {
				break
			}
		}
	}
	if res.Problem != "" && res.Suggestion == "" {
		res.Suggestion = suggestName(name, "")
	}
	return res
}

func runInvalidName(p *Pass) {
	res := p.ResultOf(NameAnalysis).(*NameResult)
	if res == nil || res.Problem == "" {
		return
	}
	d := compiler.Diagnostic{
		Summary:    fmt.Sprintf("name %q %s", res.Field.Value, res.Problem),
		Range:      res.Field.Range,
		Suggestion: res.Suggestion,
	}
	// A SKILL.md must go by its folder's name, so that is the name to
	// write when it is valid; elsewhere the suggestion. Safe when it is
	// the name lowercased, the author's word with the case the rule
	// wants; a slug drops characters, a guess.
	name := res.Suggestion
	if folder := compiler.SkillFolder(p.Skill.Filename); folder != "" {
		if !p.Skill.Frontmatter.Strict {
			folder = norm.NFKC.String(folder)
		}
		name = folder
	}
	if fix, ok := p.nameFix(res, name, name == strings.ToLower(res.Name)); ok && p.fixWorks(d, fix) {
		d.Suggestion = name
		d.Fixes = []compiler.Fix{fix}
	}
	p.Report(d)
}

// nameRune is skills-ref's character rule, Python's str.isalnum or "-":
// a letter or a number of any script.
func nameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '-'
}

// validName reports whether an NFKC-normalised name passes version 2's
// rule.
func validName(name string) bool {
	n := utf8.RuneCountInString(name)
	if n == 0 || n > maxNameLen || strings.ToLower(name) != name ||
		strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") || strings.Contains(name, "--") {
		return false
	}
	for _, r := range name {
		if !nameRune(r) {
			return false
		}
	}
	return true
}

// suggestName turns s into a valid skill name, or returns "" when that
// gives nothing or gives back avoid.
func suggestName(s, avoid string) string {
	out := diag.Slug(strings.ToLower(s), func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }, maxNameLen)
	if out == avoid {
		return ""
	}
	return out
}
