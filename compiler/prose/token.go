package prose

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is what a token is to the clause reader: a word, or one of the
// three kinds of punctuation that bound what it reads.
type tokKind uint8

const (
	tWord  tokKind = iota
	tComma         // , ; : ( ) and dashes: end a clause
	tArrow         // → -> => and table pipes: the clause before is a condition
	tStop          // . ! ? before a space: end a sentence
	tBlock         // a line break that starts a new block: ends a sentence and its paragraph
)

// token is one word or mark. text is lowercased, with ’ folded to ', so the
// grammar compares against plain ASCII; start and end index the text read,
// so a target keeps the case it was written in (IDs are case-sensitive).
type token struct {
	kind       tokKind
	text       string
	start, end int
}

// tokenize splits text into tokens in one pass over its bytes. Markdown
// emphasis, code spans, brackets and quotes are not tokens: "**If tests
// pass:** continue to [Step 2](#step-2)" reads as "if tests pass : continue
// to step 2 ( #step-2 )". It appends to out so a caller can reuse a buffer.
func tokenize(text string, out []token) []token {
	if out == nil {
		// Sized for prose, some 5 bytes a token, up to a cap: grown from
		// nil, the 17 tokens of a one-line step took six allocations and
		// 2.5 KB (AfterRemedies of every skill's last step, 2% of lint's
		// bytes on 2,000 skills). A long text grows from the cap.
		out = make([]token, 0, min(len(text)/4+1, 64))
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isWordStart(text, i):
			j := wordEnd(text, i)
			out = append(out, token{tWord, fold(text[i:j]), i, j})
			i = j
			continue
		case (c == '.' || c == '!' || c == '?') && endsSentence(text, i+1):
			out = appendMark(out, tStop, i, i+1)
		case c == ',' || c == ';' || c == ':' || c == '(' || c == ')':
			out = appendMark(out, tComma, i, i+1)
		case c == '|':
			out = appendMark(out, tArrow, i, i+1)
		case (c == '-' || c == '=') && i+1 < len(text) && text[i+1] == '>':
			out = appendMark(out, tArrow, i, i+2)
			i += 2
			continue
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			out = appendMark(out, tComma, i, i+2)
			i += 2
			continue
		case c == '-' && i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') && i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '\t'):
			out = appendMark(out, tComma, i, i+1) // " - " is a dash
		case c == '\n':
			if blockBreak(text, i+1) {
				out = appendMark(out, tBlock, i, i+1)
			}
		case c == '"':
			i = skipQuote(text, i+1, "\"")
			continue
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == '“' {
				i = skipQuote(text, i+n, "”")
				continue
			}
			switch r {
			case '→', '⇒', '➔', '➜':
				out = appendMark(out, tArrow, i, i+n)
			case '—', '–':
				out = appendMark(out, tComma, i, i+n)
			case '…':
				out = appendMark(out, tStop, i, i+n)
			}
			i += n
			continue
		}
		i++
	}
	return out
}

// skipQuote returns the offset after the closing quote of a quotation that
// opened before i, when it closes within the paragraph: quoted words are
// an example or a command ("retry CI", "check, repeat"), not the author's
// instruction. An unclosed quote is not a quotation: reading goes on at i.
// A quotation is looked for within 300 bytes, so the scan stays linear.
func skipQuote(text string, i int, closer string) int {
	for j := i; j < len(text) && j < i+300; j++ {
		if text[j] == '\n' && blockBreak(text, j+1) {
			break
		}
		if strings.HasPrefix(text[j:], closer) {
			return j + len(closer)
		}
	}
	return i
}

// appendMark adds a punctuation token; marks in a row collapse into the
// strongest of them, so ".**," or ", —" is one boundary.
func appendMark(out []token, k tokKind, start, end int) []token {
	if n := len(out); n > 0 && out[n-1].kind != tWord {
		if k > out[n-1].kind {
			out[n-1].kind = k
		}
		out[n-1].end = end
		return out
	}
	return append(out, token{kind: k, start: start, end: end})
}

// endsSentence reports whether a . ! or ? before byte i ends a sentence:
// it is followed by white space, the end, or markup that closes around it
// ("stop.**", "(step 4.)"); "!=", "?q=" and "e.g" do not end one.
func endsSentence(text string, i int) bool {
	for ; i < len(text); i++ {
		switch text[i] {
		case ' ', '\t', '\n', '\r':
			return true
		case '*', '_', ')', '"', '\'', '`', ']', '.', '!', '?':
			continue
		}
		return false
	}
	return true
}

