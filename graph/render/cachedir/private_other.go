//go:build !unix

package cachedir

import "os"

// checkPrivate only checks that path exists: outside Unix the user cache
// folder (%LocalAppData% on Windows) is private by its access list, which
// Go's os package does not read.
func checkPrivate(path string) error {
	_, err := os.Lstat(path)
	return err
}
