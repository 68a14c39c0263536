//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// pollableStdin returns in, when it is a pipe or a socket (how MCP hosts
// start a stdio server), as a non-blocking file that the Go runtime waits
// on with epoll. A blocking stdin keeps a thread, and its processor, in
// read(2) between messages until the runtime's monitor takes the
// processor back: with one processor (oneProcessorForStdioGateway) that
// stalls every other goroutine. BenchmarkGatewayForward at GOMAXPROCS=1
// with the old stdio transport, p50 ratio: 2.37 (list) and 2.40 (enforce)
// with a blocking stdin, 1.95 and 1.93 with this one (two sets of 5 runs,
// against a reference that measured 1.85 and 1.84 in both). A terminal is
// left alone: its non-blocking mode would outlive skillc in the shell.
func pollableStdin(in io.Reader) io.Reader {
	f, ok := in.(*os.File)
	if !ok {
		return in
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return in
	}
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		return in
	}
	// NewFile sees the descriptor non-blocking and registers it with the
	// runtime's poller. The new File is never closed or collected while
	// the server reads it, so fd 0 stays open.
	return os.NewFile(uintptr(fd), f.Name())
}

// pollableStdout is pollableStdin for stdout, so that the server's answers
// are written by wire.Pipe. It is left alone when it is the pipe stderr
// writes to as well (2>&1): the non-blocking mode would be stderr's too,
// and the logger writes to it without the runtime's poller, so a full pipe
// would lose lines instead of waiting.
func pollableStdout(out io.Writer) io.Writer {
	f, ok := out.(*os.File)
	if !ok {
		return out
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return out
	}
	if ei, err := os.Stderr.Stat(); err != nil || os.SameFile(fi, ei) {
		return out
	}
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		return out
	}
	return os.NewFile(uintptr(fd), f.Name())
}
