package compiler

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// DefaultMaxSize is the largest file Compile reads unless Options.MaxSize
// says otherwise.
const DefaultMaxSize = 10 << 20

// MaxNesting is how deeply lists and block quotes may nest. goldmark checks
// every open block on every line, so deep nesting makes parsing cost grow
// with depth times file size; no real skill nests anywhere near this deep.
const MaxNesting = 32

// DefaultMaxBlocks is how many list items and headings Compile accepts
// unless Options.MaxBlocks says otherwise. A step costs some kilobytes by
// the time it is linted, so this keeps a file's peak memory near 100 MB;
// the longest real skill we know has about 220.
const DefaultMaxBlocks = 10000

// InlinePerBlock is how many inline markup characters Compile accepts per
// list item or heading of its limit: 50,000 by default, against about
// 3,000 in the most marked-up real skill we know.
const InlinePerBlock = 5

// LevelLinesPerBlock is how many lines inside lists and quotes, each
// counted once per level open around it, Compile accepts per list item or
// heading of its limit: 250,000 by default. goldmark keeps a record of 24
// bytes per line per open block until they all close; real skills stay
// below a few thousand.
const LevelLinesPerBlock = 25

// MaxLinkDefRun is how many link reference definitions may follow one
// another without a blank line: goldmark re-reads the rest of the run for
// each one, so a run costs the square of its length.
const MaxLinkDefRun = 2000

// Options tune Compile. The zero value is the default.
type Options struct {
	// MaxSize is the largest source accepted, in bytes; 0 means
	// DefaultMaxSize, a negative value means no limit.
	MaxSize int64
	// Strict reads FORMAT v1 only: no version 2 inference (config
	// infer: false, --strict).
	Strict bool
	// MaxBlocks is how many list items, headings and rules are accepted;
	// InlinePerBlock times it, how many inline markup characters, and
	// LevelLinesPerBlock times it, how many lines inside lists. 0 means
	// DefaultMaxBlocks, a negative value means no limit.
	MaxBlocks int
	// NoDetails leaves every step's Detail empty, for a caller that only
	// reports findings: no check reads a detail, and rendering them is a
	// twentieth of a lint run (callgrind, 2,000 skills).
	NoDetails bool
}

func (o Options) maxBlocks() int {
	if o.MaxBlocks == 0 {
		return DefaultMaxBlocks
	}
	return o.MaxBlocks
}

func (o Options) maxSize() int64 {
	if o.MaxSize == 0 {
		return DefaultMaxSize
	}
	return o.MaxSize
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// mdParser is the one goldmark parser of the process. Building one costs
// more than parsing a short skill (tables of 256 parser slots, sorted
// option lists), and it is safe for concurrent use: its setup runs once
// under a sync.Once on the first Parse, and all parsing state lives in the
// per-call parser.Context; the default block and inline parsers are
// stateless.
//
// It is built on first use: a command that compiles nothing (version,
// plan update) should not pay for it.
var mdParser = sync.OnceValue(func() parser.Parser { return goldmark.New().Parser() })

// mdParserNoLinkDefs is mdParser without goldmark's one paragraph
// transformer, which looks for link reference definitions ("[id]: url")
// at the start of every paragraph and makes a reader for each to do it.
// A definition's label ends in "]:", so a body without those two bytes in
// a row defines no link, and parses to the same tree without the pass
// (parseMarkdown).
var mdParserNoLinkDefs = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...))
})

// parseMarkdown parses body with mdParser, or with mdParserNoLinkDefs
// when body cannot define a link.
func parseMarkdown(body []byte) ast.Node {
	p := mdParser
	if !bytes.Contains(body, []byte("]:")) {
		p = mdParserNoLinkDefs
	}
	return p().Parse(text.NewReader(body))
}

// compilation holds the state of one Compile call.
type compilation struct {
	filename string
	src      []byte // after the BOM, if any
	idx      *lineIndex
	diags    Diagnostics
	skill    *Skill

	// body is the markdown after the frontmatter; bodyOff is where it
	// starts in src. goldmark sees only body, so every goldmark offset is
	// shifted by bodyOff.
	body    []byte
	bodyOff int
	bodyStr string // body as a string, made on first use
	// textBuf is inlineText's buffer, reused from call to call.
	textBuf []byte
	// edges are the edge bullets of the step finish is at, which wait
	// for resolveEdges, and unknown its bullets with an unknown KEY, maybe
	// a branch (checkUnknownKeys): one step's at a time, in the same room.
	edges, unknown []pendingEdge

	// infer turns on FORMAT version 2's readings (section 6): off under
	// Options.Strict, so that v1 inputs read exactly as v1 says.
	infer bool
	// noDetails is Options.NoDetails.
	noDetails bool
	// parts are the indices of the steps that begin a part of the
	// procedure after the first: a numbered list that starts again after
	// prose, or the list that goes on after heading steps.
	parts []int
}

