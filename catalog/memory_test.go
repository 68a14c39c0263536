package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// The memory bound of reading one skill (DESIGN.md §6, issue 16 item 3):
// linting a file may take at most memBytesPerByte bytes of heap per input
// byte, plus memBase, whatever its shape. A CI runner has a few GB; at the
// 10 MiB size limit this is under 600 MB; the base covers a file just
// under the compiler's limits on blocks, inline markup and list lines.
const (
	memBytesPerByte = 50
	memBase         = 64 << 20
)

// memShape is an input that is costly in one way: many small blocks, deep
// nesting, many inline nodes, one huge block.
type memShape struct {
	name string
	// gen returns about n bytes of the shape.
	gen func(n int) string
}

func repeatTo(unit string, n int) string { return strings.Repeat(unit, max(n/len(unit), 1)) }

func numbered(format string, n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, format, i, i+1)
	}
	return b.String()
}

func numberedN(format string, count int) string {
	var b strings.Builder
	for i := 1; i <= count; i++ {
		fmt.Fprintf(&b, format, i, i+1)
	}
	return b.String()
}

// nested31 is about n bytes of lists nested 31 deep, again and again.
func nested31(n int) string {
	var b strings.Builder
	for i := range 31 {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return repeatTo(b.String(), n)
}

var memShapes = []memShape{
	{"ordered items", func(n int) string { return repeatTo("1. a\n", n) }},
	{"bullets", func(n int) string { return "# T\n\n1. a\n" + repeatTo("- a\n", n) }},
	{"lists nested 31 deep", nested31},
	{"quotes nested 30 deep", func(n int) string { return repeatTo(strings.Repeat("> ", 30)+"a\n", n) }},
	{"headings", func(n int) string { return repeatTo("## a\n", n) }},
	{"step headings", func(n int) string { return numbered("## Step %d: do it %[2]d\n", n) }},
	{"table", func(n int) string { return "| a | b | c |\n|---|---|---|\n" + repeatTo("| x | y | z |\n", n) }},
	{"one paragraph", func(n int) string { return "1. a\n\n" + repeatTo("word word word word word word word\n", n) }},
	{"links", func(n int) string { return "1. a\n\n" + repeatTo("[a](#b) ", n) }},
	{"emphasis", func(n int) string { return "1. a\n\n" + repeatTo("*a* ", n) }},
	{"code spans", func(n int) string { return "1. a\n\n" + repeatTo("`a` ", n) }},
	{"html blocks", func(n int) string { return "1. a\n\n" + repeatTo("<div>\n\n", n) }},
	{"link definitions", func(n int) string { return "1. a\n\n" + numbered("[r%d]: http://x/%d\n", n) }},
	{"annotated steps", func(n int) string {
		return "# T\n\n## Steps\n\n" + numbered("%d. do it {#s%[1]d}\n   - tools: t\n   - yes: s%[2]d\n", n)
	}},
	{"long frontmatter", func(n int) string {
		return "---\nname: f\ndescription: d\nmetadata:\n" + repeatTo("  k: v\n", n) + "---\n# T\n\n1. a\n"
	}},
	{"blank lines", func(n int) string { return "1. a\n" + repeatTo("\n", n) }},
	{"blank lines outside lists", func(n int) string { return repeatTo("\n", n) + "1. a\n" }},
	{"blank lines in a deep list", func(n int) string {
		var b strings.Builder
		for i := range 30 {
			b.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		return b.String() + repeatTo("\n", n)
	}},
	{"lazy lines in a deep list", func(n int) string {
		var b strings.Builder
		for i := range 30 {
			b.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		return b.String() + repeatTo("a\n", n)
	}},
}

// memShapesAtLimits are inputs just under the compiler's limits, where
// the cost per byte is highest: the fixed base must cover them.
var memShapesAtLimits = []memShape{
	{"steps at the block limit", func(int) string {
		return "# T\n\n## Steps\n\n" + strings.Repeat("1. Do the thing with `tool`.\n", compiler.DefaultMaxBlocks-3)
	}},
	{"annotated steps at the block limit", func(int) string {
		return "# T\n\n## Steps\n\n" + numberedN("%d. do it {#s%[1]d}\n   - yes: s%[2]d\n", (compiler.DefaultMaxBlocks-2)/2)
	}},
	{"step headings at the block limit", func(int) string {
		return numberedN("## Step %d: do it %[2]d\n", compiler.DefaultMaxBlocks)
	}},
	{"emphasis at the inline limit", func(int) string {
		return "1. a\n\n" + strings.Repeat("*a* ", compiler.DefaultMaxBlocks*compiler.InlinePerBlock/2)
	}},
	{"links at the inline limit", func(int) string {
		return "1. a\n\n" + strings.Repeat("[a](#b) ", compiler.DefaultMaxBlocks*compiler.InlinePerBlock)
	}},
	{"blank lines in a list at the level limit", func(int) string {
		return "1. a\n" + strings.Repeat("\n", compiler.DefaultMaxBlocks*compiler.LevelLinesPerBlock-1)
	}},
	{"link definitions at the run limit", func(int) string {
		return "1. a\n\n" + numberedN("[r%d]: http://x/%d\n", compiler.MaxLinkDefRun)
	}},
	{"frontmatter at its limit", func(int) string {
		return "---\nname: f\ndescription: d\nmetadata:\n" + repeatTo("  k: v\n", 250<<10) + "---\n# T\n\n1. a\n"
	}},
}

// peakHeap runs f and returns the most heap in use while it ran, above
// what was in use before, sampled every millisecond.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapInuse)
	if peak < base {
		return 0
	}
	return peak - base
}

// TestMemoryBound lints every shape at a few MiB and fails when the peak
// heap passes the bound. It measures the whole of what lint does to a
// file: reading, compiling, the lint rules, the graph checks.
func TestMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("measures memory over MiB-sized inputs")
	}
	type input struct {
		name string
		src  func() string
	}
	var inputs []input
	for _, sh := range append(memShapes, memShapesAtLimits...) {
		inputs = append(inputs, input{sh.name, func() string { return sh.gen(3 << 20) }})
	}
	// Issue 16's two files, at the full size limit: 3 GB and 1.9 GB before.
	inputs = append(inputs,
		input{"ordered items at 10 MiB", func() string { return strings.Repeat("1. a\n", 2097139) }},
		input{"lists nested 31 deep at 10 MiB", func() string { return nested31(compiler.DefaultMaxSize - 1024) }},
	)
	dir := t.TempDir()
	for _, sh := range inputs {
		t.Run(sh.name, func(t *testing.T) {
			src := sh.src()
			path := filepath.Join(dir, strings.ReplaceAll(sh.name, " ", "-")+".md")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			var (
				sk  *catalog.Skill
				err error
			)
			start := time.Now()
			peak := peakHeap(func() { sk, err = catalog.Load(path, lint.Options{}) })
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			bound := uint64(memBytesPerByte*len(src) + memBase)
			t.Logf("%d bytes: peak heap %d MiB (%.1f bytes per byte), %d steps, %d findings, %v",
				len(src), peak>>20, float64(peak)/float64(len(src)), len(sk.Skill.Steps), len(sk.Diags), took.Round(time.Millisecond))
			if peak > bound {
				t.Errorf("peak heap %d MiB for %d bytes; the bound is %d bytes per byte + %d MiB = %d MiB",
					peak>>20, len(src), memBytesPerByte, memBase>>20, bound>>20)
			}
		})
	}
}
