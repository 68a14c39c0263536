package lsp

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// codeActionFixAll is the source action that applies every safe fix of
// the document, for an editor's "fix all" or fix on save.
const codeActionFixAll = protocol.CodeActionKind("source.fixAll.skillc")

// codeAction offers the fixes of the findings in the requested range, one
// action per fix (lint checked each before offering it), and the safe
// ones of the whole document as one source.fixAll action.
func (s *Server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	doc := s.doc(p.TextDocument.URI)
	actions := []protocol.CodeAction{}
	if doc == nil {
		return actions, nil
	}
	lo, hi := doc.text.offset(p.Range.Start), doc.text.offset(p.Range.End)
	wants := func(kind protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if kind == o || strings.HasPrefix(string(kind), string(o)+".") {
				return true
			}
		}
		return false
	}
	quickfix := protocol.CodeActionKindQuickFix
	var safe []compiler.Fix
	for _, d := range doc.diags {
		if !doc.owns(d) {
			continue
		}
		for i, f := range d.Fixes {
			if len(f.Edits) == 0 {
				continue
			}
			if f.Safe {
				safe = append(safe, f)
			}
			if !wants(quickfix) || d.Range.Start.Byte > hi || d.Range.End.Byte < lo {
				continue
			}
			title := f.Title
			if !f.Safe {
				title += " (unsafe: check the meaning)"
			}
			preferred := i == 0 && f.Safe
			actions = append(actions, protocol.CodeAction{
				Title: title, Kind: &quickfix, IsPreferred: &preferred,
				Diagnostics: []protocol.Diagnostic{lspDiagnostic(doc.text, d)},
				Edit:        doc.workspaceEdit(f.Edits),
			})
		}
	}
	if fixAll := codeActionFixAll; len(safe) > 0 && wants(fixAll) {
		actions = append(actions, protocol.CodeAction{Title: "skillc: apply every safe fix", Kind: &fixAll, Edit: doc.workspaceEdit(disjoint(safe))})
	}
	return actions, nil
}

// owns reports whether diag is about the document, whose file its fixes
// edit: a finding is placed, and a fix offered, only in the text the
// editor has.
func (d *document) owns(diag compiler.Diagnostic) bool {
	return diag.File == "" || diag.File == d.path
}

// disjoint is the edits of the fixes that overlap no fix kept before
// them, in file order: two findings may fix the same text, LSP refuses
// overlapping edits, and a fix's edits are applied all together or not at
// all.
func disjoint(fixes []compiler.Fix) []compiler.Edit {
	first := func(f compiler.Fix) int {
		m := f.Edits[0].Range.Start.Byte
		for _, e := range f.Edits {
			m = min(m, e.Range.Start.Byte)
		}
		return m
	}
	sort.SliceStable(fixes, func(i, j int) bool { return first(fixes[i]) < first(fixes[j]) })
	var kept []compiler.Edit
	overlaps := func(e compiler.Edit) bool {
		for _, k := range kept {
			a0, a1, b0, b1 := e.Range.Start.Byte, e.Range.End.Byte, k.Range.Start.Byte, k.Range.End.Byte
			// Two inserts at one place overlap too: their order is not
			// defined.
			if a0 < b1 && b0 < a1 || a0 == b0 {
				return true
			}
		}
		return false
	}
	for _, f := range fixes {
		clash := false
		for _, e := range f.Edits {
			clash = clash || overlaps(e)
		}
		if !clash {
			kept = append(kept, f.Edits...)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Range.Start.Byte < kept[j].Range.Start.Byte })
	return kept
}

func (d *document) workspaceEdit(edits []compiler.Edit) *protocol.WorkspaceEdit {
	out := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		out[i] = protocol.TextEdit{Range: d.text.rangeOf(e.Range), NewText: e.NewText}
	}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: out}}
}

// ref is what stands at a position of a skill: a step's ID, an edge's
// target, or a tool name.
type ref struct {
	kind refKind
	rng  compiler.Range
	step *compiler.Step // the step written there, or the step it targets
	name string         // the target or tool as resolved
}

