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

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/lint"
)

const conformanceDir = "../testdata/compile"

// conformanceInputs lists every .md under testdata/compile. Each clause of
// FORMAT.md has at least one; X.md is checked against X.json (its template)
// and X.diag (its diagnostics).
func conformanceInputs(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir(conformanceDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("found %d conformance inputs in %s", len(files), conformanceDir)
	}
	return files
}

// formatDiags prints diagnostics with their full ranges, so a golden file
// pins where each one points.
func formatDiags(ds compiler.Diagnostics) []byte {
	var b bytes.Buffer
	for _, d := range ds {
		r := d.Range
		fmt.Fprintf(&b, "%d:%d-%d:%d: %s: %s [%s]\n", r.Start.Line, r.Start.Column, r.End.Line, r.End.Column, d.Severity, d.Summary, d.Rule)
		if d.Detail != "" {
			fmt.Fprintf(&b, "\tdetail: %s\n", d.Detail)
		}
		if d.Suggestion != "" {
			fmt.Fprintf(&b, "\tfix: %s\n", d.Suggestion)
		}
	}
	return b.Bytes()
}

// movedChecks are the checks that left the compiler for their lint
// rules: graph.Check's (duplicate IDs, empty goals, an {#id} refused),
// the spec rules'
// (the frontmatter's fields, a body without steps) and invalid-tool-name's
// of the tools written. The compiler's
// goldens were written when it reported them, so they keep pinning where
// lint places them.
var movedChecks = map[string]bool{
	"duplicate-id": true, "empty-goal": true,
	"invalid-id": true, "reserved-id": true, // an {#id} not taken
	"missing-name": true, "invalid-name": true, "name-mismatch": true,
	"missing-description": true, "invalid-description": true,
	"no-steps": true,
	// a target that names no step is graph.Check's; "has no target"
	// (syntax) is still the compiler's.
	"unknown-target": true,
	// invalid-tool-name's names; an allowed-tools entry whose
	// parentheses do not balance is still the compiler's.
	"invalid-tool-name": true,
	// invalid-frontmatter's compatibility limit; its syntax findings are
	// still the compiler's, and lint.Errors passes those on as they are.
	"invalid-frontmatter": true,
}

// withMovedChecks adds to the compiler's diagnostics the findings of the
// moved checks, as lint reports them by default (no-steps is a warning,
// so lint.Errors alone would not have it; the errors are those of
// lint.Errors, which TestMovedChecksAreErrors holds to).
func withMovedChecks(s *compiler.Skill, diags compiler.Diagnostics) compiler.Diagnostics {
	out := append(compiler.Diagnostics(nil), diags...)
	compiled := make(map[compiler.Key]bool, len(diags))
	for _, d := range diags {
		compiled[d.Key()] = true
	}
	for _, d := range lint.Check(s, diags, lint.Options{}) {
		if movedChecks[d.Rule] && !compiled[d.Key()] {
			out = append(out, d)
		}
	}
	out.Sort()
	return out
}

// TestMovedChecksAreErrors: each error of a moved check makes the skill
// no valid template, as it did when the compiler reported it, so
// lint.Errors (what compile, plan make and make_plan refuse on) has it.
func TestMovedChecksAreErrors(t *testing.T) {
	for _, in := range conformanceInputs(t) {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, strict := range []bool{false, true} {
			s, diags := compiler.Compile(in, src, compiler.Options{Strict: strict})
			invalid := map[compiler.Key]bool{}
			for _, d := range lint.Errors(s, diags) {
				invalid[d.Key()] = true
			}
			for _, d := range lint.Check(s, diags, lint.Options{}) {
				if movedChecks[d.Rule] && d.Severity == compiler.SeverityError && !invalid[d.Key()] {
					t.Errorf("%s (strict %v): %s [%s] is not in lint.Errors", in, strict, d.Summary, d.Rule)
				}
			}
		}
	}
}

// syntaxForwarded are the rules, not of Source "compiler", that pass on
// some of the compiler's findings as well as checking their own: YAML the
// compiler cannot read, an allowed-tools entry whose parentheses do not
// balance, an edge whose target it cannot resolve (see
// lint/rule_unknown_target.go).
var syntaxForwarded = map[string]bool{"invalid-frontmatter": true, "invalid-tool-name": true, "unknown-target": true}

// TestCompilerReportsSyntaxOnly: on every conformance and frontmatter
// input, in both readings, what the compiler reports is a syntax finding:
// of a rule that forwards it, never of a check a rule owns.
func TestCompilerReportsSyntaxOnly(t *testing.T) {
	inputs := conformanceInputs(t)
	fm, _ := filepath.Glob(filepath.Join(frontmatterDir, "*.md"))
	for _, in := range append(inputs, fm...) {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, strict := range []bool{false, true} {
			_, diags := compiler.Compile(in, src, compiler.Options{Strict: strict})
			for _, d := range diags {
				r := lint.Lookup(d.Rule)
				if r == nil || r.Source != "compiler" && !syntaxForwarded[d.Rule] {
					t.Errorf("%s (strict %v): the compiler reports %s [%s], a check its rule owns", in, strict, d.Summary, d.Rule)
				}
			}
		}
	}
}

