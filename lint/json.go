package lint

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/skillc/skillc/compiler"
)

// JSONVersion is the version of the --format json shape. It changes only
// when a field is removed or changes meaning; new fields may be added.
const JSONVersion = 1

// JSONReport is the --format json document, documented in docs/lint.md.
type JSONReport struct {
	Version     int              `json:"version"`
	Files       int              `json:"files"`
	Errors      int              `json:"errors"`
	Warnings    int              `json:"warnings"`
	Infos       int              `json:"infos"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
}

// JSONDiagnostic is one finding. Lines and columns are 1-based, columns
// count Unicode code points, end_line/end_column are exclusive as in the
// compiler's ranges. A finding about a whole file (an unreadable one) has
// line 0.
type JSONDiagnostic struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	EndLine    int    `json:"end_line"`
	EndColumn  int    `json:"end_column"`
	Severity   string `json:"severity"`
	Rule       string `json:"rule"`
	Message    string `json:"message"`
	Detail     string `json:"detail,omitempty"`
	Suggestion string `json:"suggestion,omitempty"`
	// Fixes are the checked fixes of the finding, best first (docs/lint.md,
	// Fixes).
	Fixes []JSONFix `json:"fixes,omitempty"`
}

// JSONFix is one fix: edits to apply together. Safe fixes are what
// --fix applies; the others need --unsafe-fixes.
type JSONFix struct {
	Title string     `json:"title"`
	Safe  bool       `json:"safe"`
	Edits []JSONEdit `json:"edits"`
}

// JSONEdit replaces the text from line:column to end_line:end_column
// (exclusive; byte and end_byte are the same place as 0-based byte
// offsets) with new_text; an empty span inserts.
type JSONEdit struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Byte      int    `json:"byte"`
	EndByte   int    `json:"end_byte"`
	NewText   string `json:"new_text"`
}

func jsonFixes(fixes []compiler.Fix) []JSONFix {
	var out []JSONFix
	for _, f := range fixes {
		jf := JSONFix{Title: f.Title, Safe: f.Safe, Edits: []JSONEdit{}}
		for _, e := range f.Edits {
			s, end := e.Range.Start, e.Range.End
			jf.Edits = append(jf.Edits, JSONEdit{Line: int(s.Line), Column: int(s.Column), EndLine: int(end.Line), EndColumn: int(end.Column),
				Byte: s.Byte, EndByte: end.Byte, NewText: e.NewText})
		}
		out = append(out, jf)
	}
	return out
}

// WriteJSON prints the run as one JSON document.
func WriteJSON(w io.Writer, r *Result) error {
	rep := JSONReport{Version: JSONVersion, Files: len(r.Files), Diagnostics: []JSONDiagnostic{}}
	rep.Errors, rep.Warnings, rep.Infos = r.Count()
	for _, d := range r.Diagnostics() {
		start, end := startEnd(d.Range)
		rep.Diagnostics = append(rep.Diagnostics, JSONDiagnostic{
			File: filepath.ToSlash(d.File), Line: int(start.Line), Column: int(start.Column),
			EndLine: int(end.Line), EndColumn: int(end.Column),
			Severity: d.Severity.String(), Rule: d.Rule, Message: d.Summary,
			Detail: d.Detail, Suggestion: d.Suggestion, Fixes: jsonFixes(d.Fixes),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// startEnd returns a range's start and end, the end never before the
// start: a range with only a start point is one character wide.
func startEnd(r compiler.Range) (compiler.Pos, compiler.Pos) {
	s, e := r.Start, r.End
	if s.Line == 0 {
		return s, s
	}
	if e.Line < s.Line || e.Line == s.Line && e.Column <= s.Column {
		e = compiler.Pos{Line: s.Line, Column: s.Column + 1, Byte: s.Byte + 1}
	}
	return s, e
}
