package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// benchCorpus writes n generated skills of steps steps each, in the
// SKILL.md layout, with the annotations real skills use: tools, branches
// on questions, failure edges, detail paragraphs.
func benchCorpus(b *testing.B, n, steps int) (dir string, files []string) {
	b.Helper()
	dir = b.TempDir()
	for i := range n {
		name := fmt.Sprintf("skill-%04d", i)
		var sb strings.Builder
		fmt.Fprintf(&sb, "---\nname: %s\ndescription: Generated skill %d. Use when benchmarking the linter.\nallowed-tools: search_thread list_records ask_user\n---\n# Skill %d\n\n## Steps\n\n", name, i, i)
		for s := 1; s <= steps; s++ {
			// Continuation lines line up with the item's text, whatever
			// the width of its number, so every bullet stays in its step.
			in := strings.Repeat(" ", len(fmt.Sprint(s))+2)
			switch {
			case s%5 == 0 && s+2 <= steps:
				fmt.Fprintf(&sb, "%d. Is record %d already in the thread?\n%s- tools: search_thread\n%s- yes: %d\n%s- no (missing): %d\n", s, s, in, in, s+1, in, s+2)
			case s%3 == 0:
				fmt.Fprintf(&sb, "%d. List the records for part %d.\n%s- tools: `list_records`, ask_user\n%s- on failure: end - nothing to list\n\n%sIf the list is empty, tell the user; keep the answer short.\n", s, s, in, in, in)
			default:
				fmt.Fprintf(&sb, "%d. Do step %d of the **procedure** with care.\n\n%sNote the result in the thread.\n", s, s, in)
			}
		}
		p := filepath.Join(dir, name, "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, p)
	}
	return dir, files
}

// BenchmarkLint lints 2,000 skills of 20 steps with one worker per CPU;
// BenchmarkGoldmarkParse only reads and parses the same files with
// goldmark on the same number of workers. Target: lint <= 1.5x parse.
func BenchmarkLint(b *testing.B) {
	dir, _ := benchCorpus(b, 2000, 20)
	b.ResetTimer()
	for b.Loop() {
		res := catalog.Lint([]string{dir}, lint.Options{})
		if ds := res.Diagnostics(); len(ds) > 0 {
			b.Fatalf("generated skills have %d findings, e.g. %v", len(ds), ds[0])
		}
	}
}

func BenchmarkGoldmarkParse(b *testing.B) {
	md := goldmark.New()
	benchEachFile(b, func(_ string, src []byte) { md.Parser().Parse(text.NewReader(src)) })
}

// BenchmarkCompile reads and compiles the same files on the same workers,
// to tell the compiler's share of BenchmarkLint from the linter's.
func BenchmarkCompile(b *testing.B) {
	// The real path, as catalog.Lint passes it: a bare "SKILL.md" would make
	// the compiler report a name mismatch for every file.
	benchEachFile(b, func(path string, src []byte) { compiler.Compile(path, src, compiler.Options{}) })
}

// benchEachFile runs f on every file of the benchmark corpus, read from
// disk, with one worker per CPU as catalog.Lint does.
func benchEachFile(b *testing.B, f func(path string, src []byte)) {
	_, files := benchCorpus(b, 2000, 20)
	b.ResetTimer()
	for b.Loop() {
		jobs := make(chan string)
		var wg sync.WaitGroup
		for range runtime.NumCPU() {
			wg.Go(func() {
				for path := range jobs {
					src, err := os.ReadFile(path)
					if err != nil {
						b.Error(err)
						continue
					}
					f(path, src)
				}
			})
		}
		for _, path := range files {
			jobs <- path
		}
		close(jobs)
		wg.Wait()
	}
}
