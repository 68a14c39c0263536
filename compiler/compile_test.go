package compiler_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skillc/skillc/compiler"
)

// checkRanges fails when a diagnostic points outside src or has an end
// before its start, or when Line/Column disagree with Byte.
func checkRanges(t testing.TB, src []byte, diags compiler.Diagnostics) {
	t.Helper()
	base := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		base = 3
	}
	for _, d := range diags {
		r := d.Range
		if r.Start.Line < 1 || r.Start.Column < 1 || r.End.Line < r.Start.Line {
			t.Errorf("%v: bad range %+v", d, r)
			continue
		}
		if r.Start.Byte < base && len(src) > base || r.Start.Byte > len(src) || r.End.Byte > len(src) || r.End.Byte < r.Start.Byte {
			t.Errorf("%v: range %d..%d outside the %d-byte source", d, r.Start.Byte, r.End.Byte, len(src))
			continue
		}
		for _, p := range []compiler.Pos{r.Start, r.End} {
			line, col := 1, 1
			for i := base; i < p.Byte; {
				if src[i] == '\n' {
					line, col = line+1, 1
					i++
					continue
				}
				_, size := utf8.DecodeRune(src[i:])
				i += size
				col++
			}
			if line != int(p.Line) || col != int(p.Column) {
				t.Errorf("%v: byte %d is %d:%d, not %d:%d", d, p.Byte, line, col, p.Line, p.Column)
			}
		}
	}
}

func hasRule(ds compiler.Diagnostics, rule string) *compiler.Diagnostic {
	for i := range ds {
		if ds[i].Rule == rule {
			return &ds[i]
		}
	}
	return nil
}

