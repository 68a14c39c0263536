package lsp

import (
	"testing"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// FuzzPosition: converting an offset to a position and back lands on the
// same offset, at every character boundary of any text; any position, in
// range or not, converts to an offset inside the text.
func FuzzPosition(f *testing.F) {
	for _, s := range []string{"", "a\nb", "é😀\r\nx", "\xff\xfe\n\x00", "\r\r\n\n", "😀😀"} {
		f.Add(s, uint32(1), uint32(3))
	}
	f.Fuzz(func(t *testing.T, src string, line, char uint32) {
		tx := newText(src)
		for off := 0; off <= len(src); off++ {
			if off < len(src) && !utf8.RuneStart(src[off]) {
				continue
			}
			if off > 0 && src[off-1] == '\r' && off < len(src) && src[off] == '\n' {
				continue // between \r and \n: the position is the line's end, before \r
			}
			if got := tx.offset(tx.position(off)); got != off {
				t.Fatalf("offset(position(%d)) = %d in %q", off, got, src)
			}
		}
		if off := tx.offset(protocol.Position{Line: line, Character: char}); off < 0 || off > len(src) {
			t.Fatalf("offset(%d:%d) = %d, outside %q", line, char, off, src)
		}
	})
}

// FuzzFeatures: any text opens, lints and answers every feature at a
// position without a panic.
func FuzzFeatures(f *testing.F) {
	f.Add("# T\n\n1. Look. {#look}\n   - on failure: #lok\n   - tools: a, b\n2. Ask.\n   - yes: 1 (at most 2 times, then 3)\n3. End.\n", uint32(3), uint32(18))
	f.Add("---\nallowed-tools: x\n---\n## Step 1: A\n- no: 2\n## Step 2: B\n", uint32(4), uint32(6))
	f.Fuzz(func(t *testing.T, src string, line, char uint32) {
		s := New(Options{})
		uri := "file:///fuzz/skill/SKILL.md"
		_ = s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Text: src}})
		p := params(uri, protocol.Position{Line: line, Character: char})
		_, _ = s.hover(nil, &protocol.HoverParams{TextDocumentPositionParams: p})
		_, _ = s.definition(nil, &protocol.DefinitionParams{TextDocumentPositionParams: p})
		_, _ = s.completion(nil, &protocol.CompletionParams{TextDocumentPositionParams: p})
		_, _ = s.rename(nil, &protocol.RenameParams{TextDocumentPositionParams: p, NewName: "new-id"})
		_, _ = s.codeAction(nil, &protocol.CodeActionParams{TextDocument: p.TextDocument, Range: protocol.Range{Start: p.Position, End: protocol.Position{Line: line + 2}}})
		_ = s.symbols(uri)
	})
}
