package catalog_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/lint"
)

const goodSkill = "---\nname: %s\ndescription: Refund a charge. Use when the user asks for a refund.\n---\n# Refund\n\n1. Find the charge.\n2. Refund it.\n"

func skillBody(name string) string { return strings.Replace(goodSkill, "%s", name, 1) }

func write(t *testing.T, p, body string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := makeFIFO(p); err != nil {
		t.Skip("no FIFOs here:", err)
	}
}

// within fails the test instead of hanging when f blocks: a FIFO opened
// for reading without O_NONBLOCK waits for a writer forever.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("still reading after 10s: a read blocked")
	}
}

// TestLoad runs the file policy on one skill named directly (as compile,
// graph and plan make name it): what is read, what is refused, and why.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	outside := write(t, filepath.Join(dir, "elsewhere", "x.md"), skillBody("x"))
	write(t, filepath.Join(dir, "plain", "SKILL.md"), skillBody("plain"))
	write(t, filepath.Join(dir, "linked", "docs", "workflow.md"), skillBody("linked"))
	symlink(t, filepath.Join("docs", "workflow.md"), filepath.Join(dir, "linked", "SKILL.md"))
	symlink(t, outside, filepath.Join(dir, "escape", "SKILL.md"))
	symlink(t, "/dev/zero", filepath.Join(dir, "zero", "SKILL.md"))
	symlink(t, filepath.Join(dir, "nowhere.md"), filepath.Join(dir, "dangling", "SKILL.md"))
	write(t, filepath.Join(dir, "lower", "skill.md"), skillBody("lower"))
	write(t, filepath.Join(dir, "both", "SKILL.md"), skillBody("both"))
	write(t, filepath.Join(dir, "both", "skill.md"), "# the lowercase one must lose\n")
	write(t, filepath.Join(dir, "empty", "README.md"), "# not a skill\n")
	mkfifo(t, filepath.Join(dir, "fifo", "SKILL.md"))
	// A sparse 2 GiB file: refused by size after reading MaxSize+1 bytes.
	huge := filepath.Join(dir, "huge", "SKILL.md")
	write(t, huge, "")
	if err := os.Truncate(huge, 2<<30); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		arg      string
		wantName string // a skill that loads, with this name
		wantRule string // ... and this finding
		wantErr  string // or an error containing this
	}{
		{arg: "plain", wantName: "plain"},
		{arg: "plain/SKILL.md", wantName: "plain"},
		{arg: "linked", wantName: "linked"},
		{arg: "lower", wantName: "lower"},
		{arg: "both", wantName: "both"},
		{arg: "huge", wantName: "huge", wantRule: "file-too-large"},
		{arg: "escape", wantErr: `it is a symlink to "` + outside + `", outside the folder`},
		{arg: "escape/SKILL.md", wantErr: "outside the folder"},
		{arg: "zero", wantErr: `it is a symlink to "/dev/zero", outside the folder`},
		{arg: "dangling", wantErr: "which cannot be followed"},
		{arg: "fifo", wantErr: "it is a named pipe (FIFO); a skill is read only from a regular file"},
		{arg: "empty", wantErr: `no skill in "` + filepath.Join(dir, "empty") + `": a skill is a folder holding a SKILL.md (or skill.md), or a markdown file named on the command line; to start one: skillc init NAME`},
		// A folder of skills, given where one skill is wanted.
		{arg: ".", wantErr: `no skill in "` + dir + `", but its folders hold skills: name one of them, such as "` + filepath.Join(dir, "both") + `", "` + filepath.Join(dir, "dangling") + `", "` + filepath.Join(dir, "escape") + `", ...`},
		{arg: "missing.md", wantErr: `no such file "` + filepath.Join(dir, "missing.md") + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			var sk *catalog.Skill
			var err error
			within(t, func() { sk, err = catalog.Load(filepath.Join(dir, tt.arg), lint.Options{MaxSize: 1 << 20}) })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sk.Name != tt.wantName {
				t.Errorf("name %q, want %q", sk.Name, tt.wantName)
			}
			var rules []string
			for _, d := range sk.Diags {
				rules = append(rules, d.Rule)
			}
			if got := strings.Join(rules, ","); got != tt.wantRule {
				t.Errorf("findings %v, want %q", sk.Diags, tt.wantRule)
			}
			if tt.wantRule == "" && sk.Template() == nil {
				t.Errorf("no template: %v", sk.Errors())
			}
			if len(sk.Skill.Source) > 1<<20+1 {
				t.Errorf("kept %d bytes of a file over the limit", len(sk.Skill.Source))
			}
		})
	}
	if _, err := catalog.Load(filepath.Join(dir, "missing.md"), lint.Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file's error %v does not match fs.ErrNotExist", err)
	}
}

