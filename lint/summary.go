package lint

import (
	"fmt"
	"io"
	"strings"
)

// WriteSummary prints the closing line of the text format:
// "3 errors, 1 warning in 12 files" or "no problems in 12 files".
func WriteSummary(w io.Writer, r *Result, opt TextOptions) error {
	_, err := fmt.Fprintln(w, Summary(r, opt))
	return err
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
