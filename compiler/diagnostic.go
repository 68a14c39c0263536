package compiler

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Pos is a position in a source file. Line and Column are 1-based; Column
// counts Unicode code points (what an editor shows), Byte is the 0-based
// byte offset into the file.
//
// Line and Column are int32: a compiled step holds seven ranges, and two
// 4-byte fields instead of 8-byte ones make a Range 32 bytes, not 48.
// Byte stays an int, as it indexes the source, which may be larger than
// 2 GiB under --max-size -1; a line or column past what an int32 holds is
// given as the largest it does (newPos).
type Pos struct {
	Line   int32 `json:"line"`
	Column int32 `json:"column"`
	Byte   int   `json:"byte"`
}

// Range is a span of source text. End is exclusive, as in hcl.Range.
//
// A Range does not name its file: what holds it does, once (Skill.Filename,
// Diagnostic.File). A compiled step holds seven ranges and a skill hundreds,
// all of one file, and a filename in each made a Range 48 bytes, not 32,
// and a step 640 bytes, not 528.
type Range struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// IsZero reports whether the range was never set.
func (r Range) IsZero() bool { return r.Start.Line == 0 }

// String is "line:column" of the start.
func (r Range) String() string {
	return fmt.Sprintf("%d:%d", r.Start.Line, r.Start.Column)
}

// Severity orders diagnostics: Error is the most severe.
type Severity int

const (
	SeverityInfo Severity = iota + 1
	SeverityWarning
	SeverityError
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	}
	return "unknown"
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return SeverityError, nil
	case "warning":
		return SeverityWarning, nil
	case "info":
		return SeverityInfo, nil
	}
	return 0, fmt.Errorf("unknown severity %q: want error, warning or info", s)
}

func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

var _ json.Marshaler = Diagnostic{}

// Diagnostic is one problem found in a skill. It is a value: the compiler,
// the graph analyses and the lint rules report them, and only the command
// line decides how they are printed.
type Diagnostic struct {
	Severity Severity
	// Rule is the stable kebab-case ID of the check ("unknown-target").
	Rule string
	// Summary is the one-line message: lowercase, names quoted with %q.
	Summary string
	// Detail explains further, or is empty.
	Detail string
	// File is the path of the file the problem is in, as given; Range is
	// where in it.
	File  string
	Range Range
	// Suggestion is what the author could write instead, or is empty:
	// `no (many): 4` for `many: 4`, or a near-miss step ID.
	Suggestion string
	// Fixes are exact edits that would resolve the problem, best first.
	// The compiler proposes the fixes of its syntax findings; lint offers
	// a fix only after the file was linted again with it applied and
	// nothing new was found (lint's fix check), and drops the rest, so
	// read fixes from lint's findings, not from Compile's.
	Fixes []Fix
}

// Fix is one way to resolve a diagnostic: edits to apply together.
type Fix struct {
	// Title says what the fix does, for a code action or --diff header:
	// "replace \"many\" with \"no (many)\"".
	Title string `json:"title"`
	// Safe fixes keep the author's meaning and are applied by --fix;
	// unsafe ones (a guessed name, an inferred edge written out) need
	// --unsafe-fixes or a person choosing the code action.
	Safe bool `json:"safe"`
	// Edits do not overlap; each replaces its range's bytes with NewText.
	Edits []Edit `json:"edits"`
}

// Edit replaces the source bytes in Range (Start.Byte to End.Byte) with
// NewText, in the file of the diagnostic whose fix it is. An empty range
// inserts.
type Edit struct {
	Range   Range  `json:"range"`
	NewText string `json:"new_text"`
}

// MarshalJSON gives diagnostics a stable lowercase shape.
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Severity   string    `json:"severity"`
		Rule       string    `json:"rule"`
		Message    string    `json:"message"`
		Detail     string    `json:"detail,omitempty"`
		Range      fileRange `json:"range"`
		Suggestion string    `json:"suggestion,omitempty"`
		Fixes      []Fix     `json:"fixes,omitempty"`
	}{d.Severity.String(), d.Rule, d.Summary, d.Detail, fileRange{d.File, d.Range.Start, d.Range.End}, d.Suggestion, d.Fixes})
}

// fileRange is a diagnostic's range in JSON, which names its file.
type fileRange struct {
	Filename string `json:"filename,omitempty"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Location is "file:line:column" of the start of the diagnostic's range.
func (d Diagnostic) Location() string {
	return fmt.Sprintf("%s:%d:%d", d.File, d.Range.Start.Line, d.Range.Start.Column)
}

func (d Diagnostic) Error() string {
	return fmt.Sprintf("%s: %s: %s [%s]", d.Location(), d.Severity, d.Summary, d.Rule)
}

// Key is what makes two diagnostics the same finding: a comparable value
// (a Diagnostic is not, for its fixes), for sets of findings.
type Key struct {
	Severity                                Severity
	Rule, Summary, Detail, Suggestion, File string
	Range                                   Range
}

// Key returns d's identity without its fixes.
func (d Diagnostic) Key() Key {
	return Key{d.Severity, d.Rule, d.Summary, d.Detail, d.Suggestion, d.File, d.Range}
}

// Diagnostics is a list of diagnostics.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Sort orders diagnostics by file, position, then rule, so output is stable.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].File != ds[j].File {
			return ds[i].File < ds[j].File
		}
		a, b := ds[i].Range, ds[j].Range
		if a.Start.Byte != b.Start.Byte {
			return a.Start.Byte < b.Start.Byte
		}
		return ds[i].Rule < ds[j].Rule
	})
}