// TestLoadDevice: a device named directly, not through a link, is refused
// from its Stat, without being opened.
func TestLoadDevice(t *testing.T) {
	var err error
	within(t, func() { _, err = catalog.Load("/dev/zero", lint.Options{}) })
	if err == nil || !strings.Contains(err.Error(), "it is a character device") {
		t.Errorf("err = %v", err)
	}
}

// TestLintWalk: a walk applies the same policy per file and goes on past
// what it refuses.
func TestLintWalk(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "SKILL.md"), skillBody("a"))
	write(t, filepath.Join(dir, "b", "skill.md"), skillBody("b"))
	write(t, filepath.Join(dir, "c", "SKILL.md"), skillBody("c"))
	write(t, filepath.Join(dir, "c", "skill.md"), "# loses to SKILL.md\n")
	write(t, filepath.Join(dir, "d", "docs", "w.md"), skillBody("d"))
	symlink(t, filepath.Join("docs", "w.md"), filepath.Join(dir, "d", "SKILL.md"))
	symlink(t, "/dev/zero", filepath.Join(dir, "e", "SKILL.md"))
	mkfifo(t, filepath.Join(dir, "f", "SKILL.md"))

	var res *lint.Result
	within(t, func() { res = catalog.Lint([]string{dir}, lint.Options{}) })
	want := "a/SKILL.md|b/skill.md|c/SKILL.md|d/SKILL.md|e/SKILL.md unreadable|f/SKILL.md unreadable"
	if got := listing(dir, res); got != want {
		t.Errorf("linted\n %s\nwant\n %s", got, want)
	}
	if !res.Unreadable() {
		t.Error("the run does not say some files were unreadable")
	}
}

// listing is res in brief: each file's path under dir and its findings'
// rules, files parted by "|".
func listing(dir string, res *lint.Result) string {
	var got []string
	for _, f := range res.Files {
		rel, _ := filepath.Rel(dir, f.Path)
		line := filepath.ToSlash(rel)
		for _, d := range f.Diags {
			line += " " + d.Rule
		}
		got = append(got, line)
	}
	return strings.Join(got, "|")
}

// TestLintWorkers: the walk hands files to the workers as it finds them,
// so the workers finish in any order; the reports come in the walk's
// order all the same, one at a time, whatever the number of workers: the
// paths in the order given, a folder's entries by name (so "a" and its
// files before "a-b"), files named twice linted once, and the paths that
// hold no skill reported in their place.
func TestLintWorkers(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a-b", "a", "d", "c", "e"} {
		write(t, filepath.Join(dir, "skills", n, "SKILL.md"), skillBody(n))
	}
	write(t, filepath.Join(dir, "skills", "f", "SKILL.md"), "---\nname: f\n---\n# F\n\n1. Go to step 9.\n   - next: 9\n")
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(dir, "skills"), filepath.Join(dir, "missing"), filepath.Join(dir, "skills", "a", "SKILL.md"), filepath.Join(dir, "empty")}
	want := "skills/a/SKILL.md|skills/a-b/SKILL.md|skills/b/SKILL.md|skills/c/SKILL.md|skills/d/SKILL.md|skills/e/SKILL.md|" +
		"skills/f/SKILL.md missing-description prose-branch|missing unreadable|empty unreadable"
	for _, workers := range []int{1, 2, 8} {
		res := &lint.Result{}
		var busy atomic.Int32
		within(t, func() {
			catalog.LintEach(paths, lint.Options{Workers: workers}, func(f *lint.File) {
				if busy.Add(1) != 1 {
					t.Errorf("workers=%d: two reports at once", workers)
				}
				res.Files = append(res.Files, f)
				busy.Add(-1)
			})
		})
		if got := listing(dir, res); got != want {
			t.Errorf("workers=%d: linted\n %s\nwant\n %s", workers, got, want)
		}
	}
}

