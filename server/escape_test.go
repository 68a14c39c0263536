package server_test

import (
	"strings"
	"testing"
)

// TestToolTextEscapesControls: a title and goals with terminal controls
// come back in the tools' checklist text escaped, as a client may print
// that text to a terminal; the structured plan keeps them as given (JSON
// escapes them on the wire).
func TestToolTextEscapesControls(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.client("alice", "chat-1")
	p, txt := ok(t, cs, "make_plan", map[string]any{"title": "\x1b]0;pwned\x07", "steps": []map[string]any{{"goal": "Clear\x1b[2J."}, {"goal": "C1 \u009b2J."}}})
	for _, want := range []string{`\x1b]0;pwned\x07`, `Clear\x1b[2J.`, `C1 \u009b2J.`} {
		if !strings.Contains(txt, want) {
			t.Errorf("checklist text lacks %q:\n%s", want, txt)
		}
	}
	if strings.ContainsAny(txt, "\x1b\x07\u009b") {
		t.Errorf("a raw control character in the text:\n%q", txt)
	}
	if p.Title != "\x1b]0;pwned\x07" {
		t.Errorf("structured title %q, want it as given", p.Title)
	}
}
