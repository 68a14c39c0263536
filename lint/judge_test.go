package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// TestJudgeIsCheckAndErrors: Judge shares graph.Check between its two
// passes only where that changes nothing, so on every skill of testdata it
// says what Check and Errors say, under the default config, a config that
// lowers the limits (no sharing) and --strict.
func TestJudgeIsCheckAndErrors(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../testdata", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no skills in testdata: %v", err)
	}
	lowered, diags := ParseConfig(".skillc.yaml", []byte("limits:\n  plan-max-steps: 3\n  plan-max-goal-length: 20\n"))
	if len(diags) > 0 {
		t.Fatalf("config: %v", diags)
	}
	for _, opts := range []Options{{}, {Config: DefaultConfig()}, {Config: lowered}, {Strict: true}} {
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sk, compiled := compiler.Compile(f, src, opts.CompilerOptions())
			wantDiags, wantInvalid := Check(sk, compiled, opts), Errors(sk, compiled)
			diags, invalid := Judge(sk, compiled, opts)
			if !reflect.DeepEqual(diags, wantDiags) || !reflect.DeepEqual(invalid, wantInvalid) {
				t.Errorf("%s (%+v): Judge differs from Check and Errors\ndiags   %v\nwant    %v\ninvalid %v\nwant    %v", f, opts, diags, wantDiags, invalid, wantInvalid)
			}
		}
	}
}