type refKind int

const (
	refNone refKind = iota
	refStepID
	refTarget
	refTool
)

// within reports whether off is in r, its end included: the cursor right
// after a word is still on it.
func within(r compiler.Range, off int) bool {
	return !r.IsZero() && r.Start.Byte <= off && off <= r.End.Byte
}

func (d *document) refAt(off int) ref {
	sk := d.skill
	if sk == nil {
		return ref{}
	}
	if fm := sk.Frontmatter; fm != nil {
		for _, t := range fm.AllowedTools {
			if within(t.Range, off) {
				return ref{kind: refTool, rng: t.Range, name: t.Name}
			}
		}
	}
	// Every step is looked at, not only the one whose range holds off: a
	// step's annotations can lie outside it (a list split by bullets
	// indented too little, FORMAT 6.2).
	for _, st := range sk.Steps {
		if within(st.IDRange, off) {
			return ref{kind: refStepID, rng: st.IDRange, step: st, name: st.ID}
		}
		for _, e := range []*compiler.Edge{&st.Success, &st.Failure} {
			if e.Explicit && within(e.TargetRange, off) {
				return ref{kind: refTarget, rng: e.TargetRange, name: e.Target, step: sk.Step(e.Target)}
			}
		}
		for _, t := range st.Tools {
			if within(t.Range, off) {
				return ref{kind: refTool, rng: t.Range, name: t.Name}
			}
		}
	}
	return ref{}
}

func (s *Server) at(p protocol.TextDocumentPositionParams) (*document, ref) {
	doc := s.doc(p.TextDocument.URI)
	if doc == nil {
		return nil, ref{}
	}
	return doc, doc.refAt(doc.text.offset(p.Position))
}

// hover shows a target's or step ID's step (goal, tools, edges), a
// terminal's meaning, or a tool's description from the configured
// registry.
func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	doc, r := s.at(p.TextDocumentPositionParams)
	var md string
	switch {
	case r.kind == refTarget && r.name == graph.End:
		md = "**end**: the plan ends, completed"
	case r.kind == refTarget && r.name == graph.Fail:
		md = "**fail**: the plan ends, failed"
	case r.kind == refTarget && r.step != nil, r.kind == refStepID:
		md = doc.describeStep(r.step)
	case r.kind == refTool:
		md = doc.describeTool(r.name)
	default:
		return nil, nil
	}
	rng := doc.text.rangeOf(r.rng)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}, Range: &rng}, nil
}

func (d *document) describeStep(st *compiler.Step) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**step %s**: %s", st.ID, st.Goal)
	t := d.skill.Template()
	for i, s := range d.skill.Steps {
		if s != st || i >= len(t.Steps) {
			continue
		}
		ts := t.Steps[i]
		if len(ts.RecommendedTools) > 0 {
			fmt.Fprintf(&b, "\n\ntools: %s", strings.Join(ts.RecommendedTools, ", "))
		}
		fmt.Fprintf(&b, "\n\non success → %s%s · on failure → %s%s", ts.NextOnSuccess, label(ts.SuccessLabel), ts.NextOnFailure, label(ts.FailureLabel))
		if ts.WaitFor != "" {
			fmt.Fprintf(&b, "\n\nwaits for: %s", ts.WaitFor)
		}
	}
	return b.String()
}

func label(l string) string {
	if l == "" {
		return ""
	}
	return " (" + l + ")"
}

