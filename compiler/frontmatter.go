package compiler

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/skillc/skillc/graph"
)

const (
	// maxYAMLNodes bounds the frontmatter's size with aliases expanded,
	// which keeps an alias bomb ("billion laughs") from costing anything.
	maxYAMLNodes = 10000
	// maxFrontmatterSize bounds the YAML read at all, in bytes: real
	// frontmatter is a few KB.
	maxFrontmatterSize = 256 << 10
)

// parseFrontmatter reads the YAML block at the top of the file into
// skill.Frontmatter and returns the offset where the markdown body begins.
// It works on yaml.v3 nodes, never Decode, so aliases are counted rather
// than expanded and every value keeps its position.
func (c *compilation) parseFrontmatter() int {
	src := c.src
	if !bytes.HasPrefix(src, []byte("---")) {
		return 0
	}
	_, firstEnd := c.idx.lineBounds(1)
	// Bytes trimmed and compared, not a string made of each line: the
	// comparison needs no copy.
	if len(bytes.TrimRight(src[3:firstEnd], " \t")) != 0 {
		return 0 // "----" or "--- text" is markdown, not frontmatter
	}
	closeLine := 0
	for n := 2; n <= c.idx.lineCount(); n++ {
		s, e := c.idx.lineBounds(n)
		l := bytes.TrimRight(src[s:e], " \t")
		if string(l) == "---" || string(l) == "..." {
			closeLine = n
			break
		}
	}
	if closeLine == 0 {
		c.report(Diagnostic{
			Severity: SeverityError,
			Rule:     "invalid-frontmatter",
			Summary:  "frontmatter is never closed: no \"---\" line ends it",
			Detail:   "add a line with just --- after the last frontmatter field",
			Range:    c.idx.rng(0, 3),
		})
		return 0
	}
	yamlStart, _ := c.idx.lineBounds(2)
	closeStart, closeEnd := c.idx.lineBounds(closeLine)
	bodyStart := closeEnd
	if bodyStart < len(src) && src[bodyStart] == '\r' {
		bodyStart++
	}
	if bodyStart < len(src) && src[bodyStart] == '\n' {
		bodyStart++
	}
	fm := &Frontmatter{Range: c.idx.rng(0, closeEnd), Strict: !c.infer}
	c.skill.Frontmatter = fm

	if closeStart-yamlStart > maxFrontmatterSize {
		// yaml.v3's nodes cost some 80 bytes per byte of YAML.
		c.report(Diagnostic{
			Severity: SeverityError,
			Rule:     "file-too-large",
			Summary:  fmt.Sprintf("frontmatter is %d bytes; the limit is %d", closeStart-yamlStart, maxFrontmatterSize),
			Detail:   "frontmatter holds a name, a description and a few fields; move long material into the body or files the skill links to",
			Range:    c.idx.rng(0, 3),
		})
		return bodyStart
	}
	block := src[yamlStart:closeStart]
	root, plain := plainMapping(block)
	if !plain {
		var doc yaml.Node
		if err := yaml.Unmarshal(block, &doc); err != nil {
			c.reportYAMLError(err)
			fm.Malformed = true
			return bodyStart
		}
		root = &doc
	}
	if root.Kind == 0 {
		root = nil // an empty block: no fields at all
	} else if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			root = nil
		} else {
			root = root.Content[0]
		}
	}
	if root != nil {
		if n, first := countNodes(root, maxYAMLNodes); n > maxYAMLNodes {
			c.report(Diagnostic{
				Severity: SeverityError,
				Rule:     "invalid-frontmatter",
				Summary:  fmt.Sprintf("frontmatter aliases expand to more than %d values", maxYAMLNodes),
				Detail:   "YAML anchors and aliases here expand without bound; write the values out",
				Range:    c.nodeRange(first),
			})
			fm.Malformed = true
			return bodyStart
		}
		if root.Kind != yaml.MappingNode {
			c.report(Diagnostic{
				Severity: SeverityError,
				Rule:     "invalid-frontmatter",
				Summary:  fmt.Sprintf("frontmatter is a %s, not a mapping of fields", kindName(root)),
				Detail:   "write fields as \"key: value\" lines, such as name: my-skill",
				Range:    c.nodeRange(root),
			})
			fm.Malformed = true
			return bodyStart
		}
		c.readFields(fm, root)
	}
	if fm.Document {
		// A docs site's page: its keys are the site's, and a skill's
		// required fields are not expected. The lint rule
		// document-frontmatter says that skill hosts cannot load it.
		fm.Unknown, fm.HostKeys = nil, nil
	}
	// What the fields say (a name too long, no description) is for the
	// lint rules, which read the fields recorded here with their ranges;
	// the compiler reports only what it could not read.
	return bodyStart
}