func templateJSON(t testing.TB, s *compiler.Skill) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s.Template()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestConformance(t *testing.T) {
	for _, in := range conformanceInputs(t) {
		name := strings.TrimPrefix(filepath.ToSlash(in), conformanceDir+"/")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			s, diags := compiler.Compile(in, src, compiler.Options{})
			base := strings.TrimSuffix(in, ".md")
			// X.json and X.diag are v1's result (TestConformanceStrict);
			// X.v2.json and X.v2.diag hold what version 2 reads where it
			// reads a v1 input differently (FORMAT 6.2, 6.3). -update
			// writes them only then, and removes them when they agree.
			gotJSON, gotDiag := templateJSON(t, s), formatDiags(withMovedChecks(s, diags))
			if *golden.Update {
				ss, sd := compiler.Compile(in, src, compiler.Options{Strict: true})
				for _, f := range []struct {
					ext       string
					got, want []byte
				}{{".json", gotJSON, templateJSON(t, ss)}, {".diag", gotDiag, formatDiags(withMovedChecks(ss, sd))}} {
					if bytes.Equal(f.got, f.want) {
						os.Remove(base + ".v2" + f.ext)
					} else {
						golden.Check(t, base+".v2"+f.ext, f.got)
					}
				}
				return
			}
			golden.Check(t, v2Golden(base, ".json"), gotJSON)
			golden.Check(t, v2Golden(base, ".diag"), gotDiag)
		})
	}
}

// v2Golden is base+".v2"+ext when that file exists, else base+ext.
func v2Golden(base, ext string) string {
	if _, err := os.Stat(base + ".v2" + ext); err == nil {
		return base + ".v2" + ext
	}
	return base + ext
}

// TestConformanceStrict: under Options.Strict every conformance input
// reads exactly as FORMAT v1 says, whatever version 2 infers.
func TestConformanceStrict(t *testing.T) {
	for _, in := range conformanceInputs(t) {
		name := strings.TrimPrefix(filepath.ToSlash(in), conformanceDir+"/")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			s, diags := compiler.Compile(in, src, compiler.Options{Strict: true})
			base := strings.TrimSuffix(in, ".md")
			golden.Check(t, base+".json", templateJSON(t, s))
			golden.Check(t, base+".diag", formatDiags(withMovedChecks(s, diags)))
		})
	}
}

func templateSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(compiler.TemplateSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("template.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("template.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestTemplateSchema validates every golden template of a skill that
// compiles cleanly against the published schema. Templates of skills with
// errors are never printed by `skillc compile`, so they are left out.
func TestTemplateSchema(t *testing.T) {
	sch := templateSchema(t)
	checked := 0
	var bases []string
	for _, in := range conformanceInputs(t) {
		base := strings.TrimSuffix(in, ".md")
		bases = append(bases, base)
		if _, err := os.Stat(base + ".v2.json"); err == nil {
			bases = append(bases, base+".v2") // version 2's template too
		}
	}
	for _, base := range bases {
		diagPath := base + ".diag"
		if strings.HasSuffix(base, ".v2") {
			diagPath = v2Golden(strings.TrimSuffix(base, ".v2"), ".diag")
		}
		diag, err := os.ReadFile(diagPath)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(diag, []byte(": error: ")) || bytes.Contains(diag, []byte("[no-steps]")) {
			continue
		}
		data, err := os.ReadFile(base + ".json")
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s.json does not match the schema: %v", base, err)
		}
		checked++
	}
	if checked < 15 {
		t.Errorf("validated only %d templates", checked)
	}
}

// TestTemplateSchemaRejects makes sure the schema is not vacuous.
func TestTemplateSchemaRejects(t *testing.T) {
	sch := templateSchema(t)
	good := `{"format":1,"skill":"s","title":"T","description":"","entry":"1","steps":[{"id":"1","goal":"g","recommended_tools":["a"],"next_on_success":"end","next_on_failure":"fail","success_label":"","failure_label":"","detail":"","line":3}]}`
	tests := map[string]string{
		"good":           good,
		"format 2":       strings.Replace(good, `"format":1`, `"format":2`, 1),
		"reserved id":    strings.Replace(good, `"id":"1"`, `"id":"END"`, 1),
		"bad tool":       strings.Replace(good, `["a"]`, `["a b"]`, 1),
		"duplicate tool": strings.Replace(good, `["a"]`, `["a","a"]`, 1),
		"no steps":       `{"format":1,"skill":"s","title":"T","description":"","entry":"1","steps":[]}`,
		"extra field":    strings.Replace(good, `"line":3`, `"line":3,"x":1`, 1),
		"missing goal":   strings.Replace(good, `"goal":"g",`, ``, 1),
	}
	for name, doc := range tests {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		err = sch.Validate(v)
		if (name == "good") != (err == nil) {
			t.Errorf("%s: validate = %v", name, err)
		}
	}
}
