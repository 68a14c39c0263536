package compiler

import (
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// simpleYAML builds the node tree yaml.v3 would build for the frontmatter
// nearly every skill has: one "key: value" line per field, a plain word as
// key at the start of the line and a plain one-line value. yaml.v3 spends
// more on such a block (a reader, a scanner, a token queue, an event per
// node) than goldmark spends on the markdown after it, and the compiler
// reads only each node's kind, value, position and whether it is null.
//
// It returns nil for anything else (quotes, lists, comments, blank or
// indented lines, a repeated key, characters YAML treats specially), and
// the caller hands the text to yaml.v3: this is a shortcut for the common
// case, not a YAML parser. Hand-written because no library offers such a
// shortcut; FuzzSimpleYAML checks that it agrees with yaml.v3 on every
// input it accepts.
//
// Value nodes carry the tag !!null or !!str: the compiler asks only
// whether a value is null, never for its other types.
func simpleYAML(y []byte) *yaml.Node {
	lines := 0
	for _, ch := range y {
		if ch == '\n' {
			lines++
		}
	}
	if lines == 0 || y[len(y)-1] != '\n' {
		return nil
	}
	// One allocation for the document, the mapping and every key and value.
	nodes := make([]yaml.Node, 2+2*lines)
	content := make([]*yaml.Node, 0, 2*lines)
	doc, m := &nodes[0], &nodes[1]
	*doc = yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1}
	*m = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	next := 2
	line := 0
	for start := 0; start < len(y); {
		end := start
		for y[end] != '\n' {
			end++
		}
		line++
		key, value, col, ok := simpleField(y[start:end])
		if !ok {
			return nil
		}
		for i := 0; i < len(content); i += 2 {
			if content[i].Value == key {
				return nil // a repeated key: left to yaml.v3 and readFields
			}
		}
		k, v := &nodes[next], &nodes[next+1]
		next += 2
		*k = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: 1}
		*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, Line: line, Column: col}
		if isYAMLNull(value) {
			v.Tag = "!!null"
		}
		content = append(content, k, v)
		start = end + 1
	}
	m.Content = content
	doc.Content = []*yaml.Node{m}
	return doc
}

// simpleField splits one line as "key: value", returning the value's
// 1-based column; ok is false unless both parts are plain YAML scalars
// that need no interpretation.
func simpleField(l []byte) (key, value string, col int, ok bool) {
	i := 0
	for i < len(l) && (isLetter(l[i]) || i > 0 && (l[i] >= '0' && l[i] <= '9' || l[i] == '-' || l[i] == '_')) {
		i++
	}
	if i == 0 || i > 64 || i+1 >= len(l) || l[i] != ':' || l[i+1] != ' ' {
		return "", "", 0, false
	}
	key = string(l[:i])
	j := i + 1
	for j < len(l) && l[j] == ' ' {
		j++
	}
	v := l[j:]
	// The first character may not be one of YAML's indicators (quotes,
	// "-", "[", "&", "!", "|", ...): only a letter, digit or non-ASCII
	// character starts a value here.
	if len(v) == 0 || !(isLetter(v[0]) || v[0] >= '0' && v[0] <= '9' || v[0] >= utf8.RuneSelf) {
		return "", "", 0, false
	}
	if last := v[len(v)-1]; last == ' ' || last == ':' {
		return "", "", 0, false
	}
	for k := 0; k < len(v); {
		ch := v[k]
		if ch < utf8.RuneSelf {
			// No control characters (tabs included), no ": " (a nested
			// key) and no " #" (a comment).
			if ch < 0x20 || ch == 0x7f || ch == ':' && v[k+1] == ' ' || ch == '#' && v[k-1] == ' ' {
				return "", "", 0, false
			}
			k++
			continue
		}
		r, size := utf8.DecodeRune(v[k:])
		if !yamlPrintable(r) || size == 1 {
			return "", "", 0, false
		}
		k += size
	}
	return key, string(v), j + 1, true
}

// yamlPrintable reports whether the non-ASCII rune r is printable in YAML
// and not a line break yaml.v3 knows (NEL, LS, PS) or a byte order mark.
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029 || r == 0xFEFF:
		return false
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// isYAMLNull reports whether a plain scalar resolves to null in YAML 1.2's
// core schema, as yaml.v3 resolves it.
func isYAMLNull(v string) bool {
	return v == "~" || v == "null" || v == "Null" || v == "NULL"
}