// blockBreak reports whether the line starting at i begins a new block: a
// blank line, a list item, a table row, a heading or a quote. A line break
// inside a paragraph does not end a sentence. It looks only at the line's
// first few bytes, so tokenizing stays linear.
func blockBreak(text string, i int) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i >= len(text) {
		return true
	}
	switch c := text[i]; c {
	case '\n', '\r', '|', '#', '>':
		return true
	case '-', '*', '+':
		return i+1 >= len(text) || text[i+1] == ' ' || text[i+1] == '\t'
	}
	j := i
	for j < len(text) && j-i < 9 && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	return j > i && j < len(text) && (text[j] == '.' || text[j] == ')')
}

func isWordStart(text string, i int) bool {
	c := text[i]
	if isAlnumASCII(c) {
		return true
	}
	if c == '#' { // "#present": a v1 ID reference
		return i+1 < len(text) && isAlnumASCII(text[i+1]) && (i == 0 || !isAlnumASCII(text[i-1]) && text[i-1] != '#')
	}
	if c >= utf8.RuneSelf {
		r, _ := utf8.DecodeRuneInString(text[i:])
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

// wordEnd returns the end of the word starting at i. Inside a word, ' ’ -
// _ and . join letters and digits ("don't", "re-run", "2.1", "1b"), so a
// step number with a dot stays one word and a final "." ends the sentence.
func wordEnd(text string, i int) int {
	j := i + 1
	for j < len(text) {
		c := text[j]
		if isAlnumASCII(c) {
			j++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(text[j:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				j += n
				continue
			}
			if r == '’' && j+n < len(text) && isAlnumASCII(text[j+n]) {
				j += n
				continue
			}
			break
		}
		if (c == '\'' || c == '-' || c == '_' || c == '.') && j+1 < len(text) && isAlnumASCII(text[j+1]) {
			j += 2
			continue
		}
		break
	}
	return j
}

func isAlnumASCII(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// fold lowercases a word and writes ’ as ', allocating only when needed.
func fold(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf {
			return strings.ReplaceAll(strings.ToLower(w), "’", "'")
		}
	}
	return w
}

// mayAct reports whether text may hold a word that opens an action
// (opensAction); when it does not, Read finds nothing in it. It looks at
// bytes only: in ASCII text every word token is a maximal run of ASCII
// letters and digits (a word starts after a byte that is neither and ends
// before one), lowercased, so a run that is no opener is no opener's
// token. Text with any other byte goes to the reader, because lowercasing
// can make ASCII of it ("\u212a" is "k").
//
// It runs on every step's prose, and most words open nothing, so it is
// built for speed: one table look-up a byte, and a word is lowercased and
// looked up only when an opener starts with its first letter and has its
// length (openerLens).
func mayAct(text string) bool {
	for i := 0; i < len(text); {
		switch byteClass[text[i]] {
		case byteOther:
			i++
			continue
		case byteNonASCII:
			return true
		}
		j := i + 1
		for j < len(text) && byteClass[text[j]] == byteWord {
			j++
		}
		if openerLens[text[i]]>>(j-i)&1 != 0 && opensAction(lowerASCII(text[i:j])) {
			return true
		}
		i = j
	}
	return false
}

// Byte classes for mayAct: an ASCII letter or digit, a byte of a non-ASCII
// character, or any other byte.
const (
	byteOther uint8 = iota
	byteWord
	byteNonASCII
)

var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = byteNonASCII
		case isAlnumASCII(byte(c)):
			t[c] = byteWord
		}
	}
	return t
}()

// openerLens[c] has bit n set when an opener of n bytes starts with c, in
// either case.
var openerLens = func() (t [256]uint16) {
	for _, w := range openers {
		t[w[0]] |= 1 << len(w)
		t[w[0]-'a'+'A'] |= 1 << len(w)
	}
	return t
}()

// lowerASCII lowercases an ASCII word, copying it only when it has a
// capital.
func lowerASCII(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] >= 'A' && w[i] <= 'Z' {
			b := []byte(w)
			for k, c := range b {
				if c >= 'A' && c <= 'Z' {
					b[k] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return w
}

// hasArrow reports whether text holds an arrow, after which a step may be
// named by its title alone ("**Exists** → DELTA SCAN").
func hasArrow(text string) bool {
	return strings.Contains(text, "->") || strings.Contains(text, "→") || strings.Contains(text, "=>") ||
		strings.Contains(text, "⇒") || strings.Contains(text, "➔") || strings.Contains(text, "➜")
}
