//go:build !unix

package main

import "io"

// pollableStdin returns in: outside Unix stdin is read as it is.
func pollableStdin(in io.Reader) io.Reader { return in }

// pollableStdout returns out: outside Unix stdout is written as it is.
func pollableStdout(out io.Writer) io.Writer { return out }
