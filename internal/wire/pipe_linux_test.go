package wire

import (
	"bytes"
	"io"
	"os"
	"syscall"
	"testing"
)

// TestPipe: through Pipe, what is written to a non-blocking pipe is read
// whole and in order, past the pipe's capacity (so that both sides wait on
// the poller), and the reader sees the end once the writer closes; a
// blocking file is left as it is.
func TestPipe(t *testing.T) {
	r, w, err := os.Pipe() // non-blocking, polled by the runtime
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := Pipe(r), Pipe(w)
	if pr == io.ReadWriter(r) || pw == io.ReadWriter(w) {
		t.Fatal("Pipe left a non-blocking pipe as it was")
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	go func() {
		for rest := want; len(rest) > 0; {
			n := min(len(rest), 100_000)
			if _, err := pw.Write(rest[:n]); err != nil {
				t.Error(err)
				return
			}
			rest = rest[n:]
		}
		w.Close()
	}()
	got, err := io.ReadAll(pr)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes (%v), want %d", len(got), err, len(want))
	}
	r.Close()

	// A blocking descriptor is not Pipe's.
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fds[0]), "blocking")
	defer f.Close()
	defer syscall.Close(fds[1])
	if Pipe(f) != io.ReadWriter(f) {
		t.Error("Pipe took a blocking file")
	}
}