var yamlLineErr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// reportYAMLError places a yaml.v3 error on its line of the file.
func (c *compilation) reportYAMLError(err error) {
	msg := err.Error()
	line := 2
	if m := yamlLineErr().FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			line = n + 1 // the YAML starts on the file's second line
		}
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	s, e := c.idx.lineBounds(line)
	c.report(Diagnostic{
		Severity: SeverityError,
		Rule:     "invalid-frontmatter",
		Summary:  "frontmatter is not valid YAML: " + msg,
		Range:    c.idx.rng(s, e),
	})
}

// countNodes counts the nodes that aliases add when expanded, stopping
// once the count passes limit, so the work is bounded whatever the
// document; nodes written out are walked once each, as parsing did. It
// returns the first alias met, to point at.
func countNodes(root *yaml.Node, limit int) (int, *yaml.Node) {
	type entry struct {
		n        *yaml.Node
		viaAlias bool
	}
	var firstAlias *yaml.Node
	count := 0
	// A frontmatter of a few keys fits the array: no allocation for it.
	var buf [16]entry
	stack := append(buf[:0], entry{root, false})
	for len(stack) > 0 && count <= limit {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.viaAlias {
			count++
		}
		if e.n.Kind == yaml.AliasNode {
			if firstAlias == nil {
				firstAlias = e.n
			}
			if e.n.Alias != nil {
				stack = append(stack, entry{e.n.Alias, true})
			}
			continue
		}
		// Children go on in reverse so they come off in document order
		// and the alias reported is the first one written.
		for i := len(e.n.Content) - 1; i >= 0; i-- {
			stack = append(stack, entry{e.n.Content[i], e.viaAlias})
		}
	}
	if firstAlias == nil {
		firstAlias = root
	}
	return count, firstAlias
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return "single value"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

// nodeRange is the range of a YAML node's text on its first line. yaml.v3
// gives 1-based lines and columns counted in characters, relative to the
// YAML text, which starts on the file's second line.
func (c *compilation) nodeRange(n *yaml.Node) Range {
	if n == nil || n.Line == 0 {
		return c.idx.rng(0, 3)
	}
	line := n.Line + 1
	start := c.idx.offsetAt(line, n.Column)
	_, lineEnd := c.idx.lineBounds(line)
	end := lineEnd
	if n.Kind == yaml.AliasNode && start+1+len(n.Value) <= lineEnd {
		end = start + 1 + len(n.Value) // "*name"
	}
	if n.Kind == yaml.ScalarNode {
		switch n.Style {
		case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
			q := c.src[start]
			for i := start + 1; i < lineEnd; i++ {
				if c.src[i] == q && (q != '"' || c.src[i-1] != '\\') {
					end = i + 1
					break
				}
			}
		case yaml.LiteralStyle, yaml.FoldedStyle:
		default:
			if i := bytes.Index(c.src[start:lineEnd], []byte(" #")); i >= 0 {
				end = start + i
			}
			if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") {
				// A plain scalar ends where its text does; in a flow
				// collection the line goes on after it.
				if e := start + len(n.Value); e <= lineEnd && string(c.src[start:e]) == n.Value {
					end = e
				}
			}
		}
	}
	for end > start && (c.src[end-1] == ' ' || c.src[end-1] == '\t') {
		end--
	}
	return c.idx.rng(start, end)
}

// specKeys are the top-level keys of the Agent Skills specification.
var specKeys = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// hostKeys are the top-level keys that skill hosts define beyond the
// specification (FORMAT 6.1), as their documentation lists them: Claude
// Code's skill frontmatter reference, plus version, which Claude Code's
// own plugin skills carry. GitHub Copilot and Cursor read skills with the
// specification's keys only, so they add none.
var hostKeys = []string{
	"when_to_use", "argument-hint", "arguments", "disable-model-invocation",
	"user-invocable", "model", "effort", "context", "agent", "hooks",
	"paths", "shell", "version",
}

