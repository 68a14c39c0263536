package compiler

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
)

// Link is a link or an image of the body, as the markdown parser reads it:
// text in a code span or a code block is no link, and a reference link
// [text][ref] has its definition's destination.
type Link struct {
	// Destination is as written, without angle brackets.
	Destination string
	// Image is true for ![alt](destination).
	Image bool
	// Range is the destination's range when it is written in the link,
	// else (a reference link) the link text's.
	Range Range
}

// collectLinks records the body's links and images in Skill.Links, for
// lint's broken-link rule: the compiler's parse is the one place that
// knows what markdown makes a link.
func (c *compilation) collectLinks(doc ast.Node) {
	if bytes.IndexByte(c.body, '[') < 0 {
		return // every link and image, inline or by reference, has a "["
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		image := false
		switch v := n.(type) {
		case *ast.Link:
			dest = v.Destination
		case *ast.Image:
			dest, image = v.Destination, true
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML, *ast.AutoLink:
			return ast.WalkSkipChildren, nil
		default:
			return ast.WalkContinue, nil
		}
		if len(dest) > 0 {
			c.skill.Links = append(c.skill.Links, Link{Destination: string(dest), Image: image, Range: c.linkRange(n, dest)})
		}
		return ast.WalkContinue, nil
	})
}

// linkRange places a link: its destination when it follows the link text
// as "](destination", else the text. goldmark keeps no position for either,
// only the text's segments.
func (c *compilation) linkRange(n ast.Node, dest []byte) Range {
	start, end := -1, -1
	_ = ast.Walk(n, func(m ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := m.(*ast.Text); ok && entering {
			if start < 0 {
				start = t.Segment.Start
			}
			end = max(end, t.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	if start < 0 {
		// No text ([](file.md)): the block's first line holds the link.
		p := n.Parent()
		for p != nil && p.Type() != ast.TypeBlock {
			p = p.Parent()
		}
		if p == nil {
			return c.idx.rng(c.abs(0), c.abs(0))
		}
		s, _ := c.blockSpan(p)
		start, end = s-c.bodyOff, s-c.bodyOff
	}
	// The destination follows within the same line: "](" then optional
	// spaces and "<".
	lineEnd := bytes.IndexByte(c.body[end:], '\n')
	if lineEnd < 0 {
		lineEnd = len(c.body) - end
	}
	rest := c.body[end : end+lineEnd]
	if i := bytes.Index(rest, []byte("](")); i >= 0 {
		if j := bytes.Index(rest[i:], dest); j >= 0 {
			at := end + i + j
			return c.idx.rng(c.abs(at), c.abs(at+len(dest)))
		}
	}
	return c.idx.rng(c.abs(start), c.abs(end))
}
