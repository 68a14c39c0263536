//go:build unix

package main

import "syscall"

// makeFIFO makes a named pipe at p, for the tests of the file policy.
func makeFIFO(p string) error { return syscall.Mkfifo(p, 0o644) }
