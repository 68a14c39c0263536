package lint

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/termsafe"
)

// Sources finds a file's bytes so a diagnostic can quote its line. It returns
// nil when the source is not at hand; the snippet is then left out.
type Sources func(filename string) []byte

// TextOptions tune WriteText.
type TextOptions struct {
	Color bool
	// UnsafeFixes is --unsafe-fixes: a finding whose only fixes are
	// unsafe is marked fixable too.
	UnsafeFixes bool
}

// Fixable reports whether d has a fix that --fix applies (with
// unsafe, --unsafe-fixes).
func Fixable(d compiler.Diagnostic, unsafe bool) bool {
	for _, f := range d.Fixes {
		if f.Safe || unsafe {
			return true
		}
	}
	return false
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiGreen  = "\x1b[32m"
	ansiGray   = "\x1b[90m"
)

// WriteText prints diagnostics for a person, in the shape of actionlint:
//
//	file:line:col: severity: message [rule] [*]
//	   |
//	12 | - many: 4
//	   |   ^~~~~~~
//	   = fix: no (many): 4
//
// [*] marks a finding --fix can fix, as ruff marks one.
func WriteText(w io.Writer, diags compiler.Diagnostics, src Sources, opt TextOptions) error {
	var b bytes.Buffer
	q := &quoter{src: src, files: map[string]*quotedFile{}}
	for _, d := range diags {
		writeOne(&b, d, q, opt)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// quoter finds the lines diagnostics quote. Each file's lines are indexed
// once, with the compiler's line index, so quoting costs the same for the
// last finding of a large file as for the first: scanning from the top for
// each made text output grow with the square of the file.
type quoter struct {
	src   Sources
	files map[string]*quotedFile
}

type quotedFile struct {
	src   []byte
	lines *compiler.Lines
}

// line returns line n (1-based) of the file without its line ending, or
// nil when the source is not at hand or has no such line. Like the
// compiler's columns, it leaves out a leading byte order mark.
func (q *quoter) line(filename string, n int) []byte {
	if q.src == nil || n < 1 {
		return nil
	}
	f, ok := q.files[filename]
	if !ok {
		f = &quotedFile{src: q.src(filename)}
		if f.src != nil {
			f.lines = compiler.NewLines(f.src)
		}
		q.files[filename] = f
	}
	if f.lines == nil || n > f.lines.Count() {
		return nil
	}
	start, end := f.lines.Bounds(n)
	return f.src[start:end]
}

func paint(on bool, code, s string) string {
	if !on {
		return s
	}
	return code + s + ansiReset
}

func severityColor(s compiler.Severity) string {
	switch s {
	case compiler.SeverityError:
		return ansiRed
	case compiler.SeverityWarning:
		return ansiYellow
	}
	return ansiCyan
}

func writeOne(b *bytes.Buffer, d compiler.Diagnostic, q *quoter, opt TextOptions) {
	c := opt.Color
	// Every piece of text that came from input is escaped: a file name, a
	// message quoting a goal, the source line itself.
	loc := termsafe.Escape(d.File)
	if d.Range.Start.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", loc, d.Range.Start.Line, d.Range.Start.Column)
	}
	mark := ""
	if Fixable(d, opt.UnsafeFixes) {
		mark = " " + paint(c, ansiGreen, "[*]")
	}
	fmt.Fprintf(b, "%s: %s: %s %s%s\n",
		paint(c, ansiBold, loc),
		paint(c, severityColor(d.Severity), d.Severity.String()),
		termsafe.Escape(d.Summary),
		paint(c, ansiGray, "["+termsafe.Escape(d.Rule)+"]"), mark)

	num := strconv.Itoa(int(d.Range.Start.Line))
	gutter := strings.Repeat(" ", len(num))
	if d.Range.Start.Line > 0 {
		if line := q.line(d.File, int(d.Range.Start.Line)); line != nil {
			shown, under := snippet(line, d.Range)
			fmt.Fprintf(b, "%s |\n", gutter)
			fmt.Fprintf(b, "%s | %s\n", paint(c, ansiGray, num), shown)
			fmt.Fprintf(b, "%s | %s\n", gutter, paint(c, severityColor(d.Severity), under))
		}
	}
	if d.Detail != "" {
		for _, l := range strings.Split(termsafe.Escape(d.Detail), "\n") {
			fmt.Fprintf(b, "%s = %s\n", gutter, l)
		}
	}
	if d.Suggestion != "" {
		fmt.Fprintf(b, "%s = %s %s\n", gutter, paint(c, ansiGreen, "fix:"), termsafe.Escape(d.Suggestion))
	}
}

// maxSnippet is the widest source line quoted, in code points: a long line
// (minified text, a 10 MB single line) is cut to a window around the
// range, marked with … at the cut ends.
const maxSnippet = 160

// snippet returns the source line as shown, and the caret line under r.
//
// Columns count code points, an invalid byte as one, as the compiler's do.
// The line is cut to a window of maxSnippet code points that starts a
// little before the range. Each code point of the window is shown through
// termsafe.Escape, so a control character reads \x1b instead of driving
// the terminal; the caret line counts the width of each escape, so the
// caret stays under the range.
func snippet(line []byte, r compiler.Range) (shown, under string) {
	n := utf8.RuneCount(line)
	first, last := 0, n // the window, in code points
	startCol, endCol := int(r.Start.Column), int(r.End.Column)
	if n > maxSnippet {
		first = max(0, min(startCol-1-40, n-maxSnippet))
		last = first + maxSnippet
	}
	// chars are the window's code points as shown, one string each.
	chars := make([]string, 0, last-first)
	for i, off := 0, 0; i < last && off < len(line); i++ {
		_, size := utf8.DecodeRune(line[off:])
		if i >= first {
			chars = append(chars, termsafe.Escape(string(line[off:off+size])))
		}
		off += size
	}
	var sb strings.Builder
	if first > 0 {
		sb.WriteString("…")
	}
	for _, ch := range chars {
		sb.WriteString(ch)
	}
	if last < n {
		sb.WriteString("…")
	}

	// The range's columns as indexes into chars.
	from := startCol - 1 - first
	to := from + 1
	switch {
	case r.End.Line == r.Start.Line && endCol > startCol:
		to = endCol - 1 - first
	case r.End.Line > r.Start.Line:
		to = len(chars)
	}
	var ub strings.Builder
	if first > 0 {
		ub.WriteByte(' ') // under the …
	}
	for i := 0; i < from; i++ {
		switch {
		case i >= len(chars):
			ub.WriteByte(' ') // a column past the end of the line
		case chars[i] == "\t":
			// Copied, so the caret lines up however the terminal
			// expands tabs.
			ub.WriteByte('\t')
		default:
			ub.WriteString(strings.Repeat(" ", utf8.RuneCountInString(chars[i])))
		}
	}
	width := 0
	for i := max(from, 0); i < min(to, len(chars)); i++ {
		width += utf8.RuneCountInString(chars[i])
	}
	if to > len(chars) && last < n {
		width++ // the range goes on past the window: under the …
	}
	width = max(width, 1)
	ub.WriteByte('^')
	ub.WriteString(strings.Repeat("~", width-1))
	return sb.String(), ub.String()
}
