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
	if f, ok := in.(*os.File); ok {
		if _, ok := pipeOrSocket(f); ok {
			return nonblocking(f)
		}
	}
	return in
}

// pipeOrSocket is f's FileInfo, and whether f is a pipe or a socket.
func pipeOrSocket(f *os.File) (os.FileInfo, bool) {
	fi, err := f.Stat()
	return fi, err == nil && fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0
}

// nonblocking returns f, a pipe or socket, made non-blocking as a new File,
// or f when it cannot be. NewFile sees the descriptor non-blocking and
// registers it with the runtime's poller. The new File is never closed or
// collected while the server uses it, so the descriptor stays open.
func nonblocking(f *os.File) *os.File {
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		return f
	}
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
	fi, ok := pipeOrSocket(f)
	if !ok {
		return out
	}
	if ei, err := os.Stderr.Stat(); err != nil || os.SameFile(fi, ei) {
		return out
	}
	return nonblocking(f)
}
