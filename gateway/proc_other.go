//go:build !linux

package gateway

import "os/exec"

// dieWithParent does nothing here: only Linux has a parent-death signal.
// A stdio upstream still ends when skillc closes its stdin.
func dieWithParent(*exec.Cmd) {}
