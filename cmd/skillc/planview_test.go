package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/internal/golden"
	"github.com/skillc/skillc/plan"
)

// svgShapes reads an SVG document whole (it must parse as XML) and returns
// the fill and stroke colours and stroke widths its shapes use, and its
// text.
func svgShapes(t *testing.T, b []byte) (styles map[string]bool, text string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false // Graphviz writes a DOCTYPE with an external DTD
	styles = map[string]bool{}
	var txt strings.Builder
	root := ""
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("the SVG does not parse as XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = el.Name.Local
			}
			for _, a := range el.Attr {
				switch a.Name.Local {
				case "fill", "stroke", "stroke-width":
					styles[a.Name.Local+"="+a.Value] = true
				}
			}
		case xml.CharData:
			txt.Write(el)
			txt.WriteByte('\n')
		}
	}
	if root != "svg" {
		t.Fatalf("the document's root is %q, not svg", root)
	}
	return styles, txt.String()
}

// TestPlanViewPicture is issue 13's picture end to end on a real SQLite
// file: the ACAT plan from the shipped skill, mid-way (step 1 done, step 2
// failed, step 4 in progress), and on the path 1, 2, 3 to 4, viewed as
// DOT and Mermaid (golden), SVG (it parses, and the done, failed and
// current steps have their own styles) and PNG (it decodes).
func TestPlanViewPicture(t *testing.T) {
	tests := []struct {
		name    string
		updates [][]string
	}{
		{name: "acat-midway", updates: [][]string{{"--check", "1"}, {"--fail", "2"}}},
		{name: "acat-path", updates: [][]string{{"--fail", "1"}, {"--check", "2"}, {"--fail", "3"}}},
	}
	dotProg, dotErr := exec.LookPath("dot")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newPlanCLI(t)
			s := []string{"--user", "ana", "--session", "ticket-1"}
			with := func(args ...string) []string { return append(args, s...) }
			c.must(with("make", "--skill", "acat-reimbursement")...)
			for _, u := range tt.updates {
				c.must(with(append([]string{"update"}, u...)...)...)
			}
			base := filepath.Join("..", "..", "testdata", "plan", "view-"+tt.name)
			dot := c.must(with("view", "--format", "dot")...)
			golden.Check(t, base+".dot", []byte(dot))
			golden.Check(t, base+".mmd", []byte(c.must(with("view", "-f", "mermaid")...)))

			// The text and JSON formats are the checklist and --json.
			if got, want := c.must(with("view", "--format", "text")...), c.must(with("view")...); got != want {
				t.Errorf("--format text:\n%s\nwant the checklist:\n%s", got, want)
			}
			if got, want := c.must(with("view", "--format", "json")...), c.must(with("view", "--json")...); got != want {
				t.Errorf("--format json differs from --json")
			}

			svg := c.must(with("view", "--format", "svg")...)
			styles, text := svgShapes(t, []byte(svg))
			for _, want := range []string{
				"fill=#c6f6d5", "stroke=#2f855a", // done
				"fill=#fed7d7", "stroke=#c53030", // failed
				"fill=#bee3f8", "stroke=#2b6cb0", // in progress
				"stroke-width=3", // the path and the position
			} {
				if !styles[want] {
					t.Errorf("the SVG has no shape with %s; it has %v", want, styles)
				}
			}
			for _, want := range []string{"[x] done", "[!] failed", "[>] in progress", "position: 4"} {
				if !strings.Contains(text, want) {
					t.Errorf("the SVG does not say %q:\n%s", want, text)
				}
			}

			out := filepath.Join(t.TempDir(), "plan.png")
			c.must(with("view", "--format", "png", "-o", out)...)
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if img, err := png.Decode(f); err != nil || img.Bounds().Dx() < 100 {
				t.Fatalf("the PNG does not decode: %v", err)
			}

			if dotErr == nil {
				cmd := exec.Command(dotProg, "-Tsvg")
				cmd.Stdin = strings.NewReader(dot)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if _, err := cmd.Output(); err != nil || stderr.Len() > 0 {
					t.Fatalf("Graphviz's dot rejects the plan's DOT: %v\n%s", err, stderr.String())
				}
			}
		})
	}
}

// TestPlanViewFormats: the refusals of plan view's formats, each exit 2
// with nothing on stdout; -o writes the checklist or JSON too.
func TestPlanViewFormats(t *testing.T) {
	c := newPlanCLI(t)
	s := []string{"--user", "ana", "--session", "t"}
	with := func(args ...string) []string { return append(args, s...) }
	c.must(with("make", "--skill", "acat-reimbursement")...)
	c.refused(2, `unknown format "gif": want text, json, dot, mermaid, svg, png`, with("view", "--format", "gif")...)
	c.refused(2, "--json and --format dot: give one of them", with("view", "--format", "dot", "--json")...)
	c.refused(2, "write ", with("view", "--format", "dot", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "p.dot"))...)

	// An SVG or PNG is not written to a terminal; to a file it is.
	for _, tt := range []struct {
		opts PlanViewOptions
		err  string
	}{
		{opts: PlanViewOptions{Format: "svg"}, err: "will not write svg to a terminal: name a file with -o"},
		{opts: PlanViewOptions{Format: "png"}, err: "will not write png to a terminal"},
		{opts: PlanViewOptions{Format: "png", Output: "p.png"}},
		{opts: PlanViewOptions{Format: "dot"}},
	} {
		o := tt.opts
		o.PlanOptions = &PlanOptions{}
		o.OutIsTerminal = func() bool { return true }
		err := o.check()
		if tt.err == "" && err != nil || tt.err != "" && (exitCode(err) != exitUsage || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%+v on a terminal: %v, want %q", tt.opts, err, tt.err)
		}
	}

	dir := t.TempDir()
	c.must(with("view", "--format", "json", "-o", filepath.Join(dir, "p.json"))...)
	b, err := os.ReadFile(filepath.Join(dir, "p.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p plan.Plan
	if err := json.Unmarshal(b, &p); err != nil || p.Skill != "acat-reimbursement" {
		t.Fatalf("view --format json -o: %v, %q", err, b)
	}
	c.must(with("view", "-o", filepath.Join(dir, "p.txt"))...)
	if b, _ := os.ReadFile(filepath.Join(dir, "p.txt")); !strings.HasPrefix(string(b), "ACAT reimbursement · active · 0/4 done\n") {
		t.Fatalf("view -o: %q", b)
	}
}