// documentKeys are page keys of static site generators (Jekyll, Hugo,
// Docusaurus, MkDocs, just-the-docs, Gatsby) that no skill host defines.
// A frontmatter without name that has one of them, title first of all,
// belongs to a document: FORMAT 6.1 names title; the others are what the
// runbooks of docs sites carry when their page has no title key.
var documentKeys = map[string]bool{
	"title": true, "layout": true, "permalink": true, "weight": true,
	"sidebar": true, "sidebar_label": true, "sidebar_position": true,
	"nav_order": true, "parent": true, "grand_parent": true,
	"has_children": true, "cover": true, "redirect_from": true,
	"aliases": true, "slug": true, "showTitle": true, "hide_title": true,
	"linkTitle": true, "menu": true,
}

// FrontmatterKeys returns the top-level keys skillc knows: the Agent
// Skills specification's, and under FORMAT version 2 (strict false) also
// those that skill hosts define.
func FrontmatterKeys(strict bool) []string {
	if strict {
		return append([]string(nil), specKeys...)
	}
	return append(append([]string(nil), specKeys...), hostKeys...)
}

func isHostKey(k string) bool {
	for _, h := range hostKeys {
		if h == k {
			return true
		}
	}
	return false
}

// readFields fills fm from the top-level mapping.
func (c *compilation) readFields(fm *Frontmatter, m *yaml.Node) {
	document := false
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := resolve(m.Content[i]), resolve(m.Content[i+1])
		if k == nil || v == nil {
			continue
		}
		keyRange := c.nodeRange(m.Content[i])
		if k.Kind != yaml.ScalarNode {
			c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
				Summary: fmt.Sprintf("frontmatter key is a %s; keys are names such as description", kindName(k)),
				Range:   keyRange})
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
				Summary: fmt.Sprintf("frontmatter key %q is given twice", k.Value),
				Detail:  fmt.Sprintf("first given on line %d; keep one", prev.Line+1),
				Range:   keyRange})
			continue
		}
		seen[k.Value] = k
		switch k.Value {
		case "name":
			fm.Name = c.scalarField(k.Value, keyRange, m.Content[i+1], v)
		case "description":
			fm.Description = c.scalarField(k.Value, keyRange, m.Content[i+1], v)
		case "license":
			fm.License = c.scalarField(k.Value, keyRange, m.Content[i+1], v)
		case "compatibility":
			fm.Compatibility = c.scalarField(k.Value, keyRange, m.Content[i+1], v)
		case "metadata":
			c.readMetadata(fm, m.Content[i+1], v)
		case "allowed-tools":
			c.readAllowedTools(fm, keyRange, m.Content[i+1], v)
		default:
			switch {
			case !c.infer:
				fm.Unknown = append(fm.Unknown, Ref{Name: k.Value, Range: keyRange})
			case isHostKey(k.Value):
				fm.HostKeys = append(fm.HostKeys, Ref{Name: k.Value, Range: keyRange})
			default:
				if k.Value == "title" && v.Kind == yaml.ScalarNode {
					fm.Title = Field{Set: true, Value: v.Value, KeyRange: keyRange, Range: c.nodeRange(m.Content[i+1])}
				}
				if documentKeys[k.Value] && (!document || k.Value == "title") {
					fm.DocumentKey = Ref{Name: k.Value, Range: keyRange}
					document = true
				}
				fm.Unknown = append(fm.Unknown, Ref{Name: k.Value, Range: keyRange})
			}
		}
	}
	fm.Document = document && !fm.Name.Set
}

func (c *compilation) scalarField(key string, keyRange Range, written, v *yaml.Node) Field {
	f := Field{Set: true, KeyRange: keyRange, Range: c.nodeRange(written)}
	if v.Kind != yaml.ScalarNode {
		f.Invalid = true
		c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
			Summary: fmt.Sprintf("%q must be a string, not a %s", key, kindName(v)),
			Range:   f.Range})
		return f
	}
	if v.Tag != "!!null" {
		f.Value = v.Value
	}
	if f.Value == "" {
		f.Range = keyRange
	}
	return f
}

