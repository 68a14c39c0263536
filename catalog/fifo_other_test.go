//go:build !unix

package catalog_test

import "errors"

// makeFIFO reports that this system has no named pipes; the tests that
// need one skip.
func makeFIFO(string) error { return errors.New("no named pipes on this system") }
