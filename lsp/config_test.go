package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestConfig: a document is linted with the config `skillc lint` would
// find for it, the one given instead, or, when that config is broken, the
// defaults and a finding that says so.
func TestConfig(t *testing.T) {
	const skill = "# T\n\n1. Look.\n   - tools: lookup\n"
	tests := []struct {
		name     string
		config   string // .skillc.yaml beside the skill's folder, "" for none
		explicit string // Options.ConfigPath, relative to the temp folder
		// want are the rules found, in order.
		want string
	}{
		{name: "none", want: "missing-frontmatter missing-when-to-use"},
		{name: "found upward", config: "rules:\n  missing-frontmatter: off\ntools: [other]\n", want: "missing-when-to-use unknown-tool"},
		{name: "given", explicit: "elsewhere.yaml", want: "missing-when-to-use"},
		{name: "broken", config: "rulez: {}\n", want: "invalid-config missing-frontmatter missing-when-to-use"},
		{name: "given and missing", explicit: "nowhere.yaml", want: "invalid-config missing-frontmatter missing-when-to-use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.config != "" {
				write(t, filepath.Join(dir, ".skillc.yaml"), tt.config)
			}
			write(t, filepath.Join(dir, "elsewhere.yaml"), "rules:\n  missing-frontmatter: off\n")
			opts := Options{}
			if tt.explicit != "" {
				opts.ConfigPath = filepath.Join(dir, tt.explicit)
			}
			s := New(opts)
			path := filepath.Join(dir, "t", "SKILL.md")
			doc := &document{uri: "file://" + filepath.ToSlash(path), path: path, text: newText(skill)}
			if got := rulesOf(s, doc); got != tt.want {
				t.Errorf("rules = %q, want %q", got, tt.want)
			}
		})
	}
}

// rulesOf lints doc and returns the rules of what was published.
func rulesOf(s *Server, doc *document) string {
	var rules []string
	s.notify = func(_ string, params any) {
		for _, d := range params.(protocol.PublishDiagnosticsParams).Diagnostics {
			rules = append(rules, d.Code.Value.(string))
		}
	}
	s.lint(doc)
	return strings.Join(rules, " ")
}

// TestConfigChange: an edited config is read again on the next change.
func TestConfigChange(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".skillc.yaml")
	write(t, cfg, "rules:\n  missing-frontmatter: off\n")
	s := New(Options{})
	path := filepath.Join(dir, "t", "SKILL.md")
	doc := &document{path: path, text: newText("# T\n\n1. Look.\n")}
	if got := rulesOf(s, doc); strings.Contains(got, "missing-frontmatter") {
		t.Fatalf("rules %q: the config is not used", got)
	}
	write(t, cfg, "rules:\n  missing-when-to-use: off\n")
	// A file system with coarse times could keep the mtime: move it on.
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(cfg, later, later); err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(s, doc); got != "missing-frontmatter" {
		t.Fatalf("rules %q after the config changed, want missing-frontmatter", got)
	}
}

// TestInitializationOptions: the editor's settings name the config, a
// relative path being the workspace's.
func TestInitializationOptions(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "conf", "lint.yaml"), "rules:\n  missing-frontmatter: off\n")
	s := New(Options{})
	root := "file://" + filepath.ToSlash(dir)
	if _, err := s.initialize(nil, &protocol.InitializeParams{RootURI: &root,
		InitializationOptions: map[string]any{"config": "conf/lint.yaml"}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t", "SKILL.md")
	if got := rulesOf(s, &document{path: path, text: newText("# T\n\n1. Look.\n")}); got != "missing-when-to-use" {
		t.Errorf("rules = %q, want the config's", got)
	}
}
