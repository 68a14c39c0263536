package gateway

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel stop a stdio upstream when skillc dies
// without closing it (a host that kills skillc at once): otherwise the
// server lives on, holding the host's stderr open. Pdeathsig fires when
// the thread that started the child ends; the Go runtime ends a thread
// only when a goroutine locked to it exits, which skillc never does, so
// here that is when the process ends.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
