package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// readSkill reads the skill file at path for a run over the folder root,
// under the catalog's one policy:
//   - only a regular file is read: a FIFO or a device is refused from its
//     Lstat/Stat, before any open, so it can never block or stream forever;
//   - a symlink is followed only when it resolves inside root (the folder
//     being linted or served, or the folder of a file named directly);
//   - the file is opened with O_NONBLOCK and its opened mode checked again,
//     so a FIFO swapped in after the check cannot hang the read either;
//   - at most limit+1 bytes are read (limit < 0: no limit), enough for the
//     compiler to report the file as too large without loading it.
//
// regular says that a walk already saw path as a regular file, which is
// what the Lstat would find: it is opened without it, with O_NOFOLLOW, so
// a symlink swapped in since is refused rather than followed unchecked.
func readSkill(path, root string, regular bool, limit int64) ([]byte, error) {
	target, flags := path, os.O_RDONLY|syscall.O_NONBLOCK|oNoFollow
	if !regular || oNoFollow == 0 {
		var err error
		if target, err = admit(path, root); err != nil {
			return nil, err
		}
		flags &^= oNoFollow
	}
	f, err := os.OpenFile(target, flags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("it became %s while being opened; a skill is read only from a regular file", kind(st.Mode()))
	}
	return readBounded(f, st.Size(), limit)
}

// admit applies the file-type and symlink policy to path and returns the
// path to open: path itself, or where its symlink resolves.
func admit(path, root string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		resolved, err := filepath.EvalSymlinks(path)
		if err != nil {
			link, _ := os.Readlink(path)
			return "", fmt.Errorf("it is a symlink to %q, which cannot be followed: %v", link, unwrapPath(err))
		}
		if !inside(resolved, root) {
			return "", fmt.Errorf("it is a symlink to %q, outside the folder %q being read; skillc follows only links that stay inside it: copy the file in, or name the file it points to", resolved, displayRoot(root))
		}
		if fi, err = os.Stat(resolved); err != nil {
			return "", err
		}
		target = resolved
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("it is %s; a skill is read only from a regular file", kind(fi.Mode()))
	}
	return target, nil
}

// inside reports whether the resolved path p lies in the folder root (whose
// symlinks are resolved too, so a root reached through a link still holds
// its own files).
func inside(p, root string) bool {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	realRoot, err1 := filepath.Abs(realRoot)
	p, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(realRoot, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func displayRoot(root string) string {
	if root == "" {
		return "."
	}
	return root
}

// kind names a file mode that is no regular file, for messages.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "not a regular file"
}

// readBounded reads f to EOF but at most limit+1 bytes (limit < 0: no limit).
// The buffer is sized from the Stat size, as os.ReadFile does, so linting
// many small files does not grow each buffer from 512 bytes; the size is
// only a hint (the file may change while read), so reading goes on to EOF.
func readBounded(f *os.File, size, limit int64) ([]byte, error) {
	var r io.Reader = f
	if limit >= 0 {
		r = io.LimitReader(f, limit+1)
		size = min(size, limit+1)
	}
	b := make([]byte, 0, int(min(max(size, 0), 64<<20))+1) // +1 to see EOF without growing
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// unwrapPath drops the *PathError around err: messages name the path once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
