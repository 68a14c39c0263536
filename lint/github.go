package lint

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// WriteGitHub prints findings as GitHub Actions workflow commands, which
// the runner turns into annotations on the pull request:
//
//	::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=RULE::message
//
// warning for warnings and notice for infos. endColumn is the last column
// (inclusive) and is given only when the range stays on one line, as the
// checks API requires.
func WriteGitHub(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics() {
		level := "notice"
		switch d.Severity {
		case compiler.SeverityError:
			level = "error"
		case compiler.SeverityWarning:
			level = "warning"
		}
		props := []string{"file=" + escapeProperty(filepath.ToSlash(d.File))}
		if start, end := startEnd(d.Range); start.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", start.Line), fmt.Sprintf("col=%d", start.Column))
			props = append(props, fmt.Sprintf("endLine=%d", lastLine(compiler.Range{Start: start, End: end})))
			if end.Line == start.Line {
				props = append(props, fmt.Sprintf("endColumn=%d", end.Column-1))
			}
		}
		props = append(props, "title="+escapeProperty(d.Rule))
		msg := d.Summary
		if d.Detail != "" {
			msg += "\n" + d.Detail
		}
		if d.Suggestion != "" {
			msg += "\nfix: " + d.Suggestion
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(msg))
	}
	return bw.Flush()
}

// escapeData escapes a workflow command's message as the runner expects
// (actions/toolkit, command.ts escapeData). A message may quote a line of a
// file that is not UTF-8 (the file then has an invalid-encoding finding);
// the runner reads UTF-8, so such bytes become U+FFFD, as in the JSON and
// SARIF reports.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(strings.ToValidUTF8(s, "\uFFFD"))
}

// escapeProperty escapes a property value (command.ts escapeProperty):
// also ':' and ',', which delimit properties.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(strings.ToValidUTF8(s, "\uFFFD"))
}
