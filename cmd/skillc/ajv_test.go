package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSchemasCompileInAjv: what `skillc schema template|config` prints
// compiles in ajv (strict, draft 2020-12), the validator most users of a
// JSON Schema run, whose patterns are ECMA-262 regular expressions: Go's
// (?i:...) is not one. It needs node and `npm ci --prefix testdata/ajv`;
// without them it skips, except under CI, where a skip would hide a broken
// install step.
func TestSchemasCompileInAjv(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "ajv"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "ajv", "package.json"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node or ajv is missing (%v): run npm ci --prefix testdata/ajv", err)
		}
		t.Skipf("node or ajv is missing (%v): run npm ci --prefix testdata/ajv", err)
	}
	tmp := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	schema := func(which string) string {
		io, out, errOut := testIO()
		if code := run([]string{"schema", which}, io); code != exitOK {
			t.Fatalf("skillc schema %s: exit %d: %s", which, code, errOut)
		}
		return write(which+".schema.json", out.String())
	}
	step := func(id string) string {
		return `{"format":1,"skill":"s","title":"T","description":"","entry":"` + id + `","steps":[{"id":"` + id + `","goal":"g","recommended_tools":[],"next_on_success":"end","next_on_failure":"fail","success_label":"","failure_label":"","detail":"","line":3}]}`
	}
	tests := []struct {
		schema    string
		instances []string // "+" valid, "-" invalid, then the file
	}{
		{"template", []string{
			"+" + write("good.json", step("check-1")),
			// end and fail are reserved as step IDs in any case: the
			// pattern that says so must work in ECMA-262 too.
			"-" + write("end.json", step("END")),
			"-" + write("fail.json", step("Fail")),
			"+" + write("ending.json", step("ending")),
		}},
		{"config", []string{
			"+" + write("config.json", `{"rules":{"unknown-tool":"off"},"ignore":["drafts/**"]}`),
			"-" + write("badconfig.json", `{"rules":{"unknown-tool":"loud"}}`),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			cmd := exec.Command(node, append([]string{filepath.Join(dir, "compile.mjs"), schema(tt.schema)}, tt.instances...)...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("ajv: %v\n%s", err, out)
			}
		})
	}
}
