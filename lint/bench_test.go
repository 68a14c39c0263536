package lint

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkLintSourceSize lints one skill of n steps, each with a
// suppression comment, prose branches and annotations, to show the cost of
// a file grows linearly with its size: steps=10000 should take about ten
// times steps=1000.
func BenchmarkLintSourceSize(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		var sb strings.Builder
		sb.WriteString("---\nname: big\ndescription: One big skill. Use when benchmarking.\n---\n# Big\n\n")
		for s := 1; s <= n; s++ {
			in := strings.Repeat(" ", len(fmt.Sprint(s))+2)
			fmt.Fprintf(&sb, "%d. Is part %d done?\n%s<!-- skillc-disable goal-too-long, question-without-branch -->\n%s- tools: search_thread\n%s- yes: %d\n\n%sIf it fails, stop. Otherwise continue to step %d.\n",
				s, s, in, in, in, min(s+1, n), in, min(s+1, n))
		}
		src := []byte(sb.String())
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				LintSource("big.md", src, Options{MaxSize: -1})
			}
		})
	}
}
