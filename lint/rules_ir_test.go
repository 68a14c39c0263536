package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// These tests run single rules on hand-built IR, so each rule's logic is
// checked apart from the compiler; testdata/lint/rules checks them end to
// end on real markdown.

func runRule(r *Rule, s *compiler.Skill, cfg *Config) compiler.Diagnostics {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	var out compiler.Diagnostics
	p := &Pass{Skill: s, Config: cfg, rule: r, out: &out}
	r.Run(p)
	return out
}

func ref(name string, line int32) compiler.Ref {
	return compiler.Ref{Name: name, Range: compiler.Range{Start: compiler.Pos{Line: line, Column: 1}, End: compiler.Pos{Line: line, Column: 1 + int32(len(name))}}}
}

func summaries(ds compiler.Diagnostics) string {
	var out []string
	for _, d := range ds {
		s := d.Summary
		if d.Suggestion != "" {
			s += " => " + d.Suggestion
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func TestUnknownToolIR(t *testing.T) {
	step := &compiler.Step{ID: "1", Tools: []compiler.Ref{ref("search_threads", 9), ref("ask_user", 9)}}
	withAllowed := &compiler.Skill{
		Frontmatter: &compiler.Frontmatter{HasAllowedTools: true, AllowedTools: []compiler.Ref{ref("search_thread", 4), ref("ask_user", 4)}},
		Steps:       []*compiler.Step{step},
	}
	bare := &compiler.Skill{Steps: []*compiler.Step{step}}
	registry := DefaultConfig()
	registry.HasTools, registry.Tools, registry.Path = true, []string{"search_thread"}, ".skillc.yaml"

	tests := []struct {
		name string
		s    *compiler.Skill
		cfg  *Config
		want string
	}{
		{"no registry", bare, nil, ""},
		{"allowed-tools", withAllowed, nil, `tool "search_threads" is not in allowed-tools => search_thread`},
		{"allowed-tools and config", withAllowed, registry, `allowed-tools names "ask_user", which is in no tool registry of ".skillc.yaml"` + "\n" +
			`tool "search_threads" is not in allowed-tools => search_thread`},
		{"config only", bare, registry, `tool "search_threads" is in no tool registry of ".skillc.yaml" => search_thread` + "\n" +
			`tool "ask_user" is in no tool registry of ".skillc.yaml"`},
	}
	for _, tt := range tests {
		if got := summaries(runRule(RuleUnknownTool, tt.s, tt.cfg)); got != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}

func TestToolCountRulesIR(t *testing.T) {
	var tools []compiler.Ref
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		tools = append(tools, ref(n, 3))
	}
	s := &compiler.Skill{
		Frontmatter: &compiler.Frontmatter{HasAllowedTools: true, AllowedTools: []compiler.Ref{ref("a", 2), ref("z", 2)}},
		Steps:       []*compiler.Step{{ID: "1", Tools: tools}, {ID: "2", Tools: tools[:5]}},
	}
	if got := summaries(runRule(RuleTooManyTools, s, nil)); got != `step "1" recommends 6 tools, more than the limit of 5` {
		t.Errorf("too-many-tools: %s", got)
	}
	cfg := DefaultConfig()
	cfg.MaxTools = 6
	if got := runRule(RuleTooManyTools, s, cfg); len(got) != 0 {
		t.Errorf("too-many-tools with limit 6: %v", got)
	}
	if got := summaries(runRule(RuleUnusedTool, s, nil)); got != `tool "z" is in allowed-tools but no step recommends it` {
		t.Errorf("unused-tool: %s", got)
	}
	s.Steps = nil // instruction-style: not checked
	if got := runRule(RuleUnusedTool, s, nil); len(got) != 0 {
		t.Errorf("unused-tool without steps: %v", got)
	}
}

func TestQuestionAndGoalIR(t *testing.T) {
	explicit := compiler.Edge{Target: "end", Explicit: true}
	s := &compiler.Skill{Steps: []*compiler.Step{
		{ID: "1", Goal: "Paid?", Success: explicit, Failure: explicit},
		{ID: "2", Goal: "Paid? ", Success: explicit},
		{ID: "3", Goal: "Is it `x`?"},
		{ID: "4", Goal: "Done. " + strings.Repeat("é", 120)},
	}}
	want := `step "2" asks a question but does not say where each answer goes => add ` + "`- no: fail`" + `, with the targets you mean` + "\n" +
		`step "3" asks a question but does not say where each answer goes => add ` + "`- yes: 4` and `- no: fail`" + `, with the targets you mean`
	if got := summaries(runRule(RuleQuestionWithoutBranch, s, nil)); got != want {
		t.Errorf("question-without-branch:\n%s", got)
	}
	if got := summaries(runRule(RuleGoalTooLong, s, nil)); got != `step "4" has a goal of 126 characters, more than the limit of 120` {
		t.Errorf("goal-too-long: %s", got)
	}
}

func TestFrontmatterRulesIR(t *testing.T) {
	s := &compiler.Skill{Frontmatter: &compiler.Frontmatter{Unknown: []compiler.Ref{ref("allowed_tools", 3), ref("owner", 4)}}}
	want := `unknown frontmatter key "allowed_tools" => allowed-tools` + "\n" + `unknown frontmatter key "owner"`
	if got := summaries(runRule(RuleFrontmatterUnknownKey, s, nil)); got != want {
		t.Errorf("frontmatter-unknown-key:\n%s", got)
	}
	bare := &compiler.Skill{Name: "x", Source: []byte("# X\n\n1. Do.\n")}
	if got := runRule(RuleMissingFrontmatter, bare, nil); len(got) != 1 || got[0].Range.Start.Line != 1 {
		t.Errorf("missing-frontmatter: %v", got)
	}
}

func TestMissingWhenToUseIR(t *testing.T) {
	tests := []struct {
		desc, body string
		want       bool
	}{
		{"Check refunds. Use when the user asks.", "", false},
		{"Check refunds.", "# R\n\nSome text.\n", true},
		{"Check refunds.", "# R\n\n## When to use\n\nAlways.\n", false},
		{"Check refunds.", "# R\n\nUse this skill if a refund is late.\n", false},
		{"Check refunds.", "# R\n\n```\nUse this when x\n```\n<!-- Use it when y -->\n", true},
		{"Check refunds.", "# R\n\n**When the user** asks, run it.\n", false},
		{"Use for refunds.", "", false},
		{"Toolkit for refunds.", "", true},
	}
	for _, tt := range tests {
		fmSrc := "---\ndescription: " + tt.desc + "\n---\n"
		src := fmSrc + tt.body
		s := &compiler.Skill{
			Source:      []byte(src),
			Description: tt.desc,
			Frontmatter: &compiler.Frontmatter{
				Range:       compiler.Range{End: compiler.Pos{Byte: len(fmSrc)}, Start: compiler.Pos{Line: 1, Column: 1}},
				Description: compiler.Field{Value: tt.desc, Set: true, Range: compiler.Range{Start: compiler.Pos{Line: 2, Column: 14}}},
			},
		}
		if got := len(runRule(RuleMissingWhenToUse, s, nil)) == 1; got != tt.want {
			t.Errorf("desc %q body %q: reported %v, want %v", tt.desc, tt.body, got, tt.want)
		}
	}
}

func TestProseBranchIR(t *testing.T) {
	src := "# T\n\n1. Run the tests.\n\n   If tests fail, stop. If they pass, continue to step 2.\n   - on success: 3\n" +
		"2. Check.\n\n   If the check fails, go back to step 1, up to 3 times. Wait for approval.\n" +
		"3. Done.\n\n   Go to step 7.\n"
	for _, strict := range []bool{false, true} {
		s, _ := compiler.Compile("t.md", []byte(src), compiler.Options{Strict: strict})
		var got []string
		for _, d := range runRule(RuleProseBranch, s, nil) {
			sev := d.Severity
			if sev == 0 {
				sev = RuleProseBranch.Severity // the pass fills in the default
			}
			got = append(got, fmt.Sprintf("%s %v %s | %s", d.Location(), sev, d.Summary, d.Suggestion))
		}
		want := []string{
			// The annotation wins; the prose disagrees with it.
			`t.md:6:4 warning step "1": its annotation sends the success edge to "3", its prose to "2" | `,
			`t.md:5:4 info step "1": its failure edge, to "fail", is read from its prose | - on failure (tests fail): fail`,
			`t.md:9:4 info step "2": its failure edge loops back to "1", read from its prose | - on failure (the check fails): 1 (at most 3 times)`,
			`t.md:9:58 info step "2" waits for "approval", read from its prose | - wait: approval`,
			`t.md:12:4 info step "3": prose reads as a branch, but skillc cannot read it | `,
		}
		if strict {
			want[1] = `t.md:5:4 info step "1": its prose reads as the failure edge to "fail", which strict mode does not apply | - on failure (tests fail): fail`
			want[2] = `t.md:9:4 info step "2": its prose loops back to "1" on failure, which strict mode does not apply | - on failure (the check fails): 1 (at most 3 times)`
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("strict=%v prose-branch:\n%s\nwant:\n%s", strict, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestSuppressionsIR(t *testing.T) {
	src := "<!-- skillc-disable-file goal-too-long -->\n# S\n\n1. One?\n   <!-- skillc-disable question-without-branch -->\n\n   <!-- skillc-disable nope, all -->\n2. Two?\n   - tools: x\n3. Three?\n```\n<!-- skillc-disable-file all -->\n```\n"
	li := compiler.NewLines([]byte(src))
	rng := li.Range
	i2, i3 := strings.Index(src, "2. Two"), strings.Index(src, "3. Three")
	s := &compiler.Skill{Filename: "s.md", Source: []byte(src), Steps: []*compiler.Step{
		{ID: "1", Range: rng(strings.Index(src, "1. One"), i2)},
		{ID: "2", Range: rng(i2, i3)},
		{ID: "3", Range: rng(i3, len(src))},
	}}
	var unknown compiler.Diagnostics
	sups := parseSuppressions(s, li, func(d compiler.Diagnostic) { unknown = append(unknown, d) })
	if len(unknown) != 1 || unknown[0].Location() != "s.md:7:24" || unknown[0].Rule != "unknown-rule" {
		t.Errorf("unknown = %v", unknown)
	}
	at := func(rule string, line int32) compiler.Diagnostic {
		return compiler.Diagnostic{Rule: rule, Range: compiler.Range{Start: compiler.Pos{Line: line}}}
	}
	for _, tt := range []struct {
		d    compiler.Diagnostic
		want bool
	}{
		{at("goal-too-long", 10), true},            // file-wide
		{at("question-without-branch", 4), false},  // the comment is below step 1
		{at("question-without-branch", 8), true},   // next content line is step 2: whole step
		{at("unknown-tool", 9), true},              // all, inside step 2
		{at("question-without-branch", 10), false}, // step 3 is outside
		{at("cycle", 10), false},                   // the file-wide all is in a code block
	} {
		if got := sups.covers(tt.d); got != tt.want {
			t.Errorf("%s at line %d: suppressed %v, want %v", tt.d.Rule, tt.d.Range.Start.Line, got, tt.want)
		}
	}
}

// TestSpecRulesOnIR: the frontmatter rules read the fields the compiler
// recorded, by FORMAT v1 when Frontmatter.Strict, and check nothing the
// compiler could not read.
func TestSpecRulesOnIR(t *testing.T) {
	field := func(v string) compiler.Field {
		return compiler.Field{Set: true, Value: v, Range: compiler.Range{Start: compiler.Pos{Line: 2, Column: 7}}}
	}
	tests := []struct {
		name string
		fm   compiler.Frontmatter
		file string
		rule *Rule
		want string
	}{
		{"v2 reads any script", compiler.Frontmatter{Name: field("技能")}, "x.md", RuleInvalidName, ""},
		{"v1 reads a-z", compiler.Frontmatter{Name: field("技能"), Strict: true}, "x.md", RuleInvalidName,
			"name \"技能\" contains '技'; use only a-z, 0-9 and -"},
		{"uppercase suggests lowercase", compiler.Frontmatter{Name: field("МОЙ")}, "x.md", RuleInvalidName,
			"name \"МОЙ\" contains the uppercase 'М'; names are lowercase => мой"},
		{"a mismatch after NFKC only", compiler.Frontmatter{Name: field("ｒefund")}, "skills/refund/SKILL.md", RuleNameMismatch, ""},
		{"a mismatch under v1", compiler.Frontmatter{Name: field("refund-check"), Strict: true}, "skills/refund/SKILL.md", RuleNameMismatch,
			"name \"refund-check\" does not match its folder \"refund\" => name: refund, or rename the folder to \"refund-check\""},
		{"no name", compiler.Frontmatter{Description: field("d")}, "skills/refund/SKILL.md", RuleMissingName,
			"frontmatter has no \"name\" => refund"},
		{"a name that is not a string", compiler.Frontmatter{Name: compiler.Field{Set: true, Invalid: true}}, "x.md", RuleMissingName, ""},
		{"unreadable YAML", compiler.Frontmatter{Malformed: true}, "x.md", RuleMissingDescription, ""},
		{"a document's", compiler.Frontmatter{Document: true}, "x.md", RuleMissingDescription, ""},
		{"empty description", compiler.Frontmatter{Description: field("")}, "x.md", RuleMissingDescription, "\"description\" is empty"},
		{"long description", compiler.Frontmatter{Description: field(strings.Repeat("é", 1025))}, "x.md", RuleInvalidDescription,
			"\"description\" is 1025 characters; the limit is 1024"},
		{"long compatibility", compiler.Frontmatter{Compatibility: field(strings.Repeat("a", 501))}, "x.md", RuleInvalidFrontmatter,
			"\"compatibility\" is 501 characters; the limit is 500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm := tt.fm
			s := &compiler.Skill{Filename: tt.file, Frontmatter: &fm, Name: compiler.SkillFolder(tt.file)}
			if got := summaries(runRule(tt.rule, s, nil)); got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.rule.ID, got, tt.want)
			}
		})
	}
}

// TestUnknownTargetFromGraph: a target the compiler keeps as written is
// graph.Check's unknown-target, said in the author's words at the target,
// with the did-you-mean graph gives (terminals included); a bound's then
// target is placed at the then.
func TestUnknownTargetFromGraph(t *testing.T) {
	src := "# T\n\n1. One. {#ask}\n   - on failure: ends\n2. Two.\n   - on failure: 1 (at most 3 times, then 9)\n"
	s, diags := compiler.Compile("t.md", []byte(src), compiler.Options{})
	var got []string
	for _, d := range Check(s, diags, Options{}) {
		if d.Rule == "unknown-target" {
			got = append(got, fmt.Sprintf("%d:%d %s | %s | %s", d.Range.Start.Line, d.Range.Start.Column, d.Summary, d.Detail, d.Suggestion))
		}
	}
	want := []string{
		`4:18 failure edge of step "ask" goes to "ends", which is not a step | did you mean "end"? a target is a step's number or ID, end (done, complete, finish) or fail (abort, stop); steps here: ask, 2 | end`,
		`6:43 failure edge of step "2" goes to "9", which is not a step | a target is a step's number or ID, end (done, complete, finish) or fail (abort, stop); steps here: ask, 2 | `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