// Compile reads one workflow skill. filename is used for positions and for
// the skill's name when the frontmatter gives none. It always returns a
// Skill (possibly with no steps) and the diagnostics found, which are
// syntax only: what the text means is for the lint rules. It never panics.
func Compile(filename string, src []byte, opts Options) (*Skill, Diagnostics) {
	c := &compilation{filename: filename, infer: !opts.Strict, noDetails: opts.NoDetails}
	c.skill = &Skill{Filename: filename, Source: src, Strict: opts.Strict}
	base := 0
	if bytes.HasPrefix(src, utf8BOM) {
		// The BOM is not text: parsing starts after it and columns do not
		// count it, but Byte offsets still do, so they index Source and
		// the file alike.
		src = src[len(utf8BOM):]
		base = len(utf8BOM)
	}
	c.src = src

	if max := opts.maxSize(); max >= 0 && int64(len(src)+base) > max {
		// Checked before anything looks at the bytes, so the cost of a
		// refusal does not grow with the file.
		c.skill.Source = nil
		c.skill.Unread = true
		c.skill.Name = nameFromPath(filename)
		c.skill.Title = c.skill.Name
		c.report(Diagnostic{
			Severity: SeverityError,
			Rule:     "file-too-large",
			Summary:  fmt.Sprintf("file is larger than the limit of %d bytes", max),
			Detail:   "skills are short write-ups; to compile a larger file anyway, raise the limit with --max-size (bytes, -1 for no limit)",
			Range:    Range{Start: Pos{Line: 1, Column: 1, Byte: 0}, End: Pos{Line: 1, Column: 1, Byte: 0}},
		})
		return c.skill, c.diags
	}

	c.idx = newLineIndex(src, base)
	c.checkEncoding()
	c.bodyOff = c.parseFrontmatter()
	c.body = src[c.bodyOff:]

	var doc ast.Node
	if !c.checkShape(opts) {
		doc = parseMarkdown(c.body)
	}
	c.identify(doc)
	if doc != nil {
		c.collectLinks(doc)
		c.findSteps(doc)
	}
	c.inferProseEdges(opts)
	// A body read without steps is the no-steps rule's finding: the text
	// reads fine, it is only not a workflow.
	c.skill.Unread = doc == nil
	c.diags.Sort()
	return c.skill, c.diags
}

func (c *compilation) report(d Diagnostic) {
	if d.File == "" {
		d.File = c.filename
	}
	c.diags = append(c.diags, d)
}

// checkEncoding reports the first invalid UTF-8 sequence and the first NUL
// byte. Compiling goes on: the rest of the file may still say useful things.
func (c *compilation) checkEncoding() {
	src := c.src
	if i := bytes.IndexByte(src, 0); i >= 0 {
		c.report(Diagnostic{
			Severity: SeverityError,
			Rule:     "invalid-encoding",
			Summary:  "file contains a NUL byte",
			Detail:   "a skill is UTF-8 text; NUL bytes usually mean a binary file or a UTF-16 encoding",
			Range:    c.idx.rng(i, i+1),
		})
	}
	if utf8.Valid(src) {
		return
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			c.report(Diagnostic{
				Severity: SeverityError,
				Rule:     "invalid-encoding",
				Summary:  fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[i]),
				Detail:   "save the file as UTF-8",
				Range:    c.idx.rng(i, i+1),
			})
			return
		}
		i += size
	}
}

