package compiler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillc/skillc/compiler/prose"
)

// checkSourcePrefilter fails t when readStep's shortcut would hide a
// reading: a step whose source the prefilter turns away, with no
// annotation edge inside a word, must have prose the prefilter turns away
// too.
func checkSourcePrefilter(t *testing.T, src []byte) {
	t.Helper()
	s, _ := Compile("x/SKILL.md", src, Options{})
	source := string(s.Source)
	for _, st := range s.Steps {
		from, to := st.Range.Start.Byte, min(st.Range.End.Byte, len(s.Source))
		if st.Range.IsZero() || from < 0 || from >= to {
			continue
		}
		var blank [][2]int
		for _, a := range st.Annotations {
			blank = append(blank, [2]int{a.Range.Start.Byte - from, a.Range.End.Byte - from})
		}
		text := source[from:to]
		// Without step names and with them, where arrows count too.
		for _, ctx := range []prose.Context{{}, {Names: []string{""}}} {
			if !prose.MayRead(text, ctx) && !cutsWord(st, text, from) && prose.MayRead(proseOnly(text, blank, nil), ctx) {
				t.Fatalf("step %q: its source is turned away, its prose is not:\n%s", st.ID, text)
			}
		}
	}
}

func TestSourcePrefilter(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/compile/*.md")
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkSourcePrefilter(t, src)
	}
}

func FuzzSourcePrefilter(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/compile/*.md")
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("1. a\n   - on failure: go to 2\n   - yes: 2\n2. b\n"))
	f.Fuzz(func(t *testing.T, src []byte) { checkSourcePrefilter(t, src) })
}