func (c *compilation) readMetadata(fm *Frontmatter, written, v *yaml.Node) {
	fm.MetadataRange = c.nodeRange(written)
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return
	}
	if v.Kind != yaml.MappingNode {
		c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
			Summary: fmt.Sprintf("\"metadata\" must be a mapping of strings to strings, not a %s", kindName(v)),
			Range:   fm.MetadataRange})
		return
	}
	fm.Metadata = map[string]Field{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := resolve(v.Content[i]), resolve(v.Content[i+1])
		if k == nil || val == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode || val.Kind != yaml.ScalarNode {
			bad := k
			if k.Kind == yaml.ScalarNode {
				bad = val
			}
			c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
				Summary: fmt.Sprintf("\"metadata\" must map strings to strings; found a %s", kindName(bad)),
				Detail:  "write nested data as a string, such as a JSON or comma-separated value",
				Range:   c.nodeRange(bad)})
			continue
		}
		f := Field{Set: true, KeyRange: c.nodeRange(v.Content[i]), Range: c.nodeRange(v.Content[i+1])}
		if val.Tag != "!!null" {
			f.Value = val.Value
		}
		fm.Metadata[k.Value] = f
	}
}

// readAllowedTools reads the skill's tool list. FORMAT v1 separates names
// with spaces; a YAML list of names is taken too, since authors write one
// as often as the other. Version 2 (FORMAT 6.1) also reads commas, as
// Claude Code documents the field, and the hosts' permission patterns,
// Bash(git:*), whose tool is the part before the parenthesis.
func (c *compilation) readAllowedTools(fm *Frontmatter, keyRange Range, written, v *yaml.Node) {
	fm.HasAllowedTools = true
	fm.AllowedRange = c.nodeRange(written)
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
	case v.Kind == yaml.ScalarNode:
		if c.notText(v, written, "\"allowed-tools\" lists tool names") {
			return
		}
		c.readToolEntries(fm, v, fm.AllowedRange, true)
	case v.Kind == yaml.SequenceNode:
		for _, item := range v.Content {
			it := resolve(item)
			if it == nil || it.Kind != yaml.ScalarNode {
				c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
					Summary: "\"allowed-tools\" lists tool names; found a " + kindName(it),
					Range:   c.nodeRange(item)})
				continue
			}
			if c.notText(it, item, "\"allowed-tools\" lists tool names") {
				continue
			}
			ir := c.nodeRange(item)
			if !c.infer {
				c.addRegistryTool(fm, Ref{Name: it.Value, Range: ir})
				continue
			}
			c.readToolEntries(fm, it, ir, false)
		}
	default:
		c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
			Summary: "\"allowed-tools\" must be a space-separated list of tool names, not a " + kindName(v),
			Range:   fm.AllowedRange})
	}
}

// notText reports, under version 2, a plain scalar that YAML reads as a
// number or a boolean where text is expected (allowed-tools: 123), as the
// reference validator refuses it; quoting it makes it text. FORMAT v1
// takes such a value as its text.
func (c *compilation) notText(v, written *yaml.Node, what string) bool {
	if !c.infer || v.Style != 0 {
		return false
	}
	var kind string
	switch v.Tag {
	case "!!int", "!!float":
		kind = "a number"
	case "!!bool":
		kind = "a boolean"
	default:
		return false
	}
	c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
		Summary:    fmt.Sprintf("%s; %s is %s, not a name", what, v.Value, kind),
		Detail:     "quote it if it is a tool's name",
		Range:      c.nodeRange(written),
		Suggestion: strconv.Quote(v.Value),
	})
	return true
}

