package lint

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/skillc/skillc/compiler"
)

// BenchmarkWriteTextFindings prints n findings, one on each line of an
// n-step file, as text with the quoted line. The cost per finding
// (ns/finding) should stay flat from 1k to 20k findings: quoting a line
// must not rescan the file from the top.
func BenchmarkWriteTextFindings(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		var sb strings.Builder
		diags := make(compiler.Diagnostics, 0, n)
		for i := 1; i <= n; i++ {
			line := fmt.Sprintf("%d. Do step %d with `tool_%d`.", i, i, i)
			sb.WriteString(line + "\n")
			col := strings.IndexByte(line, '`') + 1
			diags = append(diags, compiler.Diagnostic{
				Severity: compiler.SeverityWarning, Rule: "unknown-tool", Summary: fmt.Sprintf("unknown tool %q", fmt.Sprint("tool_", i)),
				File: "big.md", Range: compiler.Range{Start: compiler.Pos{Line: int32(i), Column: int32(col)}, End: compiler.Pos{Line: int32(i), Column: int32(col + 8)}},
			})
		}
		src := []byte(sb.String())
		sources := func(string) []byte { return src }
		b.Run(fmt.Sprintf("findings=%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := WriteText(io.Discard, diags, sources, TextOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/finding")
		})
	}
}
