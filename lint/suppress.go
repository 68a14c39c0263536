package lint

import (
	"bytes"
	"regexp"
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

type suppression struct {
	file     bool
	all      bool
	rules    map[string]bool
	from, to int // line scope, inclusive
}

func (s suppression) covers(d compiler.Diagnostic) bool {
	if !s.all && !s.rules[d.Rule] {
		return false
	}
	return s.file || d.Range.Start.Line >= s.from && d.Range.Start.Line <= s.to
}

// parseSuppressions reads the suppression comments of a skill. It reports
// unknown rule IDs through report.
func parseSuppressions(sk *compiler.Skill, li *lineIndex, report func(compiler.Diagnostic)) []suppression {
	src := sk.Source
	if !bytes.Contains(src, []byte("skillc-disable")) {
		return nil
	}
	var out []suppression
	for _, sp := range codeFreeLines(src) {
		line := src[sp[0]:sp[1]]
		for _, m := range suppressRe.FindAllSubmatchIndex(line, -1) {
			s := suppression{file: m[2] >= 0, rules: map[string]bool{}}
			list := string(line[m[4]:m[5]])
			off := sp[0] + m[4]
			for _, f := range fieldsWithOffsets(list) {
				id := f.text
				switch {
				case id == "all":
					s.all = true
				case Lookup(id) != nil:
					s.rules[id] = true
				default:
					d := compiler.Diagnostic{
						Severity: compiler.SeverityError,
						Rule:     RuleUnknownRule.ID,
						Summary:  "unknown rule " + quote(id) + " in a suppression comment",
						Range:    compiler.Range{Filename: sk.Filename, Start: li.pos(off + f.off), End: li.pos(off + f.off + len(id))},
					}
					if sug := Suggest(id); sug != "" {
						d.Suggestion = sug
					} else {
						d.Detail = "skillc rules lists the rule IDs"
					}
					report(d)
				}
			}
			if len(s.rules) == 0 && !s.all {
				continue
			}
			if !s.file {
				here := li.pos(sp[0]).Line
				s.from = nextContentLine(li, here)
				s.to = s.from
				for _, st := range sk.Steps {
					if st.Range.Start.Line == s.from {
						s.to = lastLine(st.Range)
					}
				}
			}
			out = append(out, s)
		}
	}
	return out
}

func quote(s string) string { return sprintf("%q", s) }

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

// nextContentLine is the first line after n that is neither blank nor only
// a suppression comment.
func nextContentLine(li *lineIndex, n int) int {
	for l := n + 1; l <= li.lines(); l++ {
		a, b := li.lineRange(l)
		t := strings.TrimSpace(string(li.src[a:b]))
		if t == "" || strings.HasPrefix(t, "<!--") && strings.Contains(t, "skillc-disable") && strings.HasSuffix(t, "-->") {
			continue
		}
		return l
	}
	return n + 1
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