// checkShape refuses, before goldmark sees it, markdown whose parse would
// cost far more than its size, and reports true when it did. goldmark's
// nodes cost hundreds of bytes each and a step some kilobytes, so a file
// of two million one-line items took 3 GB; and goldmark re-reads a run of
// link reference definitions once for each, so a long run is quadratic.
// Everything here is estimated line by line without parsing:
//   - the depth of a line is its indentation over two (a nested list item
//     needs at least two columns more than its parent) plus the list and
//     quote markers that open on it, at most MaxNesting;
//   - list items, headings and rules are counted, at most
//     Options.MaxBlocks;
//   - inline markup characters, which each may open a node, are counted, at
//     most InlinePerBlock times that;
//   - lines inside lists and quotes, once per level open around them, at
//     most LevelLinesPerBlock times that;
//   - lines that look like link reference definitions in a row, at most
//     MaxLinkDefRun.
//
// Lines inside fenced code blocks are left out: code may be indented and
// marked up freely, and goldmark keeps it as lines.
func (c *compilation) checkShape(opts Options) bool {
	body := c.body
	maxBlocks := opts.maxBlocks()
	maxInline := maxBlocks * InlinePerBlock
	// A body has no more marks than bytes: one no longer than the limit
	// cannot pass it, and counting every byte was a third of checkShape.
	countInline := maxInline >= 0 && len(body) > maxInline
	maxLevelLines := maxBlocks * LevelLinesPerBlock
	inFence := false
	blocks, inline, defRun := 0, 0, 0
	// open estimates the lists and quotes still open on a line, and
	// levelLines sums it over the lines: goldmark keeps a record per open
	// block per line until they all close, so a run of blank lines inside
	// a deep list costs its length times the depth.
	open, levelLines, prevBlank := 0, 0, false
	for start := 0; start < len(body); {
		end := bytes.IndexByte(body[start:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += start
		}
		line := body[start:end]
		cols, i := 0, 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			if line[i] == '\t' {
				cols += 4 - cols%4
			} else {
				cols++
			}
			i++
		}
		rest := line[i:]
		if bytes.HasPrefix(rest, []byte("```")) || bytes.HasPrefix(rest, []byte("~~~")) {
			inFence = !inFence
		}
		refuse := func(summary, detail string) bool {
			c.report(Diagnostic{
				Severity: SeverityError,
				Rule:     "file-too-large",
				Summary:  summary,
				Detail:   detail,
				Range:    c.idx.rng(c.bodyOff+start, c.bodyOff+end),
			})
			return true
		}
		if !inFence {
			markers, items, text := countMarkers(rest)
			depth := cols/2 + markers
			if depth > MaxNesting {
				return refuse(fmt.Sprintf("lists or quotes nest about %d levels deep here; the limit is %d", depth, MaxNesting),
					"deeply nested markdown is too costly to parse; flatten the lists")
			}
			// The indent is skipped already: a line that goes on with a
			// printable ASCII byte is not blank, with no call to find it.
			blank := len(rest) == 0 || !(rest[0] > ' ' && rest[0] < utf8.RuneSelf) && len(bytes.TrimSpace(rest)) == 0
			switch {
			case depth > 0:
				open = depth
			case !blank && prevBlank:
				open = 0 // unindented text after a blank line closes every list
			}
			// A blank line or a lazy continuation line keeps what is open.
			prevBlank = blank
			levelLines += open
			if maxLevelLines >= 0 && levelLines > maxLevelLines {
				return refuse(fmt.Sprintf("more than %d lines inside lists or quotes by this line, each line counted once per level open around it; the limit is %d", maxLevelLines, maxLevelLines),
					fmt.Sprintf("long runs of lines inside nested lists, blank ones above all, are costly to parse; remove the runs of blank lines or flatten the lists, or raise --max-blocks (the limit is %d times it; -1 for no limit)", LevelLinesPerBlock))
			}
			blocks += items
			if isHeading(text) {
				blocks++
			}
			if maxBlocks >= 0 && blocks > maxBlocks {
				return refuse(fmt.Sprintf("more than %d list items, headings and rules by this line; the limit is %d", maxBlocks, maxBlocks),
					"skills are short write-ups; to compile a larger one anyway, raise the limit with --max-blocks (-1 for no limit)")
			}
			if countInline {
				inline += countInlineMarks(text)
			}
			if countInline && inline > maxInline {
				return refuse(fmt.Sprintf("more than %d inline markup characters (* _ ` [ < & \\) by this line; the limit is %d", maxInline, maxInline),
					fmt.Sprintf("each may open a markdown node, which is costly; the limit is %d times --max-blocks: raise that to compile the file anyway (-1 for no limit)", InlinePerBlock))
			}
			if looksLikeLinkDef(text) {
				defRun++
				if defRun > MaxLinkDefRun {
					return refuse(fmt.Sprintf("more than %d link reference definitions in a row; the limit is %d", MaxLinkDefRun, MaxLinkDefRun),
						"a long run of definitions is costly to parse; put a blank line between groups of them, which keeps every definition")
				}
			} else {
				defRun = 0
			}
		}
		start = end + 1
	}
	return false
}

// countMarkers counts the list markers and quote markers that open at the
// start of line, such as "- 1. > " (three, two of them list items), and
// returns the text after them.
func countMarkers(line []byte) (markers, items int, text []byte) {
	if isThematicBreak(line) {
		// "- - - - -" is a rule, not nested lists; it is one block, as is
		// the setext underline "---" it may be.
		return 0, 1, nil
	}
	for {
		for len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			line = line[1:]
		}
		if len(line) == 0 {
			return markers, items, line
		}
		switch {
		case line[0] == '>':
			line = line[1:]
			markers++
			continue
		case (line[0] == '-' || line[0] == '*' || line[0] == '+') && endsMarker(line, 1):
			line = line[1:]
		default:
			j := 0
			for j < len(line) && j < 10 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j == 0 || j >= len(line) || (line[j] != '.' && line[j] != ')') || !endsMarker(line, j+1) {
				return markers, items, line
			}
			line = line[j+1:]
		}
		markers++
		items++
	}
}

