package compiler_test

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"

	"github.com/skillc/skillc/compiler"
)

// generatedSkill is a list-form skill of n steps, each with a goal in
// inline markup, tools, two edges (one with a label and a note) and a line
// of detail: the shape of real skills, repeated.
func generatedSkill(n int) []byte {
	var b bytes.Buffer
	b.WriteString("---\nname: generated\ndescription: A generated skill for benchmarks.\nallowed-tools: search_thread ask_user list_records\n---\n# Generated\n\n## Steps\n\n")
	for i := 1; i <= n; i++ {
		marker := fmt.Sprintf("%d. ", i)
		ind := strings.Repeat(" ", len(marker)) // continuation lines line up with the goal
		fmt.Fprintf(&b, "%sCheck **record %d** with `search_thread` and decide. {#s%d}\n", marker, i, i)
		fmt.Fprintf(&b, "%s- tools: search_thread, `ask_user`\n", ind)
		if i < n {
			fmt.Fprintf(&b, "%s- yes (found): s%d - keep going\n", ind, i+1)
		} else {
			fmt.Fprintf(&b, "%s- yes (found): end - all done\n", ind)
		}
		fmt.Fprintf(&b, "%s- no: %d\n", ind, (i+1)/2)
		fmt.Fprintf(&b, "%s- Note: see the policy for details.\n\n", ind)
		fmt.Fprintf(&b, "%sDetail paragraph with a [link](https://example.com).\n", ind)
	}
	return b.Bytes()
}

var benchSizes = []int{5000, 50000}

func BenchmarkCompile(b *testing.B) {
	for _, n := range benchSizes {
		src := generatedSkill(n)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				s, diags := compiler.Compile("generated/SKILL.md", src, compiler.Options{MaxSize: -1, MaxBlocks: -1})
				if len(s.Steps) != n || diags.HasErrors() {
					b.Fatalf("%d steps, %v", len(s.Steps), diags)
				}
			}
		})
	}
}

// BenchmarkGoldmarkParse is the floor: goldmark parsing the same bytes,
// which Compile does once, plus its own walk.
func BenchmarkGoldmarkParse(b *testing.B) {
	for _, n := range benchSizes {
		src := generatedSkill(n)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			p := goldmark.New().Parser()
			defer reportCPU(b)()
			for b.Loop() {
				p.Parse(text.NewReader(src))
			}
		})
	}
}

// reportCPU adds cpu-ns/op: the CPU time the process spent (user and
// system, GC workers included) per operation. On a machine shared with
// other jobs, wall time per op swings with their load; CPU time much less.
func reportCPU(b *testing.B) func() {
	before := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-before).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
