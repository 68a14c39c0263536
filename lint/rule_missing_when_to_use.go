package lint

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// RuleMissingWhenToUse flags a skill that never says when to use it.
//
// The heuristic, documented in docs/lint.md: a skill says when to use it
// if any of these holds.
//   - Its description contains a condition word: when, whenever, if,
//     before, after, once, or a phrase "use (it|this) for/to".
//   - Its body (outside code blocks and HTML comments) has a heading that
//     mentions "when" or "use case(s)" or "trigger(s)".
//   - Its body has a sentence like "Use this when...", "Use it if...",
//     "Use for...", "To <do something>, use this skill.", or one that
//     opens with "When/Whenever/If the user...".
//
// It is info, not a warning: the check reads English with a heuristic, so
// it must never fail a build on its own; an author can confirm it in a
// second and silence it with a suppression.
var RuleMissingWhenToUse = &Rule{
	ID:       "missing-when-to-use",
	Severity: compiler.SeverityInfo,
	Source:   "lint",
	Summary:  "the skill does not say when to use it",
	Doc: `An agent picks a skill by reading its description, so the description (or
at least the body) should say when the skill applies, not only what it does.
The check is a heuristic: the description has a condition word (when,
whenever, if, before, after, once, "use for", "use it to"), or the body has a
heading about when to use it ("When to use", "Use cases", "Triggers"), or a
sentence such as "Use this when ...", "To style slides, use this skill." or
"When the user asks ...". It is info because a heuristic should not fail a
build.

Bad:
    description: Checks ACAT transfers.

Good:
    description: Checks ACAT transfers. Use when the user asks whether a transfer was credited.`,
	Run: runMissingWhenToUse,
}

// The rule's regexps are compiled on first use, as are the other packages'
// own: package-level state is built in every process, and most commands
// (version, plan, serve) lint nothing.
var (
	whenInDescription = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(when|whenever|if|before|after|once)\b|\buse[sd]?\s+(it\s+|this\s+|this skill\s+)?(for|to)\b`)
	})
	whenHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s{0,3}#{1,6}\s.*\b(when|use cases?|triggers?)\b`)
	})
	// A sentence says when to use the skill if whenSentence or
	// toSentence matches it. They are two regexps, not one with three
	// alternatives, so that each runs only on a line its shortcut
	// (mayBeWhenSentence, mayBeToSentence) lets through: toSentence's
	// bounded gap is 160 states of the regexp's machine at every byte
	// after a "to".
	whenSentence = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(use|invoke|apply|load)\s+(it|this|this skill|the skill|me)?\s*(when|whenever|if|for)\b|(^|[.!?:]\s+|\*\*)(when|whenever|if)\s+(the\s+|a\s+|an\s+)?(user|you|customer|someone|agent|asked)\b`)
	})
	toSentence = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^|[.!?]\s+)to\s+[^.!?]{1,160},\s*use\s+(it|this|this skill|the skill)\b`)
	})
)

func runMissingWhenToUse(p *Pass) {
	s := p.Skill
	if s.Frontmatter != nil && s.Frontmatter.Document {
		return // a docs site's page, not a skill: its description is the site's
	}
	if hasConditionWord(s.Description) || whenInDescription().MatchString(s.Description) {
		return
	}
	if s.Frontmatter != nil && strings.TrimSpace(s.Description) == "" {
		return // no description at all is missing-description's finding
	}
	if len(bytes.TrimSpace(s.Source)) == 0 {
		return // an empty file is no-steps' finding
	}
	if fm := s.Frontmatter; fm != nil && (fm.Malformed || fm.Description.Invalid) {
		return // the description could not be read
	}
	src := s.Source
	for _, sp := range proseSpans(src, bodyStart(p), len(src)) {
		line := src[sp[0]:sp[1]]
		if saysWhenToUse(line) {
			return
		}
	}
	var r compiler.Range
	switch {
	case s.Frontmatter != nil:
		r = s.Frontmatter.Description.Range
	case !s.TitleRange.IsZero():
		r = s.TitleRange
	default:
		r = p.RangeOf(0, firstLineEnd(src))
	}
	suggestion := "end the description with \"Use when ...\""
	if s.Frontmatter == nil {
		suggestion = "add frontmatter whose description says \"Use when ...\", or a \"## When to use\" section"
	}
	p.Report(compiler.Diagnostic{
		Range:      r,
		Summary:    "the skill does not say when to use it",
		Detail:     "an agent chooses a skill by its description: say when it applies",
		Suggestion: suggestion,
	})
}

