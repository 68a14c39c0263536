package compiler

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// plainYAMLCases are frontmatter blocks (without their --- lines) that
// plainMapping reads (true) or leaves to yaml.v3 (false).
var plainYAMLCases = []struct {
	src   string
	plain bool
}{
	{"name: skill-0001\ndescription: Generated skill 1. Use when benchmarking the linter.\nallowed-tools: search_thread list_records ask_user\n", true},
	{"name: acat\ndescription: Use when a customer asks (by chat, or mail) about ACAT fees; then reimburse them.\n", true},
	{"name:    spaced\n", true},
	{"x_1: A+B=C? yes/no\n", true},
	{"name: a\nname: b\n", false},          // a repeated key: yaml.v3's to answer
	{"name: a\n\ndescription: b\n", false}, // a blank line
	{"name: a", false},                     // no newline at the end
	{"name: 'quoted'\n", false},
	{"name: \"quoted\"\n", false},
	{"name: a # comment\n", false},
	{"name: a: b\n", false},
	{"name: a:b\n", true},
	{"description: It's \"quoted\" mid-text, see https://example.com/x#y & more [1], {2} | 3 > 2% @me `code`!\n", true},
	{"description: Use for ACAT — transfers, café, 日本語\n", true},
	{"name: a\u00a0\n", true},
	{"name: a:\n", false},
	{"name: a\u2028b\n", false},
	{"name: a\u0085b\n", false},
	{"name: \ufeffa\n", false},
	{"name: a\ufeffb\n", false},
	{"name: a\x7fb\n", false},
	{"name: a\xffb\n", false},
	{"name: true\n", false},
	{"name: Null\n", false},
	{"name: yes\n", false},
	{"name: 2024-01-01\n", false},
	{"name: 12\n", false},
	{"name: .inf\n", false},
	{"name: a  b\n", true},
	{"name: a \n", false},
	{"name: a\r\n", false},
	{"name: café\n", true},
	{"name:\n", false},
	{"name: \n", false},
	{"  name: a\n", false},
	{"- a\n", false},
	{"true: a\n", false},
	{"Name: a\n", false},
	{"1name: a\n", false},
	{"name: [a, b]\n", false},
	{"name: a\n  continued\n", false},
	{"name: >\n  folded\n", false},
	{"name: &a x\n", false},
	{"name: a\tb\n", false},
	{"name: `code`\n", false},
	{"", false},
	{"name: a\n" + manyFields(maxPlainFields-1), true}, // as many as it reads
	{manyFields(maxPlainFields + 1), false},            // yaml.v3's, however plain
}

// manyFields is n plain "kN: v" lines.
func manyFields(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	return b.String()
}

func TestPlainMapping(t *testing.T) {
	for _, tc := range plainYAMLCases {
		got, ok := plainMapping([]byte(tc.src))
		if ok != tc.plain {
			t.Errorf("%q: plain %v, want %v", tc.src, ok, tc.plain)
			continue
		}
		if ok {
			checkSameTree(t, tc.src, got)
		}
	}
}

// checkSameTree fails t unless got is the tree yaml.Unmarshal makes of src.
func checkSameTree(t *testing.T, src string, got *yaml.Node) {
	t.Helper()
	var want yaml.Node
	if err := yaml.Unmarshal([]byte(src), &want); err != nil {
		t.Fatalf("%q: plainMapping read what yaml.v3 refuses: %v", src, err)
	}
	if !reflect.DeepEqual(got, &want) {
		t.Fatalf("%q: plainMapping's tree differs from yaml.v3's:\n got %s\nwant %s", src, dumpNode(got), dumpNode(&want))
	}
}

func dumpNode(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		c := *n
		c.Content = nil
		fmt.Fprintf(&b, "%s%+v\n", strings.Repeat("  ", depth), c)
		for _, k := range n.Content {
			walk(k, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// FuzzPlainMapping holds plainMapping to yaml.v3: whatever it reads, it
// reads into the very tree yaml.Unmarshal makes (go test -fuzz
// FuzzPlainMapping ./compiler).
func FuzzPlainMapping(f *testing.F) {
	for _, tc := range plainYAMLCases {
		f.Add(tc.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if got, ok := plainMapping([]byte(src)); ok {
			checkSameTree(t, src, got)
		}
	})
}
