package graph

import (
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestOverlayNilIsPlain: no overlay, or an empty one, draws exactly the
// skill's drawing, so skills and plans share one writer.
func TestOverlayNilIsPlain(t *testing.T) {
	g, err := New(nasty())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []*Overlay{nil, {}, {States: map[string]State{}}} {
		if !bytes.Equal(g.DOTWith(o), g.DOT()) || !bytes.Equal(g.MermaidWith(o), g.Mermaid()) {
			t.Errorf("overlay %+v changes the drawing", o)
		}
	}
}

// TestOverlayDrawing: each state's style and status line, the path and
// the terminal it reached in bold, with text that tries every escape, and
// on terminal copies (past maxSharedTerminal edges into fail). Graphviz
// must accept the DOT.
func TestOverlayDrawing(t *testing.T) {
	spec := make([]string, maxSharedTerminal+2)
	for i := range spec {
		spec[i] = strconv.Itoa(i + 1)
	}
	copies := skill(spec...)
	copies.Steps[3].WaitFor = `the "boss" <ok> & a|b`
	tests := []struct {
		name string
		tmpl *Template
		o    *Overlay
		dot  []string // in the DOT, in any order
		mmd  []string // in the Mermaid
	}{
		{name: "nasty", tmpl: nasty(),
			o: &Overlay{
				States:  map[string]State{"node": Done, "2": Failed, "graph": InProgress},
				Notes:   map[string]string{"2": `round 1 of 3 <"x">`},
				Path:    map[Arc]bool{{From: "node", Kind: Success}: true, {From: "2", Kind: Failure}: true},
				Caption: `active · 1/3 done · "q"`,
			},
			dot: []string{`<b>[x] done</b>`, `<b>[!] failed · round 1 of 3 &lt;&quot;x&quot;&gt;</b>`,
				`label="Quotes \"here\" & <tags> \\ back\\slash\nactive · 1/3 done · \"q\""`,
				`"(entry)" -> "node" [color=black, penwidth=3]`, `style=bold, penwidth=3`},
			mmd: []string{`<b>[x] done</b>`, `#lt;#quot;x#quot;#gt;`, `· active · 1/3 done · \"q\"`,
				"linkStyle 0,1 stroke-width:3px", "class s0 stepDone", "class s1 stepFailed"},
		},
		{name: "copies", tmpl: copies,
			o: &Overlay{
				States: map[string]State{"1": Done, "2": Skipped, "3": Done, "4": Waiting, "10": Failed},
				Path: map[Arc]bool{{From: "1", Kind: Success}: true, {From: "2", Kind: Success}: true,
					{From: "3", Kind: Success}: true, {From: "10", Kind: Failure}: true},
			},
			dot: []string{`"4" [group=steps, peripheries=2, style="rounded,filled,bold", color="#b7791f"`,
				`<i>waits for: the &quot;boss&quot; &lt;ok&gt; &amp;</i>`, `[-] skipped`, `[&gt;] waiting`,
				`"fail:10" [shape=octagon`, `margin=0.02, fontsize=9, width=0.3, height=0.3, penwidth=3]`,
				`"10" -> "fail:10" [style="dashed,bold", penwidth=3`},
			mmd: []string{`s3(["<b>4</b>`, "class s1 stepSkipped", "class s3 stepWaiting", "style t_fail_9 stroke-width:3px",
				"stroke-dasharray:5 3"},
		},
	}
	dot, dotErr := exec.LookPath("dot")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(tt.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			d, m := string(g.DOTWith(tt.o)), string(g.MermaidWith(tt.o))
			for _, want := range tt.dot {
				if !strings.Contains(d, want) {
					t.Errorf("DOT lacks %s:\n%s", want, d)
				}
			}
			for _, want := range tt.mmd {
				if !strings.Contains(m, want) {
					t.Errorf("Mermaid lacks %s:\n%s", want, m)
				}
			}
			if dotErr != nil {
				return
			}
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin = strings.NewReader(d)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Fatalf("dot -Tsvg rejects the drawing: %v\n%s", err, stderr.String())
			}
			checkSVG(t, out)
		})
	}
}
