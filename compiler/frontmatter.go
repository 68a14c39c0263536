package compiler

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Limits of the Agent Skills specification.
const (
	maxNameLen          = 64
	maxDescriptionLen   = 1024
	maxCompatibilityLen = 500
	// maxYAMLNodes bounds the frontmatter's size with aliases expanded,
	// which keeps an alias bomb ("billion laughs") from costing anything.
	maxYAMLNodes = 10000
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
	if strings.TrimRight(string(src[3:firstEnd]), " \t") != "" {
		return 0 // "----" or "--- text" is markdown, not frontmatter
	}
	closeLine := 0
	for n := 2; n <= c.idx.lineCount(); n++ {
		s, e := c.idx.lineBounds(n)
		l := strings.TrimRight(string(src[s:e]), " \t")
		if l == "---" || l == "..." {
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
	fm := &Frontmatter{Range: c.idx.rng(0, closeEnd)}
	c.skill.Frontmatter = fm

	var doc yaml.Node
	if err := yaml.Unmarshal(src[yamlStart:closeStart], &doc); err != nil {
		c.reportYAMLError(err)
		return bodyStart
	}
	root := &doc
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
			return bodyStart
		}
		c.readFields(fm, root)
	}
	c.checkFields(fm)
	return bodyStart
}

var yamlLineErr = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// reportYAMLError places a yaml.v3 error on its line of the file.
func (c *compilation) reportYAMLError(err error) {
	msg := err.Error()
	line := 2
	if m := yamlLineErr.FindStringSubmatch(msg); m != nil {
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
	stack := []entry{{root, false}}
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

// readFields fills fm from the top-level mapping.
func (c *compilation) readFields(fm *Frontmatter, m *yaml.Node) {
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
			fm.Unknown = append(fm.Unknown, Ref{Name: k.Value, Range: keyRange})
		}
	}
}

func (c *compilation) scalarField(key string, keyRange Range, written, v *yaml.Node) Field {
	f := Field{Set: true, KeyRange: keyRange, Range: c.nodeRange(written)}
	if v.Kind != yaml.ScalarNode {
		c.badField[key] = true
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

// readAllowedTools reads the space-separated tool list; a YAML list of
// names is taken too, since authors write one as often as the other.
func (c *compilation) readAllowedTools(fm *Frontmatter, keyRange Range, written, v *yaml.Node) {
	fm.HasAllowedTools = true
	fm.AllowedRange = c.nodeRange(written)
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
	case v.Kind == yaml.ScalarNode:
		r := fm.AllowedRange
		start := r.Start.Byte - c.idx.base
		end := r.End.Byte - c.idx.base
		raw := c.src[start:end]
		pos := 0
		for _, name := range strings.Fields(v.Value) {
			ref := Ref{Name: name, Range: r}
			if i := bytes.Index(raw[pos:], []byte(name)); i >= 0 && (v.Style == 0 || v.Style == yaml.DoubleQuotedStyle || v.Style == yaml.SingleQuotedStyle) {
				ref.Range = c.idx.rng(start+pos+i, start+pos+i+len(name))
				pos += i + len(name)
			}
			c.addRegistryTool(fm, ref)
		}
	case v.Kind == yaml.SequenceNode:
		for _, item := range v.Content {
			it := resolve(item)
			if it == nil || it.Kind != yaml.ScalarNode {
				c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
					Summary: "\"allowed-tools\" lists tool names; found a " + kindName(it),
					Range:   c.nodeRange(item)})
				continue
			}
			c.addRegistryTool(fm, Ref{Name: it.Value, Range: c.nodeRange(item)})
		}
	default:
		c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
			Summary: "\"allowed-tools\" must be a space-separated list of tool names, not a " + kindName(v),
			Range:   fm.AllowedRange})
	}
}

