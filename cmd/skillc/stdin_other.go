//go:build !unix

package main

import "io"

// pollableStdin returns in: outside Unix stdin is read as it is.
func pollableStdin(in io.Reader) io.Reader { return in }
