package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPNGInBrowser: the PNGs skillc draws, whose deflate stream is written
// by hand (graph/render/zerorun.go), decode in Chromium, which inflates
// with zlib and is stricter than Go's reader (an incomplete Huffman code,
// a wrong checksum), to the pixels image/png reads, the last rows
// included: a stream that broke part of the way would leave them empty.
func TestPNGInBrowser(t *testing.T) {
	ctx := newBrowser(t)
	bin := skillcOnPath(t)
	dir := t.TempDir()

	// A skill of 40 steps with branches, failures and tools: a taller
	// picture, in more bands, than the shipped one.
	var sb strings.Builder
	sb.WriteString("---\nname: forty\ndescription: Forty steps. Use when testing the PNG.\n---\n# Forty steps\n\n## Steps\n\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&sb, "%d. Do the work of step %d.\n", i, i)
		switch {
		case i%7 == 0 && i+2 <= 40:
			fmt.Fprintf(&sb, "    - yes (one record): %d\n    - no (many): %d\n", i+2, i+1)
		case i%5 == 0 && i+3 <= 40:
			fmt.Fprintf(&sb, "    - tools: tool_%d\n    - on failure: %d\n", i, i+3)
		}
	}
	forty := filepath.Join(dir, "forty", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(forty), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(forty, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pictures := map[string][]string{
		"acat.png":  {"graph", filepath.Join("..", "..", "skills", "acat-reimbursement", "SKILL.md"), "--format", "png"},
		"forty.png": {"graph", forty, "--format", "png", "--scale", "1.5"},
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	// A page of the same origin, so that the canvas may be read.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	for name, args := range pictures {
		out := filepath.Join(dir, name)
		if b, err := exec.Command(bin, append(args, "-o", out)...).CombinedOutput(); err != nil {
			t.Fatalf("skillc %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: image/png: %v", name, err)
		}
		// A grid of points, and the last row.
		b := want.Bounds()
		var pts [][2]int
		for gy := range 24 {
			for gx := range 12 {
				pts = append(pts, [2]int{gx * (b.Dx() - 1) / 11, gy * (b.Dy() - 1) / 23})
			}
		}
		for x := 0; x < b.Dx(); x += max(1, b.Dx()/40) {
			pts = append(pts, [2]int{x, b.Dy() - 1})
		}
		js, _ := json.Marshal(pts)
		expr := fmt.Sprintf(`(async () => {
			const img = new Image();
			img.src = %q;
			await img.decode();
			const c = document.createElement("canvas");
			c.width = img.naturalWidth; c.height = img.naturalHeight;
			const g = c.getContext("2d", {willReadFrequently: true});
			g.drawImage(img, 0, 0);
			return JSON.stringify({w: img.naturalWidth, h: img.naturalHeight,
				px: %s.map(([x, y]) => Array.from(g.getImageData(x, y, 1, 1).data))});
		})()`, srv.URL+"/"+name, js)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s in chromium: %v", name, err)
		}
		var res struct {
			W, H int
			Px   [][4]uint8
		}
		if err := json.Unmarshal([]byte(got), &res); err != nil {
			t.Fatalf("%s: %v in %s", name, err, got)
		}
		if res.W != b.Dx() || res.H != b.Dy() || len(res.Px) != len(pts) {
			t.Fatalf("%s: chromium reads %dx%d px (%d points), image/png %v", name, res.W, res.H, len(res.Px), b.Size())
		}
		for i, p := range pts {
			c := color.NRGBAModel.Convert(want.At(p[0], p[1])).(color.NRGBA)
			if w := [4]uint8{c.R, c.G, c.B, c.A}; res.Px[i] != w {
				t.Errorf("%s: pixel %d,%d is %v in chromium, %v in image/png", name, p[0], p[1], res.Px[i], w)
			}
		}
	}
}
