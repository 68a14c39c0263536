package lint

import (
	"fmt"
	"io"
	"strings"
)

// WriteSummary prints the closing line of the text format:
// "3 errors, 1 warning in 12 files" or "no problems in 12 files", then,
// when some findings have fixes, how many as ruff says it:
// "[*] 2 fixable with --fix (1 more with --unsafe-fixes)".
func WriteSummary(w io.Writer, r *Result, opt TextOptions) error {
	_, err := fmt.Fprintln(w, Summary(r, opt))
	if line := FixableSummary(r, opt); err == nil && line != "" {
		_, err = fmt.Fprintln(w, line)
	}
	return err
}

// FixableSummary is WriteSummary's line about fixes, or "" when no
// finding has one.
func FixableSummary(r *Result, opt TextOptions) string {
	safe, unsafe := 0, 0
	for _, f := range r.Files {
		for _, d := range f.Diags {
			switch {
			case Fixable(d, false):
				safe++
			case Fixable(d, true):
				unsafe++
			}
		}
	}
	mark := paint(opt.Color, ansiGreen, "[*]")
	switch {
	case opt.UnsafeFixes && safe+unsafe > 0:
		return fmt.Sprintf("%s %d fixable with --unsafe-fixes", mark, safe+unsafe)
	case safe > 0 && unsafe > 0:
		return fmt.Sprintf("%s %d fixable with --fix (%d more with --unsafe-fixes)", mark, safe, unsafe)
	case safe > 0:
		return fmt.Sprintf("%s %d fixable with --fix", mark, safe)
	case unsafe > 0:
		return fmt.Sprintf("%s %d fixable with --unsafe-fixes", mark, unsafe)
	}
	return ""
}

// Summary is the text of WriteSummary's line.
func Summary(r *Result, opt TextOptions) string {
	errs, warns, infos := r.Count()
	files := plural(len(r.Files), "file", "files")
	if errs+warns+infos == 0 {
		return paint(opt.Color, ansiGreen, "no problems") + " in " + files
	}
	var parts []string
	if errs > 0 {
		parts = append(parts, paint(opt.Color, ansiRed, plural(errs, "error", "errors")))
	}
	if warns > 0 {
		parts = append(parts, paint(opt.Color, ansiYellow, plural(warns, "warning", "warnings")))
	}
	if infos > 0 {
		parts = append(parts, paint(opt.Color, ansiCyan, plural(infos, "info", "infos")))
	}
	return strings.Join(parts, ", ") + " in " + files
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
