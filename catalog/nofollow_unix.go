//go:build unix

package catalog

import "syscall"

// oNoFollow makes open refuse a symlink in the last element of the path,
// so a file the walk saw as regular can be opened without an Lstat first
// (readSkill): a symlink swapped in since is refused, not followed.
const oNoFollow = syscall.O_NOFOLLOW
