package lint

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// Sources finds a file's bytes so a diagnostic can quote its line. It returns
// nil when the source is not at hand; the snippet is then left out.
type Sources func(filename string) []byte

// TextOptions tune WriteText.
type TextOptions struct {
	Color bool
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
//	file:line:col: severity: message [rule]
//	   |
//	12 | - many: 4
//	   |   ^~~~~~~
//	   = fix: no (many): 4
func WriteText(w io.Writer, diags compiler.Diagnostics, src Sources, opt TextOptions) error {
	var b bytes.Buffer
	for _, d := range diags {
		writeOne(&b, d, src, opt)
	}
	_, err := w.Write(b.Bytes())
	return err
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

func writeOne(b *bytes.Buffer, d compiler.Diagnostic, src Sources, opt TextOptions) {
	c := opt.Color
	loc := d.Range.Filename
	if d.Range.Start.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", d.Range.Filename, d.Range.Start.Line, d.Range.Start.Column)
	}
	fmt.Fprintf(b, "%s: %s: %s %s\n",
		paint(c, ansiBold, loc),
		paint(c, severityColor(d.Severity), d.Severity.String()),
		d.Summary,
		paint(c, ansiGray, "["+d.Rule+"]"))

	var line []byte
	r := d.Range
	if src != nil && d.Range.Start.Line > 0 {
		line, r = clipLine(sourceLine(src(d.Range.Filename), d.Range.Start.Line), d.Range)
	}
	num := strconv.Itoa(d.Range.Start.Line)
	gutter := strings.Repeat(" ", len(num))
	if line != nil {
		fmt.Fprintf(b, "%s |\n", gutter)
		fmt.Fprintf(b, "%s | %s\n", paint(c, ansiGray, num), line)
		fmt.Fprintf(b, "%s | %s\n", gutter, paint(c, severityColor(d.Severity), caret(line, r)))
	}
	if d.Detail != "" {
		for _, l := range strings.Split(d.Detail, "\n") {
			fmt.Fprintf(b, "%s = %s\n", gutter, l)
		}
	}
	if d.Suggestion != "" {
		fmt.Fprintf(b, "%s = %s %s\n", gutter, paint(c, ansiGreen, "fix:"), d.Suggestion)
	}
}

// sourceLine returns line n (1-based) of src without its line ending, with
// control characters other than tab shown as U+FFFD so a terminal is not
// driven by the input.
func sourceLine(src []byte, n int) []byte {
	if src == nil {
		return nil
	}
	// Columns do not count a byte order mark, so the quoted line must not
	// show one either, or the caret lands a column off.
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return nil
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	src = bytes.TrimSuffix(src, []byte("\r"))
	out := make([]byte, 0, len(src))
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		if (r < 0x20 && r != '\t') || r == 0x7f || r == utf8.RuneError {
			r = utf8.RuneError
		}
		out = utf8.AppendRune(out, r)
		src = src[size:]
	}
	return out
}

// maxSnippet is the widest source line quoted, in code points: a long line
// (minified text, a 10 MB single line) is cut to a window around the
// range, marked with … at the cut ends.
const maxSnippet = 160

// clipLine cuts a long line to a window that starts a little before the
// range, and shifts the range to match.
func clipLine(line []byte, r compiler.Range) ([]byte, compiler.Range) {
	if line == nil || utf8.RuneCount(line) <= maxSnippet {
		return line, r
	}
	runes := []rune(string(line))
	start := max(0, min(r.Start.Column-1-40, len(runes)-maxSnippet))
	end := min(len(runes), start+maxSnippet)
	var out []rune
	shift := start
	if start > 0 {
		out = append(out, '…')
		shift--
	}
	out = append(out, runes[start:end]...)
	if end < len(runes) {
		out = append(out, '…')
	}
	clipped := r
	clipped.Start.Column -= shift
	if r.End.Line == r.Start.Line {
		clipped.End.Column = min(r.End.Column-shift, len(out)+1)
	}
	return []byte(string(out)), clipped
}

// caret draws ^~~~ under the range on its first line. The prefix copies the
// line's tabs so the caret lines up however the terminal expands them.
func caret(line []byte, r compiler.Range) string {
	var b strings.Builder
	col := 1
	for _, ch := range string(line) {
		if col >= r.Start.Column {
			break
		}
		if ch == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		col++
	}
	width := 1
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		width = r.End.Column - r.Start.Column
	} else if r.End.Line > r.Start.Line {
		width = utf8.RuneCount(line) - r.Start.Column + 1
	}
	if width < 1 {
		width = 1
	}
	b.WriteByte('^')
	b.WriteString(strings.Repeat("~", width-1))
	return b.String()
}
