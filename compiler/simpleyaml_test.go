package compiler

import (
	"fmt"
	"testing"

	"gopkg.in/yaml.v3"
)

// simpleYAMLCases are frontmatter blocks: the first ones take the
// shortcut, the rest must be left to yaml.v3.
var simpleYAMLCases = []struct {
	y      string
	simple bool
}{
	{"name: a\ndescription: Does x. Use when y.\n", true},
	{"name: skill-0001\ndescription: Generated skill 1. Use when benchmarking the linter.\nallowed-tools: search_thread list_records ask_user\n", true},
	{"name:   spaced\n", true},
	{"name: null\nlicense: NULL\ncompatibility: Null\n", true},
	{"name: 123\nversion: 1.5\nflag: true\nwhen: 2024-01-01\n", true},
	{"description: Café — naïve “quotes” 日本 😀 a:b a#b [x] {y} 'z' \"w\" *s &t !u |v >w %x @y `z`\n", true},
	{"x_y: a\nx-y: b\nX9: c\n", true},
	{"metadata: x\nunknown-key: y\n", true},
	{"", false},
	{"name: a", false},                     // no final newline
	{"name: a\n\ndescription: b\n", false}, // blank line
	{"name: a\n  more\n", false},           // continuation
	{"name: a b \n", false},                // trailing space
	{"name: a:\n", false},                  // trailing colon
	{"name: a: b\n", false},                // nested key
	{"name: a #c\n", false},                // comment
	{"# c\nname: a\n", false},              // comment line
	{"name: 'a'\n", false},                 // quoted
	{"name: \"a\"\n", false},               // quoted
	{"name: -a\n", false},                  // indicator
	{"name: [a]\n", false},                 // flow
	{"name: &x a\nd: *x\n", false},         // anchor, alias
	{"name: |\n  a\n", false},              // block scalar
	{"name:\n", false},                     // empty value
	{"name:a\n", false},                    // no space
	{"name :a\n", false},                   // space before colon
	{"name: a\tb\n", false},                // tab
	{"name:\ta\n", false},                  // tab
	{"name: a\r\n", false},                 // CRLF
	{"name: a\nname: b\n", false},          // repeated key
	{"name: a\u2028b\n", false},            // line separator
	{"name: a\u0085b\n", false},            // NEL
	{"name: a\ufeffb\n", false},            // BOM
	{"name: a\xffb\n", false},              // invalid UTF-8
	{"name: a\x7fb\n", false},              // DEL
	{"- a\n", false},                       // a list
	{"9name: a\n", false},                  // key starts with a digit
	{"? a\n: b\n", false},                  // complex key
	{"name: ~\n", false},                   // indicator-like start
	{"name: .5\n", false},                  // starts with punctuation
	{"name: a\n...\n", false},              // document end
}

func TestSimpleYAML(t *testing.T) {
	for _, tt := range simpleYAMLCases {
		t.Run(fmt.Sprintf("%q", tt.y), func(t *testing.T) {
			n := simpleYAML([]byte(tt.y))
			if (n != nil) != tt.simple {
				t.Fatalf("simple = %v, want %v", n != nil, tt.simple)
			}
			if n != nil {
				agreeWithYAML(t, []byte(tt.y), n)
			}
		})
	}
}

// FuzzSimpleYAML: whenever the shortcut accepts a block, yaml.v3 parses it
// to the same tree.
func FuzzSimpleYAML(f *testing.F) {
	for _, tt := range simpleYAMLCases {
		f.Add([]byte(tt.y))
	}
	f.Fuzz(func(t *testing.T, y []byte) {
		if n := simpleYAML(y); n != nil {
			agreeWithYAML(t, y, n)
		}
	})
}

func agreeWithYAML(t *testing.T, y []byte, got *yaml.Node) {
	t.Helper()
	var want yaml.Node
	if err := yaml.Unmarshal(y, &want); err != nil {
		t.Fatalf("shortcut took %q, which yaml.v3 refuses: %v", y, err)
	}
	if diff := nodeDiff(got, &want, "doc"); diff != "" {
		t.Fatalf("%q: %s", y, diff)
	}
}

// nodeDiff compares what the compiler reads of a node: kind, value,
// position, style, whether it is null, and its children; and that yaml.v3
// saw no comments, which the shortcut never keeps.
func nodeDiff(got, want *yaml.Node, path string) string {
	switch {
	case got.Kind != want.Kind:
		return fmt.Sprintf("%s: kind %v, yaml.v3 %v", path, got.Kind, want.Kind)
	case got.Value != want.Value:
		return fmt.Sprintf("%s: value %q, yaml.v3 %q", path, got.Value, want.Value)
	case got.Line != want.Line || got.Column != want.Column:
		return fmt.Sprintf("%s: at %d:%d, yaml.v3 %d:%d", path, got.Line, got.Column, want.Line, want.Column)
	case got.Style != want.Style:
		return fmt.Sprintf("%s: style %v, yaml.v3 %v", path, got.Style, want.Style)
	case (got.Tag == "!!null") != (want.Tag == "!!null"):
		return fmt.Sprintf("%s: tag %s, yaml.v3 %s", path, got.Tag, want.Tag)
	case got.Kind != yaml.ScalarNode && got.Tag != want.Tag:
		return fmt.Sprintf("%s: tag %s, yaml.v3 %s", path, got.Tag, want.Tag)
	case want.HeadComment != "" || want.LineComment != "" || want.FootComment != "" || want.Anchor != "" || want.Alias != nil:
		return fmt.Sprintf("%s: yaml.v3 saw comments, an anchor or an alias", path)
	case len(got.Content) != len(want.Content):
		return fmt.Sprintf("%s: %d children, yaml.v3 %d", path, len(got.Content), len(want.Content))
	}
	for i := range got.Content {
		if d := nodeDiff(got.Content[i], want.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}