// TestACATEdges checks the example of FORMAT.md §4 edge by edge.
func TestACATEdges(t *testing.T) {
	src, err := os.ReadFile("../testdata/compile/acat-reimbursement/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	s, diags := compiler.Compile("skills/acat-reimbursement/SKILL.md", src, compiler.Options{})
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	type edge struct{ from, kind, to, label string }
	var got []edge
	for _, st := range s.Template().Steps {
		got = append(got,
			edge{st.ID, "success", st.NextOnSuccess, st.SuccessLabel},
			edge{st.ID, "failure", st.NextOnFailure, st.FailureLabel})
	}
	// 1 -yes-> end, 1 -no-> 2, 2 -> 3, 2 -failure-> 4, 3 -one record-> end,
	// 3 -many records-> 4, 4 -> end, 4 -failure-> fail.
	want := []edge{
		{"1", "success", "end", "yes"},
		{"1", "failure", "2", "no"},
		{"2", "success", "3", ""},
		{"2", "failure", "4", "on failure"},
		{"3", "success", "end", "one record"},
		{"3", "failure", "4", "many records"},
		{"4", "success", "end", ""},
		{"4", "failure", "fail", ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("edges:\n got %v\nwant %v", got, want)
	}
	if s.Entry != "1" || s.Name != "acat-reimbursement" || s.Title != "ACAT reimbursement" || s.Form != compiler.FormList {
		t.Errorf("entry %q name %q title %q form %v", s.Entry, s.Name, s.Title, s.Form)
	}
	st := s.Steps[0]
	if st.Success.Note != "answer from the thread" || !st.Success.Explicit || st.Failure.Key != "no" {
		t.Errorf("step 1 edges: %+v / %+v", st.Success, st.Failure)
	}
	if s.Steps[1].Success.Explicit || s.Steps[3].Failure.Explicit {
		t.Error("default edges marked explicit")
	}
	if got := s.Steps[1].ToolNames(); fmt.Sprint(got) != "[list_acat_transfers]" {
		t.Errorf("step 2 tools %v", got)
	}
	if l := s.Steps[0].Line(); l != 10 {
		t.Errorf("step 1 line %d", l)
	}
	// Ranges point at what was written.
	at := func(r compiler.Range) string { return string(src[r.Start.Byte:r.End.Byte]) }
	for _, c := range []struct{ got, want string }{
		{at(s.Steps[0].IDRange), "1"},
		{at(s.Steps[0].GoalRange), "Already credited in this thread?"},
		{at(s.Steps[0].Success.TargetRange), "end"},
		{at(s.Steps[0].Success.Range), "- yes: end - answer from the thread"},
		{at(s.Steps[1].Tools[0].Range), "list_acat_transfers"},
		{at(s.Frontmatter.Name.Range), "acat-reimbursement"},
		{at(s.Frontmatter.AllowedTools[1].Range), "list_acat_transfers"},
		{at(s.TitleRange), "# ACAT reimbursement"},
		{at(s.Steps[2].Annotations[1].KeyRange), "no"},
		{at(s.Steps[2].Annotations[1].ValueRange), "4"},
	} {
		if c.got != c.want {
			t.Errorf("range text %q, want %q", c.got, c.want)
		}
	}
}

// TestIR checks IR details the template does not show.
func TestIR(t *testing.T) {
	src := []byte("---\nname: ir\ndescription: d\nowner: me\nallowed-tools: \"a b\"\nmetadata:\n  k: v\n---\n# T\n\n1. Go {#go}\n   - tools: x, `y`\n   - no (many records): go to step 2 - because\n2. Two\n")
	s, diags := compiler.Compile("ir.md", src, compiler.Options{})
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	at := func(r compiler.Range) string { return string(src[r.Start.Byte:r.End.Byte]) }
	fm := s.Frontmatter
	if len(fm.Unknown) != 1 || fm.Unknown[0].Name != "owner" || at(fm.Unknown[0].Range) != "owner" {
		t.Errorf("unknown keys %+v", fm.Unknown)
	}
	if !fm.HasAllowedTools || len(fm.AllowedTools) != 2 || at(fm.AllowedTools[1].Range) != "b" {
		t.Errorf("allowed tools %+v", fm.AllowedTools)
	}
	if fm.Metadata["k"].Value != "v" || at(fm.Metadata["k"].Range) != "v" {
		t.Errorf("metadata %+v", fm.Metadata)
	}
	st := s.Steps[0]
	if st.ID != "go" || !st.ExplicitID || at(st.IDRange) != "go" || st.Goal != "Go" {
		t.Errorf("step %+v", st)
	}
	f := st.Failure
	if f.Target != "2" || f.Label != "many records" || f.Note != "because" || f.Key != "no" || at(f.TargetRange) != "2" {
		t.Errorf("failure edge %+v", f)
	}
	if at(st.Tools[1].Range) != "y" {
		t.Errorf("tool range %q", at(st.Tools[1].Range))
	}
	if s.Step("2") == nil || s.Step("end") != nil {
		t.Error("Skill.Step")
	}
}

// TestBadInput: every kind of bad input gets a result and a clear
// diagnostic with a position, never a panic or a hang.
func TestBadInput(t *testing.T) {
	nestedLists := func(n int) []byte {
		var b bytes.Buffer
		for i := 0; i < n; i++ {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- x\n")
		}
		return b.Bytes()
	}
	tests := []struct {
		name  string
		src   []byte
		max   int64
		rule  string // expected diagnostic, "" for none
		at    string // its line:column
		steps int
	}{
		{"empty", nil, 0, "no-steps", "1:1", 0},
		{"only whitespace", []byte("\n\n  \n"), 0, "no-steps", "1:1", 0},
		{"no steps", []byte("# Advice\n\nBe kind.\n"), 0, "no-steps", "1:1", 0},
		{"invalid utf-8", []byte("# A\n\n1. Caf\xe9 time.\n"), 0, "invalid-encoding", "3:7", 1},
		{"nul byte", []byte("# A\n\n1. Do\x00 it.\n"), 0, "invalid-encoding", "3:6", 1},
		{"bom", []byte("\xef\xbb\xbf---\nname: bom\ndescription: d\n---\n1. Go.\n   - yes: nowhere\n"), 0, "unknown-target", "6:11", 1},
		{"crlf", []byte("# A\r\n\r\n1. Go.\r\n   - no: nowhere\r\n"), 0, "unknown-target", "4:10", 1},
		{"tabs", []byte("# A\n\n1.\tGo.\n\t- no:\tnowhere\n"), 0, "unknown-target", "4:8", 1},
		{"too large", bytes.Repeat([]byte("a"), 101), 100, "file-too-large", "1:1", 0},
		{"nested lists", nestedLists(10000), -1, "file-too-large", fmt.Sprintf("%d:1", MaxNestingLine()), 0},
		{"nested on one line", []byte(strings.Repeat("1. ", 10000) + "x\n"), 0, "file-too-large", "1:1", 0},
		{"nested quotes", []byte(strings.Repeat(">", 10000) + " x\n"), 0, "file-too-large", "1:1", 0},
		{"too many items", bytes.Repeat([]byte("1. a\n"), compiler.DefaultMaxBlocks+1), 0, "file-too-large", fmt.Sprintf("%d:1", compiler.DefaultMaxBlocks+1), 0},
		{"too many empty items", bytes.Repeat([]byte("-\n"), compiler.DefaultMaxBlocks+1), 0, "file-too-large", fmt.Sprintf("%d:1", compiler.DefaultMaxBlocks+1), 0},
		{"too many headings", bytes.Repeat([]byte("#\n"), compiler.DefaultMaxBlocks+1), 0, "file-too-large", fmt.Sprintf("%d:1", compiler.DefaultMaxBlocks+1), 0},
		{"too many setext headings", bytes.Repeat([]byte("a\n===\n"), compiler.DefaultMaxBlocks+1), 0, "file-too-large", fmt.Sprintf("%d:1", 2*(compiler.DefaultMaxBlocks+1)), 0},
		{"too much emphasis", append([]byte("1. a\n\n"), bytes.Repeat([]byte("*a* "), compiler.DefaultMaxBlocks*compiler.InlinePerBlock)...), 0, "file-too-large", "3:1", 0},
		{"long run of link definitions", append([]byte("1. a\n\n"), bytes.Repeat([]byte("[r]: /x\n"), compiler.MaxLinkDefRun+1)...), 0, "file-too-large", fmt.Sprintf("%d:1", compiler.MaxLinkDefRun+3), 0},
		{"blank lines in a list", append([]byte("1. a\n"), bytes.Repeat([]byte("\n"), compiler.DefaultMaxBlocks*compiler.LevelLinesPerBlock)...), 0, "file-too-large", fmt.Sprintf("%d:1", compiler.DefaultMaxBlocks*compiler.LevelLinesPerBlock+1), 0},
		{"lazy lines in a deep list", append(nestedLists(20), bytes.Repeat([]byte("a\n"), compiler.DefaultMaxBlocks*compiler.LevelLinesPerBlock/20)...), 0, "file-too-large", fmt.Sprintf("%d:1", 20+(compiler.DefaultMaxBlocks*compiler.LevelLinesPerBlock-(20*21/2))/20+1), 0},
		{"huge frontmatter", []byte("---\nname: f\ndescription: d\nmetadata:\n" + strings.Repeat("  k: v\n", 40000) + "---\n1. a\n"), 0, "file-too-large", "1:1", 1},
		{"alias bomb", aliasBomb(), 0, "invalid-frontmatter", "5:8", 1},
		{"unclosed frontmatter", []byte("---\nname: x\n\n1. Go.\n"), 0, "invalid-frontmatter", "1:1", 1},
		{"frontmatter only dashes", []byte("---"), 0, "invalid-frontmatter", "1:1", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			s, diags := compiler.Compile("bad.md", tt.src, compiler.Options{MaxSize: tt.max})
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v", d) // a hang guard, not a benchmark
			}
			if s == nil {
				t.Fatal("nil skill")
			}
			checkRanges(t, tt.src, diags)
			d := hasRule(withMovedChecks(s, diags), tt.rule) // no-steps is the lint rule's
			if d == nil {
				t.Fatalf("no %s diagnostic in %v", tt.rule, diags)
			}
			if got := fmt.Sprintf("%d:%d", d.Range.Start.Line, d.Range.Start.Column); got != tt.at {
				t.Errorf("%s at %s, want %s", tt.rule, got, tt.at)
			}
			if len(s.Steps) != tt.steps {
				t.Errorf("%d steps, want %d", len(s.Steps), tt.steps)
			}
			if _, err := json.Marshal(s.Template()); err != nil {
				t.Error(err)
			}
		})
	}
}

