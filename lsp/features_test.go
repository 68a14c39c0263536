package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/skillc/skillc/compiler"
)

// featureSkill has a mistake, non-ASCII text before targets, an {#id}, a
// numbered step and tools with and without a registry description.
const featureSkill = `---
name: refund
description: Checks a refund. Use when a customer asks about one.
allowed-tools: search_thread ask_user list_refunds
---
# Refund

1. Look « up » 😀 the refund.
   - tools: search_thread, list_refunds
   - on failure: 4
2. Paid « déjà » 😀?
   - yes (« oui »): #clarify
   - no: end
3. Clarify « là » 😀. {#clarify}
   - tools: ask_user
   - on success: ennd
4. Tell the user.
   - wait: the reply
   - 
`

// openSkill opens src as dir/refund/SKILL.md in a new server, with dir's
// .skillc.yaml and tools.json when config is set.
func openSkill(t *testing.T, src string, config bool) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	if config {
		write(t, filepath.Join(dir, ".skillc.yaml"), "tools:\n  files: [tools.json]\n")
		write(t, filepath.Join(dir, "tools.json"), `[{"name": "search_thread", "description": "Search the thread."}, {"name": "ask_user"}, {"name": "list_refunds"}]`)
	}
	path := filepath.Join(dir, "refund", "SKILL.md")
	s := New(Options{})
	uri := "file://" + filepath.ToSlash(path)
	if err := s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Version: 1, Text: src}}); err != nil {
		t.Fatal(err)
	}
	return s, uri
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cursor is the position of the start of needle's nth occurrence in src,
// plus shift bytes.
func cursor(t *testing.T, src, needle string, n, shift int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i < n; i++ {
		j := strings.Index(src[off+1:], needle)
		if j < 0 {
			t.Fatalf("no occurrence %d of %q", n, needle)
		}
		off += j + 1
	}
	return newText(src).position(off + shift)
}

func params(uri string, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: p}
}

// quote is the text an LSP range covers in src, for expectations.
func quote(src string, r protocol.Range) string {
	tx := newText(src)
	return fmt.Sprintf("%d:%q", r.Start.Line, src[tx.offset(r.Start):tx.offset(r.End)])
}

func TestHover(t *testing.T) {
	tests := []struct {
		name, needle string
		n, shift     int
		config       bool
		want         string // "" for no hover
	}{
		{name: "numbered target", needle: "failure: 4", n: 1, shift: len("failure: "), want: "**step 4**: Tell the user.\n\non success → end · on failure → fail\n\nwaits for: the reply"},
		{name: "#id target", needle: "#clarify", n: 1, want: "**step clarify**: Clarify « là » 😀.\n\ntools: ask_user\n\non success → ennd (on success) · on failure → fail"},
		{name: "terminal", needle: "no: end", n: 1, shift: len("no: "), want: "**end**: the plan ends, completed"},
		{name: "step ID", needle: "clarify}", n: 1, want: "**step clarify**: Clarify « là » 😀.\n\ntools: ask_user\n\non success → ennd (on success) · on failure → fail"},
		{name: "tool with a description", needle: "search_thread,", n: 1, config: true, want: "**tool** `search_thread`\n\nSearch the thread."},
		{name: "tool in the registry without one", needle: "list_refunds", n: 2, config: true, want: "in the tool registry of"},
		{name: "tool in allowed-tools, no registry", needle: "ask_user", n: 1, want: "no tool registry is configured"},
		{name: "prose", needle: "Tell", n: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, uri := openSkill(t, featureSkill, tt.config)
			h, err := s.hover(nil, &protocol.HoverParams{TextDocumentPositionParams: params(uri, cursor(t, featureSkill, tt.needle, tt.n, tt.shift))})
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if h != nil {
					t.Fatalf("hover %+v, want none", h)
				}
				return
			}
			if h == nil {
				t.Fatal("no hover")
			}
			got := h.Contents.(protocol.MarkupContent).Value
			if !strings.Contains(got, tt.want) {
				t.Errorf("hover:\n%s\nwant it to contain:\n%s", got, tt.want)
			}
		})
	}
}

