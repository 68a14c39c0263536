package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestReleaseConfig checks what the release pieces promise each other, in
// milliseconds, on every run: .goreleaser.yaml builds both programs for the
// six platforms and stamps main.version; its archive and checksums names
// are the ones .github/action/install.sh downloads; action.yml installs its
// own ref, never latest, and has a SARIF input; the release workflow and
// .ci/release-check run one GoReleaser version. GoReleaser's own check and
// a snapshot release are .ci/release-check, the last step of .ci/run.
func TestReleaseConfig(t *testing.T) {
	repo := filepath.Join("..", "..")
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(repo, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var cfg struct {
		Version     int    `yaml:"version"`
		ProjectName string `yaml:"project_name"`
		Builds      []struct {
			ID, Main, Binary string
			Env, Goos        []string
			Goarch, Ldflags  []string
		} `yaml:"builds"`
		Archives []struct {
			IDs             []string `yaml:"ids"`
			NameTemplate    string   `yaml:"name_template"`
			Formats         []string `yaml:"formats"`
			FormatOverrides []struct {
				Goos    string   `yaml:"goos"`
				Formats []string `yaml:"formats"`
			} `yaml:"format_overrides"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
			Algorithm    string `yaml:"algorithm"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal([]byte(read(".goreleaser.yaml")), &cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if cfg.Version != 2 || cfg.ProjectName != "skillc" {
		t.Errorf("version %d, project_name %q: want GoReleaser v2's version: 2 and skillc", cfg.Version, cfg.ProjectName)
	}
	wantBuilds := map[string]string{"skillc": "./cmd/skillc", "skillc-draw": "./cmd/skillc-draw"}
	for _, b := range cfg.Builds {
		if wantBuilds[b.ID] != b.Main || b.Binary != b.ID {
			t.Errorf("build %q: main %q, binary %q", b.ID, b.Main, b.Binary)
		}
		delete(wantBuilds, b.ID)
		slices.Sort(b.Goos)
		slices.Sort(b.Goarch)
		if !slices.Equal(b.Goos, []string{"darwin", "linux", "windows"}) || !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) {
			t.Errorf("build %q: goos %v, goarch %v; want linux, darwin, windows on amd64, arm64", b.ID, b.Goos, b.Goarch)
		}
		if !slices.Contains(b.Env, "CGO_ENABLED=0") {
			t.Errorf("build %q: not CGO_ENABLED=0, so it cannot be cross-compiled", b.ID)
		}
		if !strings.Contains(strings.Join(b.Ldflags, " "), "-X main.version=v{{ .Version }}") {
			t.Errorf("build %q: ldflags %v do not stamp main.version", b.ID, b.Ldflags)
		}
	}
	if len(wantBuilds) > 0 {
		t.Errorf("no build for %v", wantBuilds)
	}
	if len(cfg.Archives) != 1 {
		t.Fatalf("%d archives, want 1", len(cfg.Archives))
	}
	a := cfg.Archives[0]
	slices.Sort(a.IDs)
	if !slices.Equal(a.IDs, []string{"skillc", "skillc-draw"}) || a.NameTemplate != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}" ||
		!slices.Equal(a.Formats, []string{"tar.gz"}) || len(a.FormatOverrides) != 1 ||
		a.FormatOverrides[0].Goos != "windows" || !slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("archive %+v: want both programs in skillc_VERSION_OS_ARCH.tar.gz, .zip for windows, as install.sh downloads", a)
	}
	if cfg.Checksum.NameTemplate != "{{ .ProjectName }}_{{ .Version }}_checksums.txt" || cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum %+v: want sha256 in skillc_VERSION_checksums.txt, as install.sh reads", cfg.Checksum)
	}

	install := read(".github/action/install.sh")
	for _, want := range []string{`archive="skillc_${version}_${os}_${arch}.$ext"`, `sums="skillc_${version}_checksums.txt"`, "ext=zip"} {
		if !strings.Contains(install, want) {
			t.Errorf("install.sh does not download the names .goreleaser.yaml makes: no %s", want)
		}
	}

	// main.version is what -X sets: a package-level string variable.
	f, err := parser.ParseFile(token.NewFileSet(), "version.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	stamped := false
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for _, n := range vs.Names {
					stamped = stamped || n.Name == "version"
				}
			}
		}
	}
	if !stamped {
		t.Error("version.go has no package-level var version for -X main.version")
	}

	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal([]byte(read("action.yml")), &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if v, ok := action.Inputs["version"]; !ok || v.Default != "" {
		t.Errorf("action.yml: input version defaults to %q; want empty (the action's own ref)", v.Default)
	}
	if _, ok := action.Inputs["sarif"]; !ok {
		t.Error("action.yml: no sarif input")
	}
	var ownRef, installs, caches bool
	for _, s := range action.Runs.Steps {
		ownRef = ownRef || strings.Contains(s.Env["SKILLC_REF"], "github.action_ref")
		installs = installs || strings.Contains(s.Run, "install.sh\" install")
		caches = caches || strings.HasPrefix(s.Uses, "actions/cache@")
		if strings.Contains(s.Run, "@latest") {
			t.Errorf("action.yml installs latest: %s", s.Run)
		}
	}
	if !ownRef || !installs || !caches {
		t.Errorf("action.yml: installs its own ref %v, runs install.sh %v, caches %v; want all", ownRef, installs, caches)
	}

	pin := regexp.MustCompile(`goreleaser_version=(v[0-9.]+)`).FindStringSubmatch(read(".ci/release-check"))
	if pin == nil || !strings.Contains(read(".github/workflows/release.yml"), "version: "+pin[1]) {
		t.Errorf("the release workflow and .ci/release-check do not run one GoReleaser version (release-check: %v)", pin)
	}
}
