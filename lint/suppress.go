package lint

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// Suppressions are written as HTML comments, which renderers hide:
//
//	<!-- skillc-disable RULE[, RULE...] -->       the next line, or the whole
//	                                              step that starts there
//	<!-- skillc-disable-file RULE[, RULE...] -->  the whole file, from anywhere
//
// RULE is a rule ID or "all". The scope of skillc-disable is the next
// non-blank line that is not itself a suppression comment; when a step
// starts on that line, the scope grows to the whole step, so a comment above
// "3. Clarify?" silences its goal, its annotations and its detail alike.
// Inside an ordered list, indent the comment under the previous item (a
// comment at column 1 ends the list in CommonMark).
var suppressRe = regexp.MustCompile(`<!--\s*skillc-disable(-file)?\b([^>]*?)-->`)

// suppressions is a file's suppression comments, indexed so that
// checking a finding is a map lookup: the cost of a file stays linear
// however many comments and findings it has.
type suppressions struct {
	file   ruleSet
	byLine map[int]*ruleSet
}

type ruleSet struct {
	all   bool
	rules map[string]bool
}

func (rs *ruleSet) add(other ruleSet) {
	rs.all = rs.all || other.all
	for r := range other.rules {
		if rs.rules == nil {
			rs.rules = map[string]bool{}
		}
		rs.rules[r] = true
	}
}

func (rs *ruleSet) has(rule string) bool { return rs != nil && (rs.all || rs.rules[rule]) }

func (s *suppressions) covers(d compiler.Diagnostic) bool {
	if s == nil {
		return false
	}
	return s.file.has(d.Rule) || s.byLine[d.Range.Start.Line].has(d.Rule)
}

// parseSuppressions reads the suppression comments of a skill. It reports
// unknown rule IDs through report.
func parseSuppressions(sk *compiler.Skill, li *compiler.Lines, report func(compiler.Diagnostic)) *suppressions {
	src := sk.Source
	if !bytes.Contains(src, []byte("skillc-disable")) {
		return nil
	}
	stepAt := make(map[int]*compiler.Step, len(sk.Steps))
	for _, st := range sk.Steps {
		stepAt[st.Range.Start.Line] = st
	}
	next := nextContentLines(src, li)
	out := &suppressions{byLine: map[int]*ruleSet{}}
	// Stacked comments share a scope: merge them first, so each scope's
	// lines are visited once.
	scopes := map[[2]int]*ruleSet{}
	for _, sp := range codeFreeLines(src) {
		line := src[sp[0]:sp[1]]
		for _, m := range suppressRe.FindAllSubmatchIndex(line, -1) {
			set := ruleSet{rules: map[string]bool{}}
			list := string(line[m[4]:m[5]])
			off := sp[0] + m[4]
			for _, f := range fieldsWithOffsets(list) {
				id := f.text
				switch {
				case id == "all":
					set.all = true
				case Lookup(id) != nil:
					set.rules[id] = true
				default:
					d := compiler.Diagnostic{
						Severity: compiler.SeverityError,
						Rule:     RuleUnknownRule.ID,
						Summary:  "unknown rule " + quote(id) + " in a suppression comment",
						Range:    li.Range(off+f.off, off+f.off+len(id)),
					}
					if sug := Suggest(id); sug != "" {
						d.Suggestion = sug
					} else {
						d.Detail = "skillc rules lists the rule IDs"
					}
					report(d)
				}
			}
			if len(set.rules) == 0 && !set.all {
				continue
			}
			if m[2] >= 0 { // skillc-disable-file
				out.file.add(set)
				continue
			}
			from := next[li.Pos(sp[0]).Line]
			to := from
			if st := stepAt[from]; st != nil {
				to = max(from, lastLine(st.Range))
			}
			key := [2]int{from, to}
			if scopes[key] == nil {
				scopes[key] = &ruleSet{}
			}
			scopes[key].add(set)
		}
	}
	for key, set := range scopes {
		for l := key[0]; l <= key[1]; l++ {
			if out.byLine[l] == nil {
				out.byLine[l] = &ruleSet{}
			}
			out.byLine[l].add(*set)
		}
	}
	return out
}

func quote(s string) string { return strconv.Quote(s) }

type field struct {
	text string
	off  int
}

// fieldsWithOffsets splits a rule list on spaces and commas.
func fieldsWithOffsets(s string) []field {
	var out []field
	start := -1
	for i := 0; i <= len(s); i++ {
		sep := i == len(s) || s[i] == ' ' || s[i] == ',' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'
		if sep && start >= 0 {
			out = append(out, field{s[start:i], start})
			start = -1
		} else if !sep && start < 0 {
			start = i
		}
	}
	return out
}

// nextContentLines maps each line n to the first line after it that is
// neither blank nor only a suppression comment, computed backwards in one
// pass.
func nextContentLines(src []byte, li *compiler.Lines) []int {
	n := li.Count()
	skip := make([]bool, n+2)
	for l := 1; l <= n; l++ {
		a, b := li.Bounds(l)
		t := bytes.TrimSpace(src[a:b])
		skip[l] = len(t) == 0 || bytes.HasPrefix(t, []byte("<!--")) && bytes.Contains(t, []byte("skillc-disable")) && bytes.HasSuffix(t, []byte("-->"))
	}
	next := make([]int, n+2)
	next[n], next[n+1] = n+1, n+1
	for l := n - 1; l >= 0; l-- {
		if !skip[l+1] {
			next[l] = l + 1
		} else {
			next[l] = next[l+1]
		}
	}
	return next
}

// codeFreeLines returns the spans of lines outside fenced code blocks, so
// a skill that documents the comment syntax in a code block is not
// suppressed by its own example.
func codeFreeLines(src []byte) [][2]int {
	var out [][2]int
	var fence string
	off := 0
	for off <= len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		next := len(src) + 1
		if end < 0 {
			end = len(src)
		} else {
			end += off
			next = end + 1
		}
		t := strings.TrimLeft(string(src[off:end]), " \t>")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		default:
			out = append(out, [2]int{off, end})
		}
		off = next
	}
	return out
}