// TestLintEachStreams: a file's report is handed on before the files
// after it are read. With one worker, the report of the first file removes
// the last one, which no worker has read yet: so the last is reported
// unreadable, if the walk had listed it, or not at all, if the walk (which
// runs beside the workers) had not reached it. Were the reports held until
// every file was judged, it would have been read and linted.
func TestLintEachStreams(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		write(t, filepath.Join(dir, n, "SKILL.md"), skillBody(n))
	}
	last := filepath.Join(dir, "c", "SKILL.md")
	res := &lint.Result{}
	within(t, func() {
		catalog.LintEach([]string{dir}, lint.Options{Workers: 1}, func(f *lint.File) {
			if len(res.Files) == 0 {
				if err := os.Remove(last); err != nil {
					t.Error(err)
				}
			}
			res.Files = append(res.Files, f)
		})
	})
	listed, unlisted := "a/SKILL.md|b/SKILL.md|c/SKILL.md unreadable", "a/SKILL.md|b/SKILL.md"
	if got := listing(dir, res); got != listed && got != unlisted {
		t.Errorf("linted\n %s\nwant\n %s\nor, if the walk had not reached c,\n %s", got, listed, unlisted)
	}
}

// TestLoadSet: the named skills of serve and plan make --skill NAME.
func TestLoadSet(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "acat-reimbursement", "SKILL.md"), "# ours\n\n1. Only step.\n")
	write(t, filepath.Join(dir, "refund", "skill.md"), skillBody("refund"))

	set, err := catalog.LoadSet([]string{dir}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Names(), " "); got != "acat-reimbursement refund" {
		t.Errorf("names %q", got)
	}
	if sk, _ := set.Lookup("acat-reimbursement"); sk.File != filepath.Join(dir, "acat-reimbursement", "SKILL.md") {
		t.Errorf("a folder's skill does not override the shipped one: %s", sk.File)
	}
	if sk, _ := set.Lookup("refund"); sk == nil || sk.Template() == nil {
		t.Errorf("refund from skill.md: %+v", sk)
	}
	shipped, err := catalog.LoadSet(nil, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sk, ok := shipped.Lookup("acat-reimbursement"); !ok || sk.File != "skills/acat-reimbursement/SKILL.md" || sk.Template() == nil {
		t.Errorf("shipped acat: %+v", sk)
	}
	if _, ok := shipped.Lookup("plan"); ok {
		t.Error("the plan skill is an instruction, not a workflow to seed a plan from")
	}

	write(t, filepath.Join(dir, "twin", "SKILL.md"), skillBody("refund"))
	if _, err := catalog.LoadSet([]string{dir}, lint.Options{}); err == nil || !strings.Contains(err.Error(), `two skills named "refund"`) {
		t.Errorf("duplicate names: %v", err)
	}
	bad := t.TempDir()
	symlink(t, "/dev/zero", filepath.Join(bad, "zero", "SKILL.md"))
	_, err = catalog.LoadSet([]string{bad}, lint.Options{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "zero", "SKILL.md")+`: error: cannot be read: it is a symlink`) || !strings.Contains(err.Error(), "[unreadable]") {
		t.Errorf("unreadable skill: %v", err)
	}
	if _, err := catalog.LoadSet([]string{filepath.Join(dir, "missing")}, lint.Options{}); err == nil {
		t.Error("a missing skills folder was accepted")
	}
}
