package render

import "testing"

// FuzzXdot: the hand-written xdot reader (parseXdot, readOps) never
// panics and never sizes memory by a count it refused, whatever it is
// given; Graphviz's own output is the seed.
func FuzzXdot(f *testing.F) {
	f.Add([]byte(`digraph { graph [bb="0,0,62,108", _draw_="c 7 -#fffffe00 C 7 -#ffffff P 4 0 0 0 108 62 108 62 0 "]; ` +
		`a [pos="31,90", _draw_="c 7 -#000000 e 31 90 27 18 ", _ldraw_="F 14 11 -Times-Roman c 7 -#000000 T 31 86.3 0 7 1 -a "]; ` +
		`a -> b [pos="e,31,36.1 31,71.7 31,63.98 31,54.71 31,46.11", _draw_="c 7 -#000000 B 4 31 71.7 31 63.98 31 54.71 31 46.11 ", ` +
		`_hdraw_="S 5 -solid c 7 -#000000 C 7 -#000000 P 3 34.5 46.1 31 36.1 27.5 46.1 "]; }`))
	f.Add([]byte(`digraph { subgraph cluster_a { graph [_draw_="t 1 b 4 1 2 3 4 5 6 7 8 L 2 0 0 1 1 p 3 0 0 1 1 2 2"]; } }`))
	f.Add([]byte(`digraph { a [_draw_="P 999999999999 1 2"] }`))
	f.Add([]byte(`digraph { a [label="C:\\temp \"q\""] }`))
	f.Fuzz(func(t *testing.T, b []byte) {
		parseXdot(b)
		readOps(string(b))
	})
}
