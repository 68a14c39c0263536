package wire

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadLine(t *testing.T) {
	// A reader buffer smaller than the lines, so lines come in chunks.
	br := bufio.NewReaderSize(strings.NewReader("short\n"+strings.Repeat("x", 40)+"\nlast"), 16)
	type read struct {
		line    string
		tooLong bool
		eof     bool
	}
	want := []read{{"short", false, false}, {"", true, false}, {"last", false, true}}
	for i, w := range want {
		line, tooLong, err := ReadLine(br, 32)
		if string(line) != w.line || tooLong != w.tooLong || errors.Is(err, io.EOF) != w.eof {
			t.Errorf("read %d: %q, tooLong %v, err %v; want %q, %v, EOF %v", i, line, tooLong, err, w.line, w.tooLong, w.eof)
		}
	}
}

func TestDecodeLine(t *testing.T) {
	for _, tc := range []struct {
		line    string
		n       int
		wantErr string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 1, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`, 2, ""},
		{`[]`, 0, "empty batch"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, "not JSON"},
		{`{"id":1,"method":"ping"`, 0, "not JSON"},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, 0, "invalid message version"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0"}]`, 0, "invalid request"},
	} {
		msgs, err := DecodeLine([]byte(tc.line))
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("DecodeLine(%s) = %v; want an error with %q", tc.line, err, tc.wantErr)
			}
			continue
		}
		if err != nil || len(msgs) != tc.n {
			t.Errorf("DecodeLine(%s) = %d messages, %v; want %d", tc.line, len(msgs), err, tc.n)
		}
	}
}
