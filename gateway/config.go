// Package gateway lets skillc serve stand in front of other MCP servers:
// it reads the hosts' mcpServers configuration, keeps one shared client
// connection to each upstream server, names their tools (NAME__tool on a
// clash), and works out which of them a conversation sees at the position
// its plan is at.
//
// It is the part of the gateway that knows nothing of the MCP server it
// sits in: package server registers the tools, filters tools/list and
// refuses calls with what this package decides.
package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"
)

// Upstream is one server of the mcpServers configuration: a command to run
// (stdio) or a URL (streamable HTTP, or SSE when its type says so).
type Upstream struct {
	// Name is the key in mcpServers: what NAME__tool is prefixed with.
	Name string
	// Command, Args, Env and Cwd start a stdio server. Env is added to
	// skillc's own environment, as hosts do.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// URL and Headers reach an HTTP server.
	URL     string
	Headers map[string]string
	// Type is "stdio", "http" (streamable HTTP) or "sse": what the entry
	// says, else what Command or URL implies.
	Type string
	// Pos is where the entry starts, as FILE:LINE:COLUMN, for messages.
	Pos string
}

// entry is one mcpServers value as hosts write it. Keys that hosts add for
// themselves (disabled, autoApprove, timeout, ...) are ignored.
type entry struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Disabled bool              `json:"disabled"`
}

// MaxConfigBytes bounds the configuration file: a host's is a few KiB.
const MaxConfigBytes = 1 << 20

// LoadConfig reads the mcpServers configuration at path. The servers come
// back sorted by name; a disabled one is left out.
func LoadConfig(path string) ([]Upstream, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file (want the mcpServers JSON that MCP hosts use)", path)
		}
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(src) > MaxConfigBytes {
		return nil, fmt.Errorf("%s: over %d bytes; an mcpServers file is a few KiB", path, MaxConfigBytes)
	}
	return ParseConfig(path, src)
}

// ParseConfig parses an mcpServers configuration; name names it in
// messages, which give FILE:LINE:COLUMN.
func ParseConfig(name string, src []byte) ([]Upstream, error) {
	at := func(off int64) string {
		line, col := lineCol(src, off)
		return fmt.Sprintf("%s:%d:%d", name, line, col)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	fail := func(err error) error {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			// The Decoder's offsets count from its buffer; Unmarshal's
			// from the start of the file.
			var whole *json.SyntaxError
			if errors.As(json.Unmarshal(src, new(any)), &whole) {
				syn = whole
			}
			// Offset counts the bad byte in: point at it.
			return fmt.Errorf("%s: invalid JSON: %v", at(max(syn.Offset-1, 0)), syn)
		case errors.As(err, &typ):
			var whole *json.UnmarshalTypeError
			var file struct {
				Servers map[string]entry `json:"mcpServers"`
			}
			if errors.As(json.Unmarshal(src, &file), &whole) {
				typ = whole
			}
			// Offset is just past the value: point at its start.
			off := typ.Offset - 1
			for off > 0 && strings.IndexByte(",:[ \t\r\n", src[off-1]) < 0 {
				off--
			}
			return fmt.Errorf("%s: %q: want %s, got a JSON %s", at(off), lastField(typ.Field), goKind(typ.Type.String()), typ.Value)
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return fmt.Errorf("%s: the JSON ends early", at(int64(len(src))))
		}
		return fmt.Errorf("%s: %v", at(dec.InputOffset()), err)
	}
	want := func(d json.Delim, what string) error {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		if tok != d {
			return fmt.Errorf("%s: %s must be a JSON object, as in {\"mcpServers\": {\"NAME\": {\"command\": ...}}}", at(skipSpace(src, off)), what)
		}
		return nil
	}
	if err := want('{', "the file"); err != nil {
		return nil, err
	}
	var ups []Upstream
	found := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		if tok != "mcpServers" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fail(err)
			}
			continue
		}
		found = true
		if err := want('{', `"mcpServers"`); err != nil {
			return nil, err
		}
		for dec.More() {
			pos := at(skipSpace(src, dec.InputOffset())) // the server's name
			tok, err := dec.Token()
			if err != nil {
				return nil, fail(err)
			}
			name, _ := tok.(string)
			var e entry
			if err := dec.Decode(&e); err != nil {
				return nil, fail(err)
			}
			u, err := e.upstream(name, pos)
			if err != nil {
				return nil, err
			}
			if e.Disabled {
				continue
			}
			ups = append(ups, u)
		}
		if _, err := dec.Token(); err != nil {
			return nil, fail(err)
		}
	}
	if !found {
		return nil, fmt.Errorf("%s: no \"mcpServers\" key; want {\"mcpServers\": {\"NAME\": {\"command\": ...} or {\"url\": ...}}}", at(0))
	}
	sort.Slice(ups, func(i, j int) bool { return ups[i].Name < ups[j].Name })
	return ups, nil
}