func (c *compilation) addRegistryTool(fm *Frontmatter, ref Ref) {
	if !c.checkToolName(ref) {
		return
	}
	for _, t := range fm.AllowedTools {
		if t.Name == ref.Name {
			return
		}
	}
	fm.AllowedTools = append(fm.AllowedTools, ref)
}

// checkFields applies the Agent Skills rules for name, description and
// compatibility.
func (c *compilation) checkFields(fm *Frontmatter) {
	opening := c.idx.rng(0, 3)
	switch {
	case c.badField["name"]:
	case !fm.Name.Set:
		c.report(Diagnostic{Severity: SeverityError, Rule: "missing-name",
			Summary:    "frontmatter has no \"name\"",
			Detail:     "every skill needs a name: 1-64 characters of a-z, 0-9 and -",
			Range:      opening,
			Suggestion: suggestName(nameFromPath(c.filename), ""),
		})
	case fm.Name.Value == "":
		c.report(Diagnostic{Severity: SeverityError, Rule: "missing-name",
			Summary: "\"name\" is empty", Range: fm.Name.Range,
			Suggestion: suggestName(nameFromPath(c.filename), "")})
	default:
		c.checkName(fm.Name)
	}
	switch {
	case c.badField["description"]:
	case !fm.Description.Set:
		c.report(Diagnostic{Severity: SeverityError, Rule: "missing-description",
			Summary: "frontmatter has no \"description\"",
			Detail:  "say what the skill does and when to use it, in at most 1024 characters",
			Range:   opening})
	case fm.Description.Value == "":
		c.report(Diagnostic{Severity: SeverityError, Rule: "missing-description",
			Summary: "\"description\" is empty",
			Detail:  "say what the skill does and when to use it, in at most 1024 characters",
			Range:   fm.Description.Range})
	default:
		if n := utf8.RuneCountInString(fm.Description.Value); n > maxDescriptionLen {
			c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-description",
				Summary: fmt.Sprintf("\"description\" is %d characters; the limit is %d", n, maxDescriptionLen),
				Range:   fm.Description.Range})
		}
	}
	if n := utf8.RuneCountInString(fm.Compatibility.Value); n > maxCompatibilityLen {
		c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-frontmatter",
			Summary: fmt.Sprintf("\"compatibility\" is %d characters; the limit is %d", n, maxCompatibilityLen),
			Range:   fm.Compatibility.Range})
	}
}

func (c *compilation) checkName(f Field) {
	name := f.Value
	var problem string
	switch {
	case utf8.RuneCountInString(name) > maxNameLen:
		problem = fmt.Sprintf("is %d characters; the limit is %d", utf8.RuneCountInString(name), maxNameLen)
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		problem = "starts or ends with \"-\""
	case strings.Contains(name, "--"):
		problem = "contains \"--\""
	default:
		for _, r := range name {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				problem = fmt.Sprintf("contains %q; use only a-z, 0-9 and -", r)
				break
			}
		}
	}
	if problem != "" {
		c.report(Diagnostic{Severity: SeverityError, Rule: "invalid-name",
			Summary:    fmt.Sprintf("name %q %s", name, problem),
			Range:      f.Range,
			Suggestion: suggestName(name, ""),
		})
		return
	}
	if isSkillFile(c.filename) {
		if folder := folderName(c.filename); folder != "" && folder != name {
			c.report(Diagnostic{Severity: SeverityError, Rule: "name-mismatch",
				Summary:    fmt.Sprintf("name %q does not match its folder %q", name, folder),
				Detail:     "a SKILL.md is found by its folder's name; rename the folder or change the name",
				Range:      f.Range,
				Suggestion: suggestName(folder, name),
			})
		}
	}
}

// suggestName turns s into a valid skill name, or returns "" when that
// gives nothing or gives back avoid.
func suggestName(s, avoid string) string {
	out := slug(strings.ToLower(s), func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }, maxNameLen)
	if out == avoid {
		return ""
	}
	return out
}
