package lint

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

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
var suppressRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--\s*skillc-disable(-file)?\b([^>]*?)-->`) })

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
	return s.file.has(d.Rule) || s.byLine[int(d.Range.Start.Line)].has(d.Rule)
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
		stepAt[st.Line()] = st
	}
	next := nextContentLines(src, li)
	out := &suppressions{byLine: map[int]*ruleSet{}}
	// Stacked comments share a scope: merge them first, so each scope's
	// lines are visited once.
	scopes := map[[2]int]*ruleSet{}
	for _, sp := range htmlSpans(sk) {
		text := src[sp[0]:sp[1]]
		for _, m := range suppressRe().FindAllSubmatchIndex(text, -1) {
			set := ruleSet{rules: map[string]bool{}}
			list := string(text[m[4]:m[5]])
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
						File:     sk.Filename,
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
			// The scope starts after the line the comment ends on.
			from := next[li.Pos(sp[0]+m[1]-1).Line]
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

// htmlSpans returns the spans of src, as offsets, where markdown reads
// HTML: HTML blocks and inline raw HTML, outside the frontmatter. Only
// there is a suppression comment a comment; the same text in a code span
// or a code block is an example of one, shown to the reader, and
// suppresses nothing. The body is parsed as the compiler parses it
// (goldmark, CommonMark), and only for a file that mentions skillc-disable.
// A body the compiler would not parse (it nests too deep: the skill is
// Unread) is scanned line by line outside fenced code blocks instead.
func htmlSpans(sk *compiler.Skill) [][2]int {
	src := sk.Source
	if sk.Unread {
		return codeFreeLines(src)
	}
	bodyOff := 0
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		bodyOff = len("\uFEFF")
	}
	if fm := sk.Frontmatter; fm != nil && fm.Range.End.Byte > bodyOff && fm.Range.End.Byte <= len(src) {
		bodyOff = fm.Range.End.Byte
	}
	body := src[bodyOff:]
	doc := suppressParser().Parse(text.NewReader(body))
	var out [][2]int
	add := func(segs *text.Segments) {
		if segs.Len() == 0 {
			return
		}
		start, stop := segs.At(0).Start, segs.At(segs.Len()-1).Stop
		if 0 <= start && start < stop && stop <= len(body) {
			out = append(out, [2]int{bodyOff + start, bodyOff + stop})
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.HTMLBlock:
			lines := *v.Lines()
			if v.HasClosure() {
				lines.Append(v.ClosureLine)
			}
			add(&lines)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			add(v.Segments)
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// suppressParser is the parser htmlSpans reads a body with: goldmark's
// CommonMark parser, as the compiler's, safe for concurrent use.
// Built on first use, like the compiler's.
var suppressParser = sync.OnceValue(func() parser.Parser { return goldmark.New().Parser() })

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