// endsMarker reports whether a list marker ending before line[i] is one:
// white space or the end of the line follows (an empty item, "-", is a
// node too).
func endsMarker(line []byte, i int) bool {
	return i >= len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\r'
}

// isHeading reports whether text opens an ATX heading: one to six '#'
// and then white space or the end of the line.
func isHeading(text []byte) bool {
	n := 0
	for n < len(text) && text[n] == '#' {
		n++
	}
	if n >= 1 && n <= 6 && (n == len(text) || text[n] == ' ' || text[n] == '\t' || text[n] == '\r') {
		return true
	}
	// A setext underline, "===": a "---" one is a thematic break or a
	// list item to the estimate, which counts it either way.
	return len(text) > 0 && text[0] == '=' && len(bytes.Trim(text, "= \t\r")) == 0
}

// countInlineMarks counts the bytes of text that can open an inline node:
// emphasis, code spans, links and images, autolinks and HTML, entities,
// escapes.
func countInlineMarks(text []byte) int {
	n := 0
	for _, b := range text {
		n += int(inlineMark[b])
	}
	return n
}

// inlineMark is 1 for the bytes countInlineMarks counts: a table, as the
// count runs over every byte of every file linted, and a lookup is a third
// of the cost of a seven-way comparison.
var inlineMark = [256]uint8{'*': 1, '_': 1, '`': 1, '[': 1, '<': 1, '&': 1, '\\': 1}

// looksLikeLinkDef reports whether text may start a link reference
// definition, "[label]: destination": an overestimate is harmless, as only
// long runs are refused.
func looksLikeLinkDef(text []byte) bool {
	return len(text) > 0 && text[0] == '[' && bytes.Contains(text, []byte("]:"))
}

// isThematicBreak reports whether line is only one of -, * or _ (three or
// more) and white space.
func isThematicBreak(line []byte) bool {
	var mark byte
	count := 0
	for _, ch := range line {
		switch {
		case ch == ' ' || ch == '\t' || ch == '\r':
		case (ch == '-' || ch == '*' || ch == '_') && (mark == 0 || mark == ch):
			mark = ch
			count++
		default:
			return false
		}
	}
	return count >= 3
}

// identify sets the skill's name, title and description: the frontmatter's
// name, else the one of its path (nameFromPath).
func (c *compilation) identify(doc ast.Node) {
	s := c.skill
	fm := s.Frontmatter
	if fm != nil && fm.Name.Set && fm.Name.Value != "" {
		s.Name = fm.Name.Value
	} else {
		s.Name = nameFromPath(c.filename)
	}
	if fm != nil {
		s.Description = fm.Description.Value
	}
	if doc != nil {
		for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
			if h, ok := n.(*ast.Heading); ok && h.Level == 1 {
				s.Title = c.inlineText(h, -1, -1, false)
				start, end := c.blockSpan(h)
				s.TitleRange = c.idx.rng(start, end)
				break
			}
		}
	}
	if s.Title == "" && fm != nil && fm.Document {
		s.Title = fm.Title.Value // a docs site shows its title field as the page's heading
	}
	if s.Title == "" {
		s.Title = s.Name
	}
}

// isSkillFile reports whether path names a SKILL.md, whose folder is the
// skill's name. A lowercase skill.md counts too: the catalog reads one from
// a folder without a SKILL.md, as the reference validator skills-ref does.
func isSkillFile(path string) bool {
	base := filepath.Base(path)
	return base == "SKILL.md" || base == "skill.md"
}

// folderName is the name of the folder holding path, or "" when it cannot
// be told (a relative path in the current directory is made absolute).
func folderName(path string) string {
	dir := filepath.Dir(path)
	if dir == "." {
		if abs, err := filepath.Abs(path); err == nil {
			dir = filepath.Dir(abs)
		}
	}
	base := filepath.Base(dir)
	if base == "." || base == string(filepath.Separator) || base == "" {
		return ""
	}
	return base
}

// SkillFolder is the folder name a SKILL.md's frontmatter name must
// equal, or "" when path is no SKILL.md or its folder cannot be told.
func SkillFolder(path string) string {
	if !isSkillFile(path) {
		return ""
	}
	return folderName(path)
}

// nameFromPath is the name of a skill without frontmatter: the folder of a
// SKILL.md, else the file name without its extension.
func nameFromPath(path string) string {
	if isSkillFile(path) {
		if f := folderName(path); f != "" {
			return f
		}
	}
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}