func TestDefinition(t *testing.T) {
	tests := []struct {
		name, needle string
		shift        int
		want         string // quote of the location, "" for none
	}{
		{"number to a numbered step", "failure: 4", len("failure: "), `16:"4"`},
		{"#id to {#id}, after non-ASCII text", "#clarify", 0, `13:"clarify"`},
		{"cursor at the end of the target", "#clarify", len("#clarify"), `13:"clarify"`},
		{"terminal: nowhere", "no: end", len("no: "), ""},
		{"unknown target: nowhere", "ennd", 1, ""},
		{"prose: nowhere", "Tell", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, uri := openSkill(t, featureSkill, false)
			loc, err := s.definition(nil, &protocol.DefinitionParams{TextDocumentPositionParams: params(uri, cursor(t, featureSkill, tt.needle, 1, tt.shift))})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if l, ok := loc.(protocol.Location); ok {
				got = quote(featureSkill, l.Range)
			}
			if got != tt.want {
				t.Errorf("definition = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestSymbols(t *testing.T) {
	s, uri := openSkill(t, featureSkill, false)
	var got []string
	for _, sym := range s.symbols(uri) {
		got = append(got, sym.Name+" @ "+quote(featureSkill, sym.SelectionRange))
	}
	want := []string{
		`1. Look « up » 😀 the refund. @ 7:"1"`,
		`2. Paid « déjà » 😀? @ 10:"2"`,
		`clarify. Clarify « là » 😀. @ 13:"clarify"`,
		`4. Tell the user. @ 16:"4"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCompletion(t *testing.T) {
	tests := []struct {
		name, needle string
		shift        int
		config       bool
		want         string // labels, sorted
	}{
		{"edge value", "no: end", len("no: "), false, "1 2 4 clarify end fail"},
		{"edge value, partial", "on success: ennd", len("on success: en"), false, "1 2 4 clarify end fail"},
		{"tools value", "tools: ask_user", len("tools: "), false, "ask_user list_refunds search_thread"},
		{"tools value with a registry", "tools: ask_user", len("tools: "), true, "ask_user list_refunds search_thread"},
		{"allowed-tools, from the registry", "allowed-tools: ", len("allowed-tools: "), false, "ask_user list_refunds search_thread"},
		{"a new bullet: keys", "   - \n", len("   - "), false, "no on failure on success tools wait yes"},
		{"prose", "Tell the", len("Tell "), false, ""},
		{"frontmatter", "name: refund", len("name: "), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, uri := openSkill(t, featureSkill, tt.config)
			res, err := s.completion(nil, &protocol.CompletionParams{TextDocumentPositionParams: params(uri, cursor(t, featureSkill, tt.needle, 1, tt.shift))})
			if err != nil {
				t.Fatal(err)
			}
			var labels []string
			for _, it := range res.([]protocol.CompletionItem) {
				labels = append(labels, it.Label)
			}
			sort.Strings(labels)
			if got := strings.Join(labels, " "); got != tt.want {
				t.Errorf("completion = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCompletionEdit: an item replaces the word being typed, in UTF-16
// units after non-ASCII text.
func TestCompletionEdit(t *testing.T) {
	src := strings.Replace(featureSkill, "yes (« oui »): #clarify", "yes (« oui »): cla", 1)
	s, uri := openSkill(t, src, false)
	p := cursor(t, src, "oui »): cla", 1, len("oui »): cla"))
	res, _ := s.completion(nil, &protocol.CompletionParams{TextDocumentPositionParams: params(uri, p)})
	for _, it := range res.([]protocol.CompletionItem) {
		if it.Label == "clarify" {
			e := it.TextEdit.(protocol.TextEdit)
			if got := quote(src, e.Range); got != `11:"cla"` {
				t.Errorf("the item replaces %s, want the typed word", got)
			}
			return
		}
	}
	t.Error("no clarify item")
}

func TestRename(t *testing.T) {
	tests := []struct {
		name, needle string
		shift        int
		to           string
		want         string // the edits as quote→new text, or the error
	}{
		{"{#id} and its targets", "clarify}", 0, "ask",
			`13:"clarify"→"ask" 11:"#clarify"→"#ask"`},
		{"from a target", "#clarify", 1, "ask",
			`13:"clarify"→"ask" 11:"#clarify"→"#ask"`},
		{"a numbered step gets {#id}", "failure: 4", len("failure: "), "tell",
			`16:""→" {#tell}" 9:"4"→"tell"`},
		{"reserved", "clarify}", 0, "end", "error"},
		{"taken", "clarify}", 0, "4", "error"},
		{"not an ID", "clarify}", 0, "a b", "error"},
		{"nothing to rename", "Tell", 0, "x", "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, uri := openSkill(t, featureSkill, false)
			p := params(uri, cursor(t, featureSkill, tt.needle, 1, tt.shift))
			we, err := s.rename(nil, &protocol.RenameParams{TextDocumentPositionParams: p, NewName: tt.to})
			if err != nil {
				if tt.want != "error" {
					t.Fatalf("rename: %v", err)
				}
				return
			}
			var got []string
			for _, e := range we.Changes[uri] {
				got = append(got, quote(featureSkill, e.Range)+"→"+fmt.Sprintf("%q", e.NewText))
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("edits = %s, want %s", strings.Join(got, " "), tt.want)
			}
			if tt.want != "error" {
				pr, _ := s.prepareRename(nil, &protocol.PrepareRenameParams{TextDocumentPositionParams: p})
				if _, ok := pr.(protocol.RangeWithPlaceholder); !ok {
					t.Errorf("prepareRename = %v, want a range", pr)
				}
			}
		})
	}
}

// TestRenameThen: the "then" target of a loop's bound is renamed too.
func TestRenameThen(t *testing.T) {
	src := "# T\n\n1. Look. {#look}\n2. Ask.\n   - no: 1 (at most 3 times, then 3)\n3. Tell.\n"
	s, uri := openSkill(t, src, false)
	p := params(uri, cursor(t, src, "3. Tell", 1, 0))
	we, err := s.rename(nil, &protocol.RenameParams{TextDocumentPositionParams: p, NewName: "tell"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range we.Changes[uri] {
		got = append(got, quote(src, e.Range)+"→"+e.NewText)
	}
	if want := `5:""→ {#tell} 4:"3"→tell`; strings.Join(got, " ") != want {
		t.Errorf("edits = %s, want %s", strings.Join(got, " "), want)
	}
}

func TestCodeAction(t *testing.T) {
	s, uri := openSkill(t, featureSkill, false)
	at := cursor(t, featureSkill, "ennd", 1, 2)
	tests := []struct {
		name string
		rng  protocol.Range
		only []protocol.CodeActionKind
		want string
	}{
		{"on the finding", protocol.Range{Start: at, End: at}, nil, `quickfix 15:"ennd"→"end" source.fixAll.skillc 15:"ennd"→"end"`},
		{"quickfix asked for", protocol.Range{Start: at, End: at}, []protocol.CodeActionKind{"quickfix"}, `quickfix 15:"ennd"→"end"`},
		{"only source actions: the fix-all", protocol.Range{Start: at, End: at}, []protocol.CodeActionKind{"source"}, `source.fixAll.skillc 15:"ennd"→"end"`},
		{"elsewhere: only the document's fix-all", protocol.Range{Start: pos(0, 0), End: pos(1, 0)}, nil, `source.fixAll.skillc 15:"ennd"→"end"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.codeAction(nil, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: tt.rng,
				Context: protocol.CodeActionContext{Only: tt.only}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range res.([]protocol.CodeAction) {
				for _, e := range a.Edit.Changes[uri] {
					got = append(got, fmt.Sprintf("%s %s→%q", *a.Kind, quote(featureSkill, e.Range), e.NewText))
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("actions = %s, want %s", strings.Join(got, " "), tt.want)
			}
		})
	}
}

// TestDisjoint: the fix-all action never sends overlapping edits, and
// keeps or drops each fix whole.
func TestDisjoint(t *testing.T) {
	e := func(start, end int, s string) compiler.Edit {
		return compiler.Edit{Range: compiler.Range{Start: compiler.Pos{Byte: start}, End: compiler.Pos{Byte: end}}, NewText: s}
	}
	fix := func(edits ...compiler.Edit) compiler.Fix { return compiler.Fix{Safe: true, Edits: edits} }
	tests := []struct {
		name  string
		fixes []compiler.Fix
		want  string
	}{
		{"apart, out of order", []compiler.Fix{fix(e(5, 6, "b")), fix(e(0, 1, "a"))}, "a b"},
		{"overlapping: the first wins", []compiler.Fix{fix(e(0, 4, "a")), fix(e(2, 6, "b"))}, "a"},
		{"touching", []compiler.Fix{fix(e(0, 2, "a")), fix(e(2, 4, "b"))}, "a b"},
		{"two inserts at one place", []compiler.Fix{fix(e(3, 3, "a")), fix(e(3, 3, "b"))}, "a"},
		{"a fix of two edits, one clashing: dropped whole", []compiler.Fix{fix(e(0, 2, "a")), fix(e(1, 1, "b1"), e(8, 9, "b2")), fix(e(5, 6, "c"))}, "a c"},
		{"a fix of two edits kept whole", []compiler.Fix{fix(e(8, 9, "a2"), e(0, 1, "a1")), fix(e(4, 5, "b"))}, "a1 b a2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, x := range disjoint(tt.fixes) {
				got = append(got, x.NewText)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("got %v, want %s", got, tt.want)
			}
		})
	}
}

// TestBadDocuments: a document that does not compile, or barely, still
// gets its diagnostics, and every feature answers at every position
// without a panic.
func TestBadDocuments(t *testing.T) {
	docs := map[string]string{
		"empty":                "",
		"not UTF-8":            "# T\n\n1. \xff\xfe step\n   - on failure: \xc3\n",
		"NUL bytes":            "# T\x00\n\n1. a\x00b\n",
		"BOM":                  "\ufeff# T\n\n1. Look.\n   - no: 1\n",
		"unclosed frontmatter": "---\nname: [x\n# T\n1. a\n",
		"deep nesting":         strings.Repeat("- ", 3000) + "x\n",
		"CR only":              "# T\r1. a\r   - no: end\r",
		"only a target":        "1. x\n   - no:",
	}
	for name, src := range docs {
		t.Run(name, func(t *testing.T) {
			s, uri := openSkill(t, src, false)
			var published int
			s.notify = func(method string, _ any) {
				if method == protocol.ServerTextDocumentPublishDiagnostics {
					published++
				}
			}
			s.lint(s.doc(uri))
			if published != 1 {
				t.Errorf("published %d times, want 1", published)
			}
			tx := newText(src)
			for line := 0; line <= len(tx.starts); line++ {
				for char := 0; char <= 12; char++ {
					p := params(uri, pos(uint32(line), uint32(char)))
					_, _ = s.hover(nil, &protocol.HoverParams{TextDocumentPositionParams: p})
					_, _ = s.definition(nil, &protocol.DefinitionParams{TextDocumentPositionParams: p})
					_, _ = s.completion(nil, &protocol.CompletionParams{TextDocumentPositionParams: p})
					_, _ = s.prepareRename(nil, &protocol.PrepareRenameParams{TextDocumentPositionParams: p})
					_, _ = s.rename(nil, &protocol.RenameParams{TextDocumentPositionParams: p, NewName: "x"})
					_, _ = s.codeAction(nil, &protocol.CodeActionParams{TextDocument: p.TextDocument, Range: protocol.Range{Start: p.Position, End: p.Position}})
				}
			}
			b, err := json.Marshal(s.symbols(uri))
			if err != nil {
				t.Fatal(err)
			}
			_ = b
		})
	}
}

// TestRenameCompiles: after the rename's edits, the skill compiles to the
// same graph with the step under its new ID, in list and heading form.
func TestRenameCompiles(t *testing.T) {
	tests := []struct {
		name, src, needle, to string
	}{
		{"list, numbered", "# T\n\n1. Look.  \n2. Ask.\n   - no: 1\n   - yes: step 1\n", "1. Look", "look"},
		{"list, {#id}", "# T\n\n1. Look. {#look}\n2. Ask.\n   - no: #look\n", "look}", "check"},
		{"heading form", "# T\n\n## Step 1: Look\n\nText.\n\n## Step 2: Ask\n\n- no: 1\n", "1: Look", "look"},
		{"loop bound", "# T\n\n1. Look.\n2. Ask.\n   - no: 1 (at most 2 times, then 3)\n3. Tell.\n", "3. Tell", "tell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, uri := openSkill(t, tt.src, false)
			before := s.doc(uri).skill.Template()
			p := params(uri, cursor(t, tt.src, tt.needle, 1, 0))
			we, err := s.rename(nil, &protocol.RenameParams{TextDocumentPositionParams: p, NewName: tt.to})
			if err != nil {
				t.Fatal(err)
			}
			tx := newText(tt.src)
			edits := we.Changes[uri]
			// Apply from the end so earlier offsets hold.
			sort.Slice(edits, func(i, j int) bool { return tx.offset(edits[i].Range.Start) > tx.offset(edits[j].Range.Start) })
			for _, e := range edits {
				tx = tx.apply(e.Range, e.NewText)
			}
			sk, diags := compiler.Compile("t.md", []byte(tx.src), compiler.Options{})
			if diags.HasErrors() {
				t.Fatalf("renamed text has errors: %v\n%s", diags, tx.src)
			}
			after := sk.Template()
			renamed := map[string]string{}
			for i := range before.Steps {
				renamed[before.Steps[i].ID] = after.Steps[i].ID
			}
			if !contains(values(renamed), tt.to) {
				t.Fatalf("no step %q after the rename:\n%s", tt.to, tx.src)
			}
			for i, b := range before.Steps {
				a := after.Steps[i]
				if renamed[b.NextOnSuccess] != a.NextOnSuccess && b.NextOnSuccess != a.NextOnSuccess ||
					renamed[b.NextOnFailure] != a.NextOnFailure && b.NextOnFailure != a.NextOnFailure ||
					renamed[b.SuccessThen] != a.SuccessThen && b.SuccessThen != a.SuccessThen ||
					renamed[b.FailureThen] != a.FailureThen && b.FailureThen != a.FailureThen {
					t.Errorf("step %s: edges %+v became %+v\n%s", b.ID, b, a, tx.src)
				}
			}
		})
	}
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// TestRepositorySkills: every skill under the repository's testdata opens,
// and every target in it leads to its step, both by definition and in its
// hover; every feature answers at each line's start and its targets.
func TestRepositorySkills(t *testing.T) {
	var files []string
	_ = filepath.WalkDir("../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no skills under ../testdata")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := New(Options{})
		abs, _ := filepath.Abs(f)
		uri := "file://" + filepath.ToSlash(abs)
		if err := s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Text: string(src)}}); err != nil {
			t.Fatal(err)
		}
		doc := s.doc(uri)
		for _, st := range doc.skill.Steps {
			for _, e := range []compiler.Edge{st.Success, st.Failure} {
				target := doc.skill.Step(e.Target)
				if !e.Explicit || e.TargetRange.IsZero() || target == nil {
					continue
				}
				p := params(uri, doc.text.position(e.TargetRange.Start.Byte))
				loc, _ := s.definition(nil, &protocol.DefinitionParams{TextDocumentPositionParams: p})
				l, ok := loc.(protocol.Location)
				if !ok || l.Range != doc.text.rangeOf(stepAnchor(target)) {
					t.Errorf("%s:%d: definition of %q = %v, want step %s", f, e.TargetRange.Start.Line, e.Target, loc, target.ID)
				}
				h, _ := s.hover(nil, &protocol.HoverParams{TextDocumentPositionParams: p})
				if h == nil || !strings.HasPrefix(h.Contents.(protocol.MarkupContent).Value, "**step "+target.ID+"**") {
					t.Errorf("%s:%d: hover of %q = %v", f, e.TargetRange.Start.Line, e.Target, h)
				}
			}
		}
		for line := range doc.text.starts {
			p := params(uri, pos(uint32(line), 0))
			_, _ = s.completion(nil, &protocol.CompletionParams{TextDocumentPositionParams: p})
			_, _ = s.codeAction(nil, &protocol.CodeActionParams{TextDocument: p.TextDocument, Range: protocol.Range{Start: p.Position, End: pos(uint32(line+1), 0)}})
		}
		_ = s.symbols(uri)
	}
}

// TestFixAll: the source action gathers the safe fixes of the whole file,
// whatever range was asked for, and none of the unsafe ones. The safe fix
// is added by hand, as a rule would report it.
func TestFixAll(t *testing.T) {
	s, uri := openSkill(t, featureSkill, false)
	doc := s.doc(uri)
	start := strings.Index(featureSkill, "Tell")
	lines := compiler.NewLines([]byte(featureSkill))
	doc.diags = append(doc.diags, compiler.Diagnostic{Rule: "test", Range: lines.Range(start, start+4),
		Fixes: []compiler.Fix{{Title: "say Ask", Safe: true, Edits: []compiler.Edit{{Range: lines.Range(start, start+4), NewText: "Ask"}}}}})
	res, err := s.codeAction(nil, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{"source.fixAll"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range res.([]protocol.CodeAction) {
		for _, e := range a.Edit.Changes[uri] {
			got = append(got, fmt.Sprintf("%s %s→%q", *a.Kind, quote(featureSkill, e.Range), e.NewText))
		}
	}
	if want := `source.fixAll.skillc 15:"ennd"→"end" source.fixAll.skillc 16:"Tell"→"Ask"`; strings.Join(got, " ") != want {
		t.Errorf("actions = %s, want %s", strings.Join(got, " "), want)
	}
}

func TestReferences(t *testing.T) {
	tests := []struct {
		name, needle string
		shift        int
		decl         bool
		want         string
	}{
		{"from {#id}, with the declaration", "clarify}", 0, true, `13:"clarify" 11:"#clarify"`},
		{"from a target", "#clarify", 1, false, `11:"#clarify"`},
		{"a numbered step", "4. Tell", 0, false, `9:"4"`},
		{"nothing", "Tell", 0, true, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, uri := openSkill(t, featureSkill, false)
			locs, err := s.references(nil, &protocol.ReferenceParams{TextDocumentPositionParams: params(uri, cursor(t, featureSkill, tt.needle, 1, tt.shift)),
				Context: protocol.ReferenceContext{IncludeDeclaration: tt.decl}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range locs {
				got = append(got, quote(featureSkill, l.Range))
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("references = %s, want %s", strings.Join(got, " "), tt.want)
			}
		})
	}
}