// readToolEntries adds the tools of one allowed-tools scalar: split into
// entries, or, for an item of a YAML list (split false), one entry
// whatever it holds, so "Bash(git diff:*)" is a tool with a pattern and
// "bad tool" no tool name. r is the scalar's range; each entry gets its
// own range when its text can be found on the scalar's line (plain and
// quoted scalars without escapes), else r.
func (c *compilation) readToolEntries(fm *Frontmatter, v *yaml.Node, r Range, split bool) {
	start := r.Start.Byte - c.idx.base
	end := r.End.Byte - c.idx.base
	raw := c.src[start:end]
	locatable := v.Style == 0 || v.Style == yaml.DoubleQuotedStyle || v.Style == yaml.SingleQuotedStyle
	pos := 0
	locate := func(text string) (Range, int) {
		if !locatable {
			return r, -1
		}
		i := bytes.Index(raw[pos:], []byte(text))
		if i < 0 {
			return r, -1
		}
		at := start + pos + i
		pos += i + len(text)
		return c.idx.rng(at, at+len(text)), at
	}
	if !c.infer {
		names := strings.Fields(v.Value)
		fm.AllowedTools = slices.Grow(fm.AllowedTools, len(names))
		for _, name := range names {
			rr, _ := locate(name)
			c.addRegistryTool(fm, Ref{Name: name, Range: rr})
		}
		return
	}
	entries := []string{strings.TrimSpace(v.Value)}
	if split {
		entries = splitAllowedTools(v.Value)
	}
	// Room for every entry at once, not grown one by one: most are kept.
	fm.AllowedTools = slices.Grow(fm.AllowedTools, len(entries))
	fm.AllowedEntries = slices.Grow(fm.AllowedEntries, len(entries))
	for _, entry := range entries {
		er, at := locate(entry)
		c.addToolEntry(fm, entry, er, at)
	}
}

// addToolEntry reads one entry, a tool optionally followed by a permission
// pattern; er is its range, and at its byte offset in the source, or -1
// when the tool cannot be placed inside er.
func (c *compilation) addToolEntry(fm *Frontmatter, entry string, er Range, at int) {
	tool, pattern, ok := splitPermission(entry)
	if !ok {
		c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-tool-name",
			Summary: fmt.Sprintf("allowed-tools entry %q is not a tool name, or a tool with a permission pattern", entry),
			Detail:  "write a tool name, optionally followed by a pattern in balanced parentheses, such as Bash(git:*)",
			Range:   er,
		})
		return
	}
	tr := er
	if at >= 0 && pattern != "" {
		tr = c.idx.rng(at, at+len(tool))
	}
	if c.addRegistryTool(fm, Ref{Name: tool, Range: tr}) {
		fm.AllowedEntries = append(fm.AllowedEntries, AllowedTool{Tool: tool, Pattern: pattern, Range: er})
	}
}

// splitAllowedTools splits an allowed-tools value at spaces and commas
// outside parentheses: a permission pattern may hold either, as in
// Bash(git diff:*) or Bash(npm run test, lint).
func splitAllowedTools(s string) []string {
	var out []string
	depth, from := 0, -1
	for i, r := range s {
		sep := depth == 0 && (r == ',' || unicode.IsSpace(r))
		switch {
		case sep:
			if from >= 0 {
				out = append(out, s[from:i])
				from = -1
			}
			continue
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		}
		if from < 0 {
			from = i
		}
	}
	if from >= 0 {
		out = append(out, s[from:])
	}
	return out
}

// splitPermission splits "Bash(git:*)" into the tool "Bash" and the
// pattern "git:*". ok is false for parentheses that do not close the
// entry or do not balance, and for an entry that is only a pattern.
func splitPermission(entry string) (tool, pattern string, ok bool) {
	open := strings.IndexByte(entry, '(')
	if open < 0 {
		if strings.Contains(entry, ")") {
			return "", "", false
		}
		return entry, "", true
	}
	if open == 0 || !strings.HasSuffix(entry, ")") {
		return "", "", false
	}
	depth := 0
	for i, r := range entry[open:] {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && open+i != len(entry)-1 {
				return "", "", false // Bash(a)(b): the pattern closes early
			}
		}
	}
	if depth != 0 {
		return "", "", false
	}
	return entry[:open], entry[open+1 : len(entry)-1], true
}

// addRegistryTool adds a tool to the registry once, and reports whether
// its name is valid. An invalid one is kept out of the registry, which
// holds what a plan may recommend, and recorded for the invalid-tool-name
// rule to report.
func (c *compilation) addRegistryTool(fm *Frontmatter, ref Ref) bool {
	if graph.CheckToolName(ref.Name) != nil {
		c.skill.InvalidTools = append(c.skill.InvalidTools, ref)
		return false
	}
	for _, t := range fm.AllowedTools {
		if t.Name == ref.Name {
			return true
		}
	}
	fm.AllowedTools = append(fm.AllowedTools, ref)
	return true
}
