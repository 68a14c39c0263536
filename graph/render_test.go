package graph

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// nasty is a hand-built skill whose text tries every escape DOT, HTML-like
// labels and Mermaid have: quotes, backslashes, markup, entities, newlines,
// Mermaid's # codes and pipes, and a step ID that is a DOT keyword.
func nasty() *Template {
	s := skill("node 2 fail", "2", "graph - node")
	s.Skill = `na"sty`
	s.Title = `Quotes "here" & <tags> \ back\slash`
	s.Steps[0].Goal = `Read the "config" at C:\temp\new & check <b>bold</b> isn't markup; line\nbreak`
	s.Steps[0].RecommendedTools = []string{"read_file", "a.b-c_d"}
	s.Steps[0].SuccessLabel = `"found" it \ ok`
	s.Steps[0].FailureLabel = "a|b #12; `x` <i>\nnewline"
	s.Steps[1].Goal = "Écrire « bonjour » — 日本語 → {braces} [brackets] end fail"
	s.Steps[2].Goal = strings.Repeat("verylongwordwithoutanyspaces", 3) + " then short words"
	return s
}

func TestDOTIsDeterministic(t *testing.T) {
	g, err := New(nasty())
	if err != nil {
		t.Fatal(err)
	}
	first := g.DOT()
	for i := 0; i < 20; i++ {
		g2, _ := New(nasty())
		if !bytes.Equal(g2.DOT(), first) || !bytes.Equal(g2.Mermaid(), g.Mermaid()) {
			t.Fatal("two drawings of one skill differ")
		}
	}
}

func TestEscaping(t *testing.T) {
	tests := []struct {
		name, in, dot, html, mermaid string
	}{
		{"plain", "abc", `"abc"`, "abc", "abc"},
		{"quote", `a"b`, `"a\"b"`, "a&quot;b", "a#quot;b"},
		{"backslash", `C:\new`, `"C:\\new"`, `C:\new`, `C:\new`},
		{"markup", "<b>&</b>", `"<b>&</b>"`, "&lt;b&gt;&amp;&lt;/b&gt;", "#lt;b#gt;#amp;#lt;/b#gt;"},
		{"newline", "a\nb\tc", `"a b c"`, "a b c", "a b c"},
		{"mermaid syntax", "a|b #1; `c`", "\"a|b #1; `c`\"", "a|b #1; `c`", "a#124;b #35;1; #96;c#96;"},
		{"unicode", "日本 «»", `"日本 «»"`, "日本 «»", "日本 «»"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dotQuote(tt.in); got != tt.dot {
				t.Errorf("dotQuote(%q) = %s, want %s", tt.in, got, tt.dot)
			}
			if got := htmlEscape(tt.in); got != tt.html {
				t.Errorf("htmlEscape(%q) = %s, want %s", tt.in, got, tt.html)
			}
			if got := mermaidEscape(tt.in); got != tt.mermaid {
				t.Errorf("mermaidEscape(%q) = %s, want %s", tt.in, got, tt.mermaid)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"short", []string{"short"}},
		{"Already credited in this thread?", []string{"Already credited in this", "thread?"}},
		{"exactly twenty-eight chars!!", []string{"exactly twenty-eight chars!!"}},
		{"a " + strings.Repeat("x", 30) + " b", []string{"a " + strings.Repeat("x", 26), "xxxx b"}},
		{"twenty-one characters " + strings.Repeat("y", 30), []string{"twenty-one characters", strings.Repeat("y", 28), "yy"}},
		{"tools: search_customer_relationship_management", []string{"tools: search_customer_relat", "ionship_management"}},
		{strings.Repeat("é", 29), []string{strings.Repeat("é", 28), "é"}},
	}
	for _, tt := range tests {
		got := wrap(tt.in, wrapWidth)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("wrap(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDOTAcceptedByGraphviz feeds the drawings to the real Graphviz. CI
// installs it; elsewhere the test skips when dot is missing.
func TestDOTAcceptedByGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("dot (Graphviz) is not installed, and CI is set")
		}
		t.Skip("dot (Graphviz) is not installed")
	}
	long := make([]string, 150)
	for i := range long {
		long[i] = strconv.Itoa(i + 1)
	}
	for name, s := range map[string]*Template{
		"nasty": nasty(),
		"cycle": skill("1", "2", "3 2"),
		// 150 steps that all fail by default: with one shared fail node
		// this layout took minutes (see maxSharedTerminal).
		"150 steps": skill(long...),
	} {
		g, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = bytes.NewReader(g.DOT())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Errorf("%s: dot -Tsvg: %v\n%s\n%s", name, err, stderr.String(), g.DOT())
			continue
		}
		checkSVG(t, out)
	}
}

func checkSVG(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false // the SVG carries a DOCTYPE with external entities
	var root struct {
		XMLName xml.Name
	}
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("svg does not parse as XML: %v", err)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("root element is %q, want svg", root.XMLName.Local)
	}
	// Decode stops at the root; read to the end to check the whole file.
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("svg does not parse as XML: %v", err)
			}
			break
		}
	}
}

// TestTerminalCopies: past maxSharedTerminal edges into fail, each step
// gets its own fail, so Graphviz's layout stays linear.
func TestTerminalCopies(t *testing.T) {
	spec := make([]string, maxSharedTerminal+1)
	for i := range spec {
		spec[i] = strconv.Itoa(i + 1)
	}
	g, err := New(skill(spec...))
	if err != nil {
		t.Fatal(err)
	}
	dot := string(g.DOT())
	if strings.Contains(dot, "\t\"fail\" [") || !strings.Contains(dot, `"1" -> "fail:1"`) || !strings.Contains(dot, `"9" -> "fail:9"`) {
		t.Errorf("want a fail per step:\n%s", dot)
	}
	if !strings.Contains(dot, `"end" [`) {
		t.Errorf("one edge into end: want one shared end:\n%s", dot)
	}
	mmd := string(g.Mermaid())
	if !strings.Contains(mmd, "s0 -.-> t_fail_0") || !strings.Contains(mmd, "class t_fail_0,t_fail_1") {
		t.Errorf("mermaid: want a fail per step:\n%s", mmd)
	}
}

// CheckSVG lets the external tests (golden_test.go) check drawings too.
var CheckSVG = checkSVG