func (d *document) describeTool(name string) string {
	md := fmt.Sprintf("**tool** `%s`", name)
	cfg := d.cfg
	switch {
	case cfg != nil && cfg.ToolDescriptions[name] != "":
		md += "\n\n" + cfg.ToolDescriptions[name]
	case cfg != nil && cfg.HasTools && contains(cfg.Tools, name):
		md += fmt.Sprintf("\n\nin the tool registry of %s, without a description", cfg.Path)
	case cfg != nil && cfg.HasTools:
		md += fmt.Sprintf("\n\nnot in the tool registry of %s", cfg.Path)
	default:
		md += "\n\nno tool registry is configured (.skillc.yaml tools: files: ...), so there is no description"
	}
	return md
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// definition goes from a target to the step it names.
func (s *Server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	doc, r := s.at(p.TextDocumentPositionParams)
	if r.kind != refTarget || r.step == nil {
		return nil, nil
	}
	return protocol.Location{URI: doc.uri, Range: doc.text.rangeOf(stepAnchor(r.step))}, nil
}

// stepAnchor is where a step is shown: its ID as written, else its goal.
func stepAnchor(st *compiler.Step) compiler.Range {
	if !st.IDRange.IsZero() {
		return st.IDRange
	}
	if !st.GoalRange.IsZero() {
		return st.GoalRange
	}
	return st.Range
}

// references are the places that name a step: its ID (when the client
// asks for the declaration too) and every annotation target to it.
func (s *Server) references(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	doc, r := s.at(p.TextDocumentPositionParams)
	st := renamable(r)
	out := []protocol.Location{}
	if st == nil {
		return out, nil
	}
	if p.Context.IncludeDeclaration {
		out = append(out, protocol.Location{URI: doc.uri, Range: doc.text.rangeOf(stepAnchor(st))})
	}
	for _, other := range doc.skill.Steps {
		for _, e := range []compiler.Edge{other.Success, other.Failure} {
			if e.Explicit && e.Target == st.ID && !e.TargetRange.IsZero() {
				out = append(out, protocol.Location{URI: doc.uri, Range: doc.text.rangeOf(e.TargetRange)})
			}
		}
	}
	return out, nil
}

// symbols are the steps, in written order, as the document's outline.
func (s *Server) symbols(uri string) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	doc := s.doc(uri)
	if doc == nil || doc.skill == nil {
		return out
	}
	for _, st := range doc.skill.Steps {
		name := st.ID + ". " + st.Goal
		if len([]rune(name)) > 80 {
			name = string([]rune(name)[:79]) + "…"
		}
		whole := st.Range
		if whole.IsZero() {
			whole = stepAnchor(st)
		}
		sel := stepAnchor(st)
		rng, selRng := doc.text.rangeOf(whole), doc.text.rangeOf(sel)
		if !within(whole, sel.Start.Byte) || !within(whole, sel.End.Byte) {
			rng = selRng // LSP wants the selection inside the range
		}
		var detail *string
		if tools := st.ToolNames(); len(tools) > 0 {
			d := "tools: " + strings.Join(tools, ", ")
			detail = &d
		}
		out = append(out, protocol.DocumentSymbol{Name: name, Detail: detail, Kind: protocol.SymbolKindEvent, Range: rng, SelectionRange: selRng})
	}
	return out
}

