package graph_test

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// generated writes a list-form skill of n steps with the shapes real skills
// have: tools on most steps, a question with yes/no branches every 7th
// step, a failure edge to a later step every 5th, an explicit fail every
// 13th. All jumps go forward, so the graph is a large DAG the analyses must
// walk in full.
func generated(n int) []byte {
	var b strings.Builder
	b.Grow(n * 80)
	fmt.Fprintf(&b, "---\nname: generated\ndescription: A generated skill of %d steps for benchmarks.\n---\n# Generated\n\n## Steps\n\n", n)
	for i := 1; i <= n; i++ {
		marker := fmt.Sprintf("%d. ", i)
		// A bullet belongs to the item when indented to the item's text.
		in := strings.Repeat(" ", len(marker))
		fmt.Fprintf(&b, "%sDo the work of step %d.\n", marker, i)
		if i%3 != 0 {
			fmt.Fprintf(&b, "%s- tools: tool_%d\n", in, i%17)
		}
		switch {
		case i%7 == 0 && i+2 <= n:
			fmt.Fprintf(&b, "%s- yes (one record): %d\n%s- no (many): %d\n", in, i+2, in, i+1)
		case i%5 == 0 && i+3 <= n:
			fmt.Fprintf(&b, "%s- on failure: %d\n", in, i+3)
		case i%13 == 0:
			fmt.Fprintf(&b, "%s- on failure: fail\n", in)
		}
	}
	return []byte(b.String())
}

func compileGenerated(b *testing.B, n int) *graph.Template {
	b.Helper()
	s, diags := compiler.Compile("generated.md", generated(n), compiler.Options{MaxSize: -1})
	if diags.HasErrors() || len(s.Steps) != n {
		b.Fatalf("generated skill of %d steps compiled to %d steps with %v", n, len(s.Steps), diags)
	}
	return s.Template()
}

// BenchmarkGraph builds the graph of a compiled skill and runs every
// analysis and check; compare 10k with 100k steps for linear growth.
func BenchmarkGraph(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		s := compileGenerated(b, n)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				g, err := graph.New(s)
				if err != nil {
					b.Fatal(err)
				}
				if ds := g.Problems(); len(ds) != 0 {
					b.Fatalf("generated skill has findings: %v", ds[0])
				}
				if len(g.Reachable()) != n || len(g.Cycles()) != 0 || len(g.CannotReachEnd()) != 0 {
					b.Fatal("analyses disagree with the generated shape")
				}
			}
		})
	}
}

// BenchmarkCheck runs graph.Check, what lint and make_plan run, on the
// same templates: IDs, goals, tools, targets and the graph's problems. It
// must stay linear too (compare 10k with 100k).
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		t := compileGenerated(b, n)
		limits := graph.Limits{MaxSteps: n}
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if ps := graph.Check(t, limits); len(ps) != 0 {
					b.Fatalf("generated template has problems: %v", ps[0])
				}
			}
		})
	}
}

// BenchmarkCompile compiles the same 100k-step skill, the yardstick the
// graph's cost is held against.
func BenchmarkCompile(b *testing.B) {
	src := generated(100_000)
	b.Run("steps=100000", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		defer reportCPU(b)()
		for b.Loop() {
			if _, diags := compiler.Compile("generated.md", src, compiler.Options{MaxSize: -1}); diags.HasErrors() {
				b.Fatal(diags[0])
			}
		}
	})
}

// BenchmarkDOT draws the 10k-step graph; drawing must stay linear too.
func BenchmarkDOT(b *testing.B) {
	s := compileGenerated(b, 10_000)
	g, err := graph.New(s)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = g.DOT()
		_ = g.Mermaid()
	}
}

// BenchmarkLoop holds one 100k-step loop: the worst case for Tarjan's
// stack and for the shortest-loop walk.
func BenchmarkLoop(b *testing.B) {
	const n = 100_000
	s := &graph.Template{Steps: make([]graph.Step, n)}
	for i := range s.Steps {
		s.Steps[i] = graph.Step{ID: fmt.Sprint(i + 1), Goal: "g"}
	}
	s.Steps[n-1].NextOnSuccess, s.Steps[n-1].NextOnFailure = "1", "end"
	b.ReportAllocs()
	for b.Loop() {
		g, err := graph.New(s)
		if err != nil {
			b.Fatal(err)
		}
		if c := g.Cycles(); len(c) != 1 || len(c[0]) != n {
			b.Fatalf("want one loop of %d steps", n)
		}
	}
}

// reportCPU adds cpu-ns/op, the process's user and system time per
// operation: on a machine shared with other jobs wall time mostly measures
// the neighbours, CPU time still measures us (GC workers included).
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
