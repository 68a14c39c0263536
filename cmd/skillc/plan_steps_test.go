package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanReadStepsErrors: every bad --steps file is refused with its
// line:col, what is wrong in the file's terms and what would be right;
// never a bare EOF or a Go type name.
func TestPlanReadStepsErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the message after "skillc: "
	}{
		{"empty", "", `f.json:1:1: no JSON in the file; want an array of steps`},
		{"only white space", "  \n\t\n", `f.json:1:1: no JSON in the file; want`},
		{"unclosed array", "[", `f.json:1:2: the JSON ends early: an array, object or string is not closed; want`},
		{"unclosed object", "{\"steps\": [\n  {\"goal\": \"a\"}", `f.json:2:16: the JSON ends early`},
		{"unclosed string", `[{"goal": "é`, `f.json:1:13: the JSON ends early`},
		{"syntax", "{\n  \"steps\": [}\n", `f.json:2:13: invalid character '}' looking for beginning of value; want`},
		{"trailing value", "{\"steps\": []}\n{}", `f.json:2:1: more data after the JSON value`},
		{"unknown file field", `{"title": "t", "stepz": []}`, `f.json:1:16: unknown field "stepz"; want one of "format", "skill", "title", "objective", "description", "entry", "steps"`},
		{"unknown step field", "[\n  {\"goal\": \"a\", \"next_on_sucess\": \"end\"}]", `f.json:2:17: unknown field "next_on_sucess" in a step; want one of "id", "goal",`},
		{"unknown field in steps of an object", `{"steps": [{"goal": "a", "nxt": "b"}]}`, `f.json:1:26: unknown field "nxt" in a step`},
		{"goal a number", `{"steps": [{"goal": 5}]}`, `f.json:1:22: field "steps.goal" is a number; want a string`},
		{"tools a string", `[{"goal": "a", "recommended_tools": "x"}]`, `field "recommended_tools" is a string; want an array of strings`},
		{"steps an object", `{"steps": {}}`, `f.json:1:12: field "steps" is an object; want an array of steps`},
		{"file a string", `"steps"`, `f.json:1:8: the file is a string; want an array of steps or an object with "title" and "steps"`},
		{"step a number", `[1]`, `f.json:1:3: the file is a number; want a step: an object such as {"goal": "List the transfers"}`},
		{"line a string", `[{"goal": "a", "line": "3"}]`, `field "line" is a string; want a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.json")
			if err := os.WriteFile(path, []byte(tt.src), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := planReadSteps(path, nil)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitUsage {
				t.Fatalf("err = %v, want a usage error", err)
			}
			msg := strings.TrimPrefix(err.Error(), filepath.Dir(path)+string(filepath.Separator))
			if !strings.HasPrefix(msg, tt.want) && !strings.Contains(msg, tt.want) {
				t.Errorf("message\n  %s\nwant it to contain\n  %s", msg, tt.want)
			}
			for _, bad := range []string{"graph.", "main.", "Go value", "Go struct", "json: "} {
				if strings.Contains(msg, bad) {
					t.Errorf("message %q names Go's types (%q)", msg, bad)
				}
			}
			if !strings.HasPrefix(msg, "f.json:") {
				t.Errorf("message %q does not start with the file and a position", msg)
			}
		})
	}
}
