package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	// The unified diff of --diff: go-internal's port of the Go tool's own
	// anchored diff, already a dependency (testscript), so none is
	// hand-written here.
	"github.com/rogpeppe/go-internal/diff"

	"github.com/skillc/skillc/lint"
)

// fixOutcome is what --fix, --unsafe-fixes or --diff did to a run.
type fixOutcome struct {
	// fixed counts the fixes applied (with --diff, that would be), files
	// the files they change.
	fixed, files int
	// diff is --diff's unified diff of every changed file.
	diff bytes.Buffer
}

// applyFixes fixes each readable file of res that has a fix to apply
// (safe ones, and with --unsafe-fixes every one), as lint.FixSource does,
// and puts the fixed text and its findings in res. A file on disk is
// written atomically (a temporary file beside it, renamed into place),
// unless --diff only shows the change or the skill came from stdin, whose
// fixed text the caller prints. A file that cannot be written stops the
// run with an error; the files fixed before it stay fixed, each whole.
func applyFixes(opts *LintOptions, res *lint.Result, lopts lint.Options, stdin bool) (*fixOutcome, error) {
	out := &fixOutcome{}
	for _, f := range res.Files {
		if f.Unreadable || !hasFix(f, opts.UnsafeFixes) {
			continue
		}
		fr := lint.FixSource(f.Path, f.Source, lopts, opts.UnsafeFixes)
		if fr.Fixed == 0 || bytes.Equal(fr.Source, f.Source) {
			continue
		}
		switch {
		case opts.Diff:
			out.diff.Write(diff.Diff(f.Path, f.Source, f.Path, fr.Source))
		case !stdin:
			if err := writeFixed(f.Path, f.Source, fr.Source); err != nil {
				return out, usageError("cannot write the fixes of %s: %v", f.Path, err)
			}
		}
		out.fixed += fr.Fixed
		out.files++
		f.Source, f.Diags = fr.Source, fr.Diags
	}
	return out, nil
}

// hasFix reports whether a finding of f has a fix the run applies.
func hasFix(f *lint.File, unsafe bool) bool {
	for _, d := range f.Diags {
		for _, fx := range d.Fixes {
			if fx.Safe || unsafe {
				return true
			}
		}
	}
	return false
}

// writeFixed replaces the file at path, which held old when it was
// linted, with fixed. A symlink's target is written, so the link stays a
// link; the file keeps its permissions. A file that changed since it was
// read is left alone: the fixes were made for the text that was there.
func writeFixed(path string, old, fixed []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	if err != nil {
		return err
	}
	now, err := os.ReadFile(real)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, old) {
		return fmt.Errorf("it changed while it was linted; run skillc lint --fix again")
	}
	return writeFileAtomicMode(real, fixed, st.Mode().Perm())
}

// reportFixes says on w how many problems were fixed, or with --diff
// would be: "fixed 3 problems in 2 files".
func reportFixes(w io.Writer, o *fixOutcome, dry bool) {
	verb := "fixed"
	if dry {
		verb = "would fix"
	}
	msg := fmt.Sprintf("skillc: %s %s", verb, countNoun(o.fixed, "problem", "problems"))
	if o.files > 1 {
		msg += " in " + countNoun(o.files, "file", "files")
	}
	fmt.Fprintln(w, msg)
}

func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