// MaxNestingLine is the line of nestedLists where the estimated depth first
// passes compiler.MaxNesting: line n is indented 2(n-1) columns and opens
// one list, so its depth is n.
func MaxNestingLine() int { return compiler.MaxNesting + 1 }

func aliasBomb() []byte {
	var b strings.Builder
	b.WriteString("---\nname: bomb\ndescription: d\n")
	b.WriteString(`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	prev := "a"
	for _, n := range "bcdefghi" {
		fmt.Fprintf(&b, "%c: &%c [%s]\n", n, n, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = string(n)
	}
	b.WriteString("---\n1. Go.\n")
	return []byte(b.String())
}

func TestBOMOffsets(t *testing.T) {
	src := []byte("\xef\xbb\xbf# T\n\n1. Go.\n")
	s, _ := compiler.Compile("bom.md", src, compiler.Options{})
	r := s.Steps[0].IDRange
	if r.Start.Line != 3 || r.Start.Column != 1 || src[r.Start.Byte] != '1' {
		t.Errorf("ID range %+v", r)
	}
	if s.Title != "T" || s.TitleRange.Start.Column != 1 || s.TitleRange.Start.Byte != 3 {
		t.Errorf("title %q at %+v", s.Title, s.TitleRange)
	}
	// Byte offsets index Source, which is the file as read.
	if !bytes.Equal(s.Source, src) || s.Source[r.Start.Byte] != '1' {
		t.Error("Source is not the file as read")
	}
}

func TestTooLargeMessage(t *testing.T) {
	_, diags := compiler.Compile("big.md", make([]byte, compiler.DefaultMaxSize+1), compiler.Options{})
	d := hasRule(diags, "file-too-large")
	if d == nil || !strings.Contains(d.Summary, "10485760") || !strings.Contains(d.Detail, "--max-size") {
		t.Fatalf("got %v", diags)
	}
	// A negative MaxSize lifts the limit.
	_, diags = compiler.Compile("big.md", bytes.Repeat([]byte("a"), 200), compiler.Options{MaxSize: -1})
	if hasRule(diags, "file-too-large") != nil {
		t.Error("limit applied with MaxSize -1")
	}
}

// TestCorpus compiles every real skill in /work/shared/corpus (written by
// other people): each one compiles or gets diagnostics, with ranges inside
// the file. What was found is kept as a golden summary to review.
func TestCorpus(t *testing.T) {
	const dir = "../../shared/corpus"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus at", dir)
	}
	var b bytes.Buffer
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s, diags := compiler.Compile(p, src, compiler.Options{})
		checkRanges(t, src, diags)
		if _, err := json.Marshal(s.Template()); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		rules := []string{}
		for _, d := range withMovedChecks(s, diags) {
			rules = append(rules, d.Rule)
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s: %s form, %d steps %v\n", filepath.ToSlash(rel), s.Form, len(s.Steps), rules)
		for _, st := range s.Template().Steps {
			fmt.Fprintf(&b, "\t%s %q -> %s / %s\n", st.ID, st.Goal, st.NextOnSuccess, st.NextOnFailure)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("compiled %d files", n)
	}
	checkGolden(t, "../testdata/compile/corpus.txt", b.Bytes())
}

// TestNestingGuardSparesRules: a long "- - - -" line is a thematic break,
// not 40 nested lists.
func TestNestingGuardSparesRules(t *testing.T) {
	src := []byte("# T\n\n" + strings.Repeat("- ", 40) + "\n\n1. Go.\n")
	s, diags := compiler.Compile("rule.md", src, compiler.Options{})
	if len(diags) != 0 || len(s.Steps) != 1 {
		t.Errorf("%d steps, diagnostics %v", len(s.Steps), diags)
	}
}

// TestLongFrontmatter: many keys without aliases are not an alias bomb.
func TestLongFrontmatter(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nname: long\ndescription: d\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	b.WriteString("---\n1. Go.\n")
	s, diags := compiler.Compile("long.md", []byte(b.String()), compiler.Options{})
	if len(diags) != 0 || len(s.Frontmatter.Unknown) != 20000 {
		t.Errorf("%d unknown keys, diagnostics %v", len(s.Frontmatter.Unknown), diags)
	}
}

// TestShapeLimitsSpare: files just under the block and link definition
// limits, and markup inside code blocks, compile; MaxBlocks -1 lifts the
// block limit.
func TestShapeLimitsSpare(t *testing.T) {
	defs := "1. a\n\n" + strings.Repeat("[r]: /x\n", compiler.MaxLinkDefRun) + "\n" + strings.Repeat("[r]: /x\n", compiler.MaxLinkDefRun)
	tests := []struct {
		name  string
		src   string
		opts  compiler.Options
		steps int
	}{
		{"items at the limit", strings.Repeat("1. a\n", compiler.DefaultMaxBlocks), compiler.Options{}, compiler.DefaultMaxBlocks},
		{"items over the limit, lifted", strings.Repeat("1. a\n", compiler.DefaultMaxBlocks+1), compiler.Options{MaxBlocks: -1}, compiler.DefaultMaxBlocks + 1},
		{"items over a raised limit", strings.Repeat("1. a\n", 20), compiler.Options{MaxBlocks: 30}, 20},
		{"markup in a code block", "1. a\n\n```\n" + strings.Repeat("- *a* [b](c) `d`\n", compiler.DefaultMaxBlocks) + "```\n", compiler.Options{}, 1},
		{"link definitions in runs", defs, compiler.Options{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := compiler.Compile("ok.md", []byte(tt.src), tt.opts)
			if d := hasRule(diags, "file-too-large"); d != nil {
				t.Fatalf("refused: %v", d)
			}
			if len(s.Steps) != tt.steps {
				t.Errorf("%d steps, want %d", len(s.Steps), tt.steps)
			}
		})
	}
}
