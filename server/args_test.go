package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBadArguments: view_plan, update_plan and close_plan decode their
// arguments themselves (not through the SDK's generic schema validation),
// so every input the advertised schema refuses is refused here too, with a
// message that names the argument and says what it should be, and nothing
// changes.
func TestBadArguments(t *testing.T) {
	tests := []struct {
		tool string
		args string   // raw JSON arguments
		want []string // substrings of the message
	}{
		{"update_plan", `{"check": ["1"], "user": "bob"}`, []string{`"user"`, "check, uncheck, fail, skip"}},
		{"update_plan", `{"CHECK": ["1"]}`, []string{`"CHECK"`}},
		{"update_plan", `{"Check": ["1"]}`, []string{`"Check"`}},
		{"update_plan", `{"check": "1"}`, []string{"check", "list", "string"}},
		{"update_plan", `{"check": null}`, []string{"check", "list", "null"}},
		{"update_plan", `{"check": [1]}`, []string{"check[0]", "string", "number"}},
		{"update_plan", `{"check": ["1", null]}`, []string{"check[1]", "string", "null"}},
		{"update_plan", `{"check": [["1"]]}`, []string{"check[0]", "string", "array"}},
		{"update_plan", `{"fail": {"1": true}}`, []string{"fail", "list", "object"}},
		{"update_plan", `["1"]`, []string{"arguments", "object", "array"}},
		{"update_plan", `"check"`, []string{"arguments", "object", "string"}},
		{"close_plan", `{"check": ["1"]}`, []string{"note", "required"}},
		{"close_plan", `{"note": 3}`, []string{"note", "string", "number"}},
		{"close_plan", `{"note": null}`, []string{"note", "string", "null"}},
		{"close_plan", `{"note": "n", "status": "done"}`, []string{"status", `"done"`, "completed, failed or cancelled"}},
		{"close_plan", `{"note": "n", "status": "Completed"}`, []string{"status", `"Completed"`}},
		{"close_plan", `{"note": "n", "status": 1}`, []string{"status", "string", "number"}},
		{"close_plan", `{"note": "n", "reason": "x"}`, []string{`"reason"`, "note, status, check, uncheck, fail, skip"}},
		{"view_plan", `{"history": "true"}`, []string{"history", "true or false", "string"}},
		{"view_plan", `{"history": null}`, []string{"history", "true or false", "null"}},
		{"view_plan", `{"all": true}`, []string{`"all"`, "history"}},
	}
	for _, tc := range tests {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			e := newEnv(t, nil)
			cs := e.client("alice", "chat-1")
			ok(t, cs, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A."}, {"goal": "B."}}})
			before, _ := ok(t, cs, "view_plan", nil)
			msg := fails(t, cs, tc.tool, json.RawMessage(tc.args))
			t.Logf("%s %s: %s", tc.tool, tc.args, msg)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message does not contain %q:\n%s", w, msg)
				}
			}
			if after, _ := ok(t, cs, "view_plan", nil); after.Version != before.Version || statuses(after) != statuses(before) {
				t.Errorf("a refused call changed the plan: version %d -> %d", before.Version, after.Version)
			}
		})
	}
}

// TestGoodArguments: what the schema accepts is accepted: lists left out,
// empty lists, an empty or absent arguments object, whitespace anywhere.
func TestGoodArguments(t *testing.T) {
	tests := []struct {
		tool string
		args string
	}{
		{"view_plan", ``},
		{"view_plan", `{}`},
		{"view_plan", `null`},
		{"view_plan", `{"history": false}`},
		{"view_plan", ` { "history" : true } `},
		{"update_plan", `{"check": ["1"], "uncheck": [], "fail": [], "skip": []}`},
		{"update_plan", "{\n\t\"skip\" :\n[ \"1\" ]\n}"},
		{"close_plan", `{"note": "done", "status": "cancelled", "check": []}`},
	}
	for _, tc := range tests {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			e := newEnv(t, nil)
			cs := e.client("alice", "chat-1")
			ok(t, cs, "make_plan", map[string]any{"title": "T", "steps": []map[string]any{{"goal": "A."}, {"goal": "B."}}})
			var args any
			if tc.args != "" {
				args = json.RawMessage(tc.args)
			}
			ok(t, cs, tc.tool, args)
		})
	}
}
