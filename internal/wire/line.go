package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ReadLine reads up to and without the next newline, for a connection that
// speaks one JSON-RPC message (or batch) a line. A line longer than max is
// read to its end and dropped (tooLong), so memory stays bounded by max
// and the caller chooses whether the connection goes on.
func ReadLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline itself
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// DecodeLine decodes a line that is one JSON-RPC message or a batch of
// them (a non-empty array), each by DecodeMessage. line must not be empty.
func DecodeLine(line []byte) ([]jsonrpc.Message, error) {
	if line[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		if len(batch) == 0 {
			return nil, errors.New("empty batch")
		}
		msgs := make([]jsonrpc.Message, 0, len(batch))
		for _, raw := range batch {
			m, err := DecodeMessage(raw)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		}
		return msgs, nil
	}
	m, err := DecodeMessage(line)
	if err != nil {
		if !json.Valid(line) {
			return nil, errors.New("not JSON: each line must be one JSON-RPC message")
		}
		return nil, err
	}
	return []jsonrpc.Message{m}, nil
}