// hasConditionWord reports whether s has "when" or "if" as a whole word,
// in any ASCII case: a sure match of whenInDescription (its \b is ASCII
// too), found without running the regexp, which costs more than the rest
// of the rule. Most descriptions say "Use when"; the others still go to
// the regexp.
func hasConditionWord(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if i > 0 && isASCIIWordByte(s[i-1]) {
			continue
		}
		n := 0
		switch {
		case len(s)-i >= 4 && equalFoldASCII([]byte(s[i:i+4]), "when"):
			n = 4
		case equalFoldASCII([]byte(s[i:i+2]), "if"):
			n = 2
		default:
			continue
		}
		if i+n == len(s) || !isASCIIWordByte(s[i+n]) {
			return true
		}
	}
	return false
}

// saysWhenToUse reports whether a line of prose is a heading about when
// to use the skill or a sentence that says it: whenHeading, whenSentence
// or toSentence matches it. Each regexp runs only on a line its shortcut
// lets through.
func saysWhenToUse(line []byte) bool {
	return bytes.IndexByte(line, '#') >= 0 && whenHeading().Match(line) ||
		mayBeWhenSentence(line) && whenSentence().Match(line) ||
		mayBeToSentence(line) && toSentence().Match(line)
}

// mayBeWhenSentence is false for a line whenSentence cannot match, found
// without running it: each of its two forms starts a word (\b, or the
// start of the line, a punctuation mark, a space or "**" before it) with
// one of "use", "invoke", "apply", "load", "when" or "if", in any case. A
// line of ASCII without such a word start is most lines of a skill's
// steps, and running the regexp on every line was half of a lint run over
// skills that do not say when to use them. A line with any other byte may
// hold a fold of those letters (the regexp's (?i) lets "s" be "ſ" and "k"
// be the Kelvin sign), so it goes to the regexp.
func mayBeWhenSentence(line []byte) bool {
	for i, c := range line {
		if c >= utf8.RuneSelf {
			return true
		}
		if i > 0 && isASCIIWordByte(line[i-1]) {
			continue
		}
		rest := line[i:]
		switch c | 0x20 {
		case 'u':
			if len(rest) >= 3 && equalFoldASCII(rest, "use") {
				return true
			}
		case 'i':
			if len(rest) >= 2 && equalFoldASCII(rest, "if") || len(rest) >= 6 && equalFoldASCII(rest, "invoke") {
				return true
			}
		case 'a':
			if len(rest) >= 5 && equalFoldASCII(rest, "apply") {
				return true
			}
		case 'l':
			if len(rest) >= 4 && equalFoldASCII(rest, "load") {
				return true
			}
		case 'w':
			if len(rest) >= 4 && equalFoldASCII(rest, "when") {
				return true
			}
		}
	}
	return false
}

// mayBeToSentence is false for a line toSentence cannot match: it needs a
// comma, then white space or none, then "use" in any case. A line with a
// byte that is not ASCII goes to the regexp, as for mayBeWhenSentence.
func mayBeToSentence(line []byte) bool {
	for i, c := range line {
		if c >= utf8.RuneSelf {
			return true
		}
		if c != ',' {
			continue
		}
		rest := line[i+1:]
		for len(rest) > 0 && isRegexpSpace(rest[0]) {
			rest = rest[1:]
		}
		if len(rest) >= 3 && equalFoldASCII(rest, "use") {
			return true
		}
	}
	return false
}

// isRegexpSpace is regexp's \s: ASCII white space.
func isRegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isASCIIWordByte is regexp's \w.
func isASCIIWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
