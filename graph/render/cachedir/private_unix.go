//go:build unix

package cachedir

import (
	"fmt"
	"os"
	"syscall"
)

// checkPrivate refuses a path that is a symbolic link, is owned by another
// user, or can be written by group or others: any of them lets someone
// else put code where this user's skillc would load it.
func checkPrivate(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: cannot read its owner: %w", path, errNotPrivate)
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: %w", path, errNotPrivate)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%s is owned by uid %d, not %d: %w", path, st.Uid, os.Geteuid(), errNotPrivate)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s has mode %#o, writable by others: %w", path, fi.Mode().Perm(), errNotPrivate)
	}
	return nil
}
