package compiler

import (
	"bytes"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// plainMapping returns the node tree yaml.Unmarshal gives for src, when
// src is the simplest and by far the most common frontmatter: nothing but
// lines of "key: value", each key a lower-case word (letters, digits, '-'
// and '_') met once, each value text on one line that YAML reads as a
// plain string (see plainText). It reports false for anything else
// (quoted or multi-line values, lists, comments, blank or indented lines,
// a value YAML would read as a number, a boolean, null or a date), which
// yaml.v3 then parses as before.
//
// Why: yaml.v3 built its tree of a three-line frontmatter with some 68
// allocations, 10% of lint's time on the 2,000-skill corpus (perf, one
// CPU); this builds the same tree with four. It is no YAML parser:
// FuzzPlainMapping holds every tree it builds to yaml.v3's own, field for
// field.
func plainMapping(src []byte) (*yaml.Node, bool) {
	if len(src) == 0 || src[len(src)-1] != '\n' {
		return nil, false
	}
	// A repeated key is looked for among the keys before it, which is
	// cheap for the handful a skill has and quadratic for thousands: a
	// frontmatter of more than maxPlainFields lines goes to yaml.v3.
	fields := bytes.Count(src, []byte{'\n'})
	if fields > maxPlainFields {
		return nil, false
	}
	// One block for every node and one string for every key and value:
	// the values are substrings of it.
	nodes := make([]yaml.Node, 2+2*fields)
	content := make([]*yaml.Node, 2*fields)
	text := string(src)
	doc, mapping := &nodes[0], &nodes[1]
	*doc = yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{mapping}}
	*mapping = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1, Content: content}
	line, start := 1, 0
	for start < len(text) {
		end := start + bytes.IndexByte(src[start:], '\n')
		k, v, ok := plainField(text, start, end)
		if !ok {
			return nil, false
		}
		key := text[start:k]
		for i := 0; i < (line-1)*2; i += 2 {
			if content[i].Value == key {
				return nil, false // yaml.v3 says what a repeated key is
			}
		}
		kn, vn := &nodes[2*line], &nodes[2*line+1]
		*kn = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: 1}
		*vn = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text[v:end], Line: line, Column: v - start + 1}
		content[2*(line-1)], content[2*(line-1)+1] = kn, vn
		line, start = line+1, end+1
	}
	return doc, true
}

// maxPlainFields bounds the fields plainMapping reads (see there); real
// frontmatter has a name, a description and a few more.
const maxPlainFields = 64

// plainField reads text[start:end], one line, as "key: value": it
// returns where the key ends and where the value begins, and whether the
// line is that simple.
func plainField(text string, start, end int) (keyEnd, valueStart int, ok bool) {
	i := start
	for i < end && (isLowerWordByte(text[i]) || text[i] >= '0' && text[i] <= '9') {
		i++
	}
	// The key is plain text too (a letter first; not true, null, ...).
	if i == start || i+1 >= end || text[i] != ':' || text[i+1] != ' ' || !plainText(text[start:i]) {
		return 0, 0, false
	}
	keyEnd = i
	for i++; i < end && text[i] == ' '; i++ {
	}
	if i == end || !plainText(text[i:end]) {
		return 0, 0, false
	}
	return keyEnd, i, true
}

func isLowerWordByte(b byte) bool { return b >= 'a' && b <= 'z' || b == '-' || b == '_' }

// plainText reports whether v, a value with no space before it, is text
// that YAML reads as a plain string: it starts with a letter, does not end
// with a space or ':', holds only printable characters, with no tab, no
// ": " (which would start a mapping), no " #" (a comment) and no line
// break of YAML's own (NEL, U+2028, U+2029), and it is not a word YAML
// gives another type (true, null, ...). Everything else a plain scalar
// may hold (quotes, brackets, '&', '#' after a letter, URLs) is only
// special at its start in YAML's block context, and the start is a
// letter.
func plainText(v string) bool {
	if !isLetter(v[0]) || v[len(v)-1] == ' ' || v[len(v)-1] == ':' {
		return false
	}
	for i := 0; i < len(v); {
		b := v[i]
		if b < utf8.RuneSelf {
			switch {
			case b < 0x20 || b == 0x7f:
				return false // a tab, a control character
			case b == ':' && v[i+1] == ' ', b == '#' && v[i-1] == ' ':
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError && size == 1 {
			return false // not UTF-8
		}
		// What YAML calls printable, less its byte order mark and
		// breaks (yaml.v3: is_printable, is_break).
		if !(r >= 0xA0 && r <= 0xD7FF && r != 0x2028 && r != 0x2029 || r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF || r >= 0x10000 && r <= 0x10FFFF) {
			return false
		}
		i += size
	}
	if len(v) <= 5 {
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL",
			"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF":
			return false
		}
	}
	return true
}