// The completion contexts, read from the line up to the cursor: an edge's
// value (step IDs), a tools value or allowed-tools (tool names), and a
// bullet's key (edge and tools keys). The regexps are compiled on first
// use, not in every process that links the language server.
var (
	bulletValue = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*[-*+]\s+([A-Za-z][A-Za-z ]*?)\s*(?:\([^)]*\))?\s*(?::|->|→|=>)\s*(.*)$`)
	})
	bulletKey   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*[-*+]\s+)([A-Za-z][A-Za-z ]*)?$`) })
	allowedLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^allowed-tools:\s*(.*)$`) })
	toolKeys    = map[string]bool{"tools": true, "tool": true, "use": true, "uses": true}
	// edgeKeys are FORMAT's keys of the success and failure edges.
	edgeKeys = []string{"on success", "success", "ok", "pass", "yes", "if yes", "then",
		"on failure", "failure", "fail", "on error", "error", "no", "if no", "else", "otherwise"}
	// keysOffered are the keys completion offers: the usual spelling of
	// each meaning, not every synonym.
	keysOffered = []string{"tools", "on success", "on failure", "yes", "no", "wait"}
)

func (s *Server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	doc := s.doc(p.TextDocument.URI)
	items := []protocol.CompletionItem{}
	if doc == nil || doc.skill == nil {
		return items, nil
	}
	off := doc.text.offset(p.Position)
	lineStart := doc.text.starts[int(min(int(p.Position.Line), len(doc.text.starts)-1))]
	before := doc.text.src[lineStart:off]
	// The word being typed, which the item replaces.
	w := len(before)
	for w > 0 && strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-", rune(before[w-1])) {
		w--
	}
	word := doc.text.rangeOfBytes(lineStart+w, off)
	inFM := doc.skill.Frontmatter != nil && within(doc.skill.Frontmatter.Range, off)

	if m := allowedLine().FindStringSubmatch(before); inFM && m != nil {
		return doc.toolItems(word), nil
	}
	if inFM {
		return items, nil
	}
	if m := bulletValue().FindStringSubmatch(before); m != nil {
		key := strings.ToLower(m[1])
		switch {
		case toolKeys[key]:
			return doc.toolItems(word), nil
		case contains(edgeKeys, key):
			return doc.targetItems(word), nil
		}
		return items, nil
	}
	if m := bulletKey().FindStringSubmatch(before); m != nil && doc.inStep(off) {
		keyRange := doc.text.rangeOfBytes(lineStart+len(m[1]), off)
		kind := protocol.CompletionItemKindKeyword
		for _, k := range keysOffered {
			items = append(items, protocol.CompletionItem{Label: k, Kind: &kind,
				TextEdit: protocol.TextEdit{Range: keyRange, NewText: k + ": "}})
		}
	}
	return items, nil
}

// inStep reports whether off is inside a step, or just after the last one
// (a bullet being added to it).
func (d *document) inStep(off int) bool {
	for _, st := range d.skill.Steps {
		if st.Range.Start.Byte <= off && off <= st.Range.End.Byte+1 {
			return true
		}
	}
	return false
}

func (d *document) targetItems(word protocol.Range) []protocol.CompletionItem {
	kind := protocol.CompletionItemKindReference
	items := []protocol.CompletionItem{}
	for i, st := range d.skill.Steps {
		goal := st.Goal
		sort := fmt.Sprintf("%04d", i)
		items = append(items, protocol.CompletionItem{Label: st.ID, Kind: &kind, Detail: &goal, SortText: &sort,
			TextEdit: protocol.TextEdit{Range: word, NewText: st.ID}})
	}
	term := protocol.CompletionItemKindKeyword
	for _, t := range []struct{ id, what string }{{graph.End, "the plan ends, completed"}, {graph.Fail, "the plan ends, failed"}} {
		what, sort := t.what, "9999"+t.id
		items = append(items, protocol.CompletionItem{Label: t.id, Kind: &term, Detail: &what, SortText: &sort,
			TextEdit: protocol.TextEdit{Range: word, NewText: t.id}})
	}
	return items
}

// toolItems are the tool names the skill may use: its allowed-tools, the
// config's registry, and the tools its steps already name.
func (d *document) toolItems(word protocol.Range) []protocol.CompletionItem {
	seen := map[string]bool{}
	var names []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if fm := d.skill.Frontmatter; fm != nil {
		for _, t := range fm.AllowedTools {
			add(t.Name)
		}
	}
	if d.cfg != nil {
		for _, t := range d.cfg.Tools {
			add(t)
		}
	}
	for _, st := range d.skill.Steps {
		for _, t := range st.Tools {
			add(t.Name)
		}
	}
	kind := protocol.CompletionItemKindFunction
	items := []protocol.CompletionItem{}
	for _, n := range names {
		item := protocol.CompletionItem{Label: n, Kind: &kind, TextEdit: protocol.TextEdit{Range: word, NewText: n}}
		if d.cfg != nil && d.cfg.ToolDescriptions[n] != "" {
			desc := d.cfg.ToolDescriptions[n]
			item.Detail = &desc
		}
		items = append(items, item)
	}
	return items
}

// rangeOfBytes is the LSP range of bytes [start, end).
func (t *text) rangeOfBytes(start, end int) protocol.Range {
	return protocol.Range{Start: t.position(start), End: t.position(end)}
}

// prepareRename accepts a step's ID or a target that names a step.
func (s *Server) prepareRename(_ *glsp.Context, p *protocol.PrepareRenameParams) (any, error) {
	doc, r := s.at(p.TextDocumentPositionParams)
	if st := renamable(r); st != nil {
		return protocol.RangeWithPlaceholder{Range: doc.text.rangeOf(r.rng), Placeholder: st.ID}, nil
	}
	return nil, nil
}

func renamable(r ref) *compiler.Step {
	if (r.kind == refStepID || r.kind == refTarget) && r.step != nil {
		return r.step
	}
	return nil
}

// rename gives a step a new ID and rewrites every annotation target that
// names it. A step numbered by its place in the list keeps its number
// and gets {#new-id}: the number cannot change alone.
func (s *Server) rename(_ *glsp.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	doc, r := s.at(p.TextDocumentPositionParams)
	st := renamable(r)
	if st == nil {
		return nil, fmt.Errorf("skillc: rename a step's ID or a target that names a step")
	}
	edits, err := doc.renameEdits(st, p.NewName)
	if err != nil {
		return nil, err
	}
	return doc.workspaceEdit(edits), nil
}

func (d *document) renameEdits(st *compiler.Step, newID string) ([]compiler.Edit, error) {
	if pr := graph.CheckID(newID); pr != nil {
		return nil, fmt.Errorf("skillc: %s", pr.Message)
	}
	if other := d.skill.Step(newID); other != nil && other != st {
		return nil, fmt.Errorf("skillc: step %q exists already (line %d)", newID, other.Line())
	}
	src := d.text.src
	var edits []compiler.Edit
	if st.ExplicitID {
		edits = append(edits, compiler.Edit{Range: st.IDRange, NewText: newID})
	} else {
		// {#id} goes at the end of the step's first line (list form) or
		// of its heading, after any trailing space.
		line := int(d.text.position(st.IDRange.Start.Byte).Line)
		end := d.text.lineEnd(line)
		for end > d.text.starts[line] && (src[end-1] == ' ' || src[end-1] == '\t') {
			end--
		}
		edits = append(edits, compiler.Edit{Range: d.byteRange(end, end), NewText: " {#" + newID + "}"})
	}
	for _, other := range d.skill.Steps {
		for _, e := range []compiler.Edge{other.Success, other.Failure} {
			if !e.Explicit || e.Target != st.ID || e.TargetRange.IsZero() {
				continue
			}
			to := newID
			if strings.HasPrefix(src[e.TargetRange.Start.Byte:], "#") {
				to = "#" + newID
			}
			edits = append(edits, compiler.Edit{Range: e.TargetRange, NewText: to})
		}
		for _, e := range []compiler.Edge{other.Success, other.Failure} {
			if e.Then() != st.ID || e.Bound.Range.IsZero() {
				continue
			}
			// "(at most 3 times, then 6)": the target after "then".
			b := e.Bound.Range.Start.Byte
			if m := thenTarget().FindStringSubmatchIndex(src[b:e.Bound.Range.End.Byte]); m != nil {
				edits = append(edits, compiler.Edit{Range: d.byteRange(b+m[2], b+m[3]), NewText: newID})
			}
		}
	}
	return edits, nil
}

var thenTarget = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bthen\s+(?:go to\s+|step\s+)?#?([A-Za-z0-9_.-]+)`)
})

// byteRange is a skillc range of bytes [start, end), with byte offsets
// only: what workspaceEdit converts.
func (d *document) byteRange(start, end int) compiler.Range {
	return compiler.Range{Start: compiler.Pos{Byte: start, Line: 1, Column: 1}, End: compiler.Pos{Byte: end, Line: 1, Column: 1}}
}
