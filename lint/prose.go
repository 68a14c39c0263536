package lint

import "bytes"

// proseSpans returns the byte spans of src[from:to] that are prose: lines
// outside fenced code blocks, with HTML comments blanked out. Rules that
// read an author's sentences (missing-when-to-use, prose-branch) use it so
// that code and comments never count as prose. Offsets stay those of src.
func proseSpans(src []byte, from, to int) [][2]int {
	var spans [][2]int
	fence := []byte(nil)
	inComment := false
	for off := from; off < to; {
		end := bytes.IndexByte(src[off:to], '\n')
		next := to
		if end < 0 {
			end = to
		} else {
			end += off
			next = end + 1
		}
		line := src[off:end]
		trimmed := bytes.TrimLeft(line, " \t>")
		switch {
		case fence != nil:
			if bytes.HasPrefix(trimmed, fence) {
				fence = nil
			}
		case bytes.HasPrefix(trimmed, []byte("```")) || bytes.HasPrefix(trimmed, []byte("~~~")):
			fence = trimmed[:3]
		default:
			// Split the line around HTML comments, which may span lines.
			start := off
			for i := off; i < end; {
				if !inComment {
					k := bytes.Index(src[i:end], []byte("<!--"))
					if k < 0 {
						break
					}
					if i+k > start {
						spans = append(spans, [2]int{start, i + k})
					}
					inComment = true
					i += k + 4
					continue
				}
				k := bytes.Index(src[i:end], []byte("-->"))
				if k < 0 {
					break
				}
				inComment = false
				i += k + 3
				start = i
			}
			if !inComment && start < end {
				spans = append(spans, [2]int{start, end})
			}
		}
		off = next
	}
	return spans
}

// bodyStart is the byte offset just after the frontmatter, or 0.
func bodyStart(p *Pass) int {
	if fm := p.Skill.Frontmatter; fm != nil && !fm.Range.IsZero() {
		return min(fm.Range.End.Byte, len(p.Skill.Source))
	}
	return 0
}

// equalFoldASCII reports whether b equals the lowercase ASCII word w,
// ignoring ASCII case.
func equalFoldASCII(b []byte, w string) bool {
	for j := 0; j < len(w); j++ {
		c := b[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}
