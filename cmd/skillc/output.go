package main

import (
	"os"
	"path/filepath"

	"github.com/mattn/go-isatty"
)

// writeOutput writes a command's result to stdout, or to the file of -o
// (output non-empty), atomically; a file that cannot be written is the
// user's to fix, so it is a usage error (exit 2).
func writeOutput(io *IOStreams, output string, data []byte) error {
	if output == "" {
		_, err := io.Out.Write(data)
		return err
	}
	if err := writeFileAtomic(output, data); err != nil {
		return usageError("write %s: %v", output, err)
	}
	return nil
}

// writeFileAtomic writes data to a temporary file beside path, then renames
// it into place: path ends up with all of data or as it was, never half.
func writeFileAtomic(path string, data []byte) error {
	return writeFileAtomicMode(path, data, 0o644)
}

// writeFileAtomicMode is writeFileAtomic giving the file mode perm.
func writeFileAtomicMode(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(name, perm); err != nil {
		return err
	}
	return os.Rename(name, path)
}

// isTerminal reports whether w is a terminal (colour, and no binary output).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