func (e entry) upstream(name, pos string) (Upstream, error) {
	u := Upstream{Name: name, Command: e.Command, Args: e.Args, Env: e.Env, Cwd: e.Cwd, URL: e.URL, Headers: e.Headers, Type: e.Type, Pos: pos}
	if err := checkServerName(name); err != nil {
		return u, fmt.Errorf("%s: %v", pos, err)
	}
	switch {
	case e.Command != "" && e.URL != "":
		return u, fmt.Errorf("%s: server %q has both \"command\" and \"url\"; give \"command\" (and \"args\", \"env\") for a local server, or \"url\" (and \"headers\") for a remote one", pos, name)
	case e.Command == "" && e.URL == "":
		return u, fmt.Errorf("%s: server %q has neither \"command\" nor \"url\"; give \"command\" (and \"args\", \"env\") for a local server, or \"url\" (and \"headers\") for a remote one", pos, name)
	}
	switch strings.ToLower(e.Type) {
	case "":
		u.Type = "stdio"
		if e.URL != "" {
			u.Type = "http"
		}
	case "stdio":
		u.Type = "stdio"
		if e.Command == "" {
			return u, fmt.Errorf("%s: server %q is of type stdio but has no \"command\"", pos, name)
		}
	case "http", "streamable-http", "streamablehttp", "sse":
		u.Type = "http"
		if strings.EqualFold(e.Type, "sse") {
			u.Type = "sse"
		}
		if e.URL == "" {
			return u, fmt.Errorf("%s: server %q is of type %s but has no \"url\"", pos, name, e.Type)
		}
	default:
		return u, fmt.Errorf("%s: server %q has type %q; want stdio, http or sse", pos, name, e.Type)
	}
	if e.URL != "" {
		pu, err := url.Parse(e.URL)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return u, fmt.Errorf("%s: server %q has url %q; want an http:// or https:// URL such as http://127.0.0.1:3001/mcp", pos, name, e.URL)
		}
	}
	return u, nil
}

// checkServerName keeps NAME__tool a valid MCP tool name: the name is
// its prefix.
func checkServerName(name string) error {
	if name == "" || len(name) > 32 {
		return fmt.Errorf("server name %q must be 1-32 characters of A-Z, a-z, 0-9, _ and -", name)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("server name %q has %q: use A-Z, a-z, 0-9, _ and - (it prefixes tool names as NAME__tool)", name, c)
		}
	}
	if strings.Contains(name, "__") {
		return fmt.Errorf("server name %q has \"__\", which separates the server from the tool in NAME__tool", name)
	}
	return nil
}

// lastField is the key of a dotted field path: mcpServers.a.args is args.
func lastField(f string) string {
	if i := strings.LastIndexByte(f, '.'); i >= 0 {
		return f[i+1:]
	}
	return f
}

func goKind(t string) string {
	switch {
	case strings.HasPrefix(t, "map["):
		return "a JSON object of strings"
	case strings.HasPrefix(t, "[]"):
		return "a JSON array of strings"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a JSON string"
	}
	return "a JSON object"
}

func skipSpace(src []byte, off int64) int64 {
	for off < int64(len(src)) && strings.IndexByte(" \t\r\n:,", src[off]) >= 0 {
		off++
	}
	return off
}

// lineCol turns a byte offset into a 1-based line and column (in bytes).
func lineCol(src []byte, off int64) (int, int) {
	if off > int64(len(src)) {
		off = int64(len(src))
	}
	before := src[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
