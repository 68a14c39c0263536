package compiler

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/skillc/skillc/graph"
)

// Annotation keys of FORMAT.md §3, lowercased with single spaces.
var annotationKeys = map[string]AnnotationKind{
	"tools": AnnotationTools, "tool": AnnotationTools, "use": AnnotationTools, "uses": AnnotationTools,

	"on success": AnnotationSuccess, "success": AnnotationSuccess, "ok": AnnotationSuccess,
	"pass": AnnotationSuccess, "yes": AnnotationSuccess, "if yes": AnnotationSuccess, "then": AnnotationSuccess,

	"on failure": AnnotationFailure, "failure": AnnotationFailure, "fail": AnnotationFailure,
	"on error": AnnotationFailure, "error": AnnotationFailure, "no": AnnotationFailure,
	"if no": AnnotationFailure, "else": AnnotationFailure, "otherwise": AnnotationFailure,
}

// waitText is a wait annotation's value as plain text: emphasis and code
// marks dropped, white space collapsed, a final period kept out.
func waitText(v string) string {
	v = strings.NewReplacer("`", "", "**", "", "__", "").Replace(v)
	return strings.TrimSuffix(strings.Join(strings.Fields(v), " "), ".")
}

// waitKeys are the keys of a wait annotation (FORMAT 6.6), version 2 only.
var waitKeys = map[string]bool{"wait": true, "wait for": true, "waits for": true, "approval": true}

// edgeKeyNames are the edge keys, in a fixed order for did-you-mean.
var edgeKeyNames = []string{"on success", "success", "ok", "pass", "yes", "if yes", "then",
	"on failure", "failure", "fail", "on error", "error", "no", "if no", "else", "otherwise"}

// Words that name the terminals in a target.
var endWords = map[string]string{
	"end": End, "done": End, "complete": End, "finish": End,
	"fail": Fail, "abort": Fail, "stop": Fail,
}

// Lead phrases allowed before a target, longest first.
var leadPhrases = []string{"continue with", "continue at", "proceed to", "jump to", "go to", "goto"}

// bulletText is the raw markdown of a bullet's first paragraph, its lines
// joined by spaces, with where each line came from, so that any part of it
// can be given a precise range.
type bulletText struct {
	s string
	// first is where s begins; more holds where each further line
	// begins, for the rare bullet that wraps.
	first bulletLine
	more  []bulletLine
}

// bulletLine says that s[at:] up to the next line starts at src offset off.
type bulletLine struct{ at, off int }

func (c *compilation) newBulletText(para ast.Node) bulletText {
	lines := para.Lines()
	if lines.Len() == 0 {
		return bulletText{first: bulletLine{0, c.abs(max(para.Pos(), 0))}}
	}
	seg := lines.At(0)
	start, v := trimLine(c.body, seg.Start, seg.Stop)
	if lines.Len() == 1 {
		// The common case: a slice of the body as a string, no copy.
		return bulletText{s: c.bodyString(start, start+len(v)), first: bulletLine{0, c.abs(start)}}
	}
	bt := bulletText{first: bulletLine{0, c.abs(start)}}
	var b strings.Builder
	b.Write(v)
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		start, v := trimLine(c.body, seg.Start, seg.Stop)
		b.WriteByte(' ')
		bt.more = append(bt.more, bulletLine{b.Len(), c.abs(start)})
		b.Write(v)
	}
	bt.s = b.String()
	return bt
}

// bodyString returns body[start:end] as a string. The source is converted
// once (Skill.text), so the many small strings cut from it share its
// memory.
func (c *compilation) bodyString(start, end int) string {
	if c.bodyStr == "" && len(c.body) > 0 {
		c.bodyStr = c.sourceText()[len(c.skill.Source)-len(c.body):]
	}
	return c.bodyStr[start:end]
}

// sourceText is the skill's Source as a string, made on first use.
func (c *compilation) sourceText() string {
	if c.skill.text == "" {
		c.skill.text = string(c.skill.Source)
	}
	return c.skill.text
}

// trimLine returns body[start:stop] without surrounding white space, and
// where it now starts. A tab goldmark split into padding has no bytes of
// its own, so offsets come from the source, not from Segment.Value.
func trimLine(body []byte, start, stop int) (int, []byte) {
	v := trimRightSpace(body[start:stop])
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
		start++
	}
	return start, v
}

// offset is the src offset of s[i].
func (bt *bulletText) offset(i int) int {
	l := bt.first
	for _, next := range bt.more {
		if next.at > i {
			break
		}
		l = next
	}
	return l.off + i - l.at
}

func trimRightSpace(v []byte) []byte {
	for len(v) > 0 && isSpace(v[len(v)-1]) {
		v = v[:len(v)-1]
	}
	return v
}

func (c *compilation) btRange(bt *bulletText, i, j int) Range {
	i = min(max(i, 0), len(bt.s))
	j = min(max(j, i), len(bt.s))
	return c.idx.rng(bt.offset(i), bt.offset(j))
}

// annotationSyntax is `KEY [(LABEL)] SEP VALUE` split into its parts; the
// numbers are indices into the bulletText.
type annotationSyntax struct {
	key, label, value string
	keyStart, keyEnd  int
	valueStart        int
}

// parseAnnotation splits s as an annotation. The grammar is this format's
// own, so it is hand-written; it works on the raw markdown so that every
// part keeps its source offset. Emphasis around the key, as in
// "**Tools:** a" or "**yes**: end", is allowed because authors bold keys.
func parseAnnotation(s string) (annotationSyntax, bool) {
	var a annotationSyntax
	i := 0
	mark := ""
	for _, m := range []string{"**", "__", "*", "_"} {
		if strings.HasPrefix(s, m) {
			mark = m
			i = len(m)
			break
		}
	}
	a.keyStart = i
	for i < len(s) && (isLetter(s[i]) || s[i] == ' ' || s[i] == '\t') {
		i++
	}
	a.keyEnd = i
	for a.keyEnd > a.keyStart && (s[a.keyEnd-1] == ' ' || s[a.keyEnd-1] == '\t') {
		a.keyEnd--
	}
	if a.keyEnd == a.keyStart {
		return a, false
	}
	a.key = s[a.keyStart:a.keyEnd]
	skipMark := func() {
		if mark != "" && strings.HasPrefix(s[i:], mark) {
			i += len(mark)
		}
	}
	skipSpaces := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	skipMark()
	skipSpaces()
	if i < len(s) && s[i] == '(' {
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return a, false
		}
		a.label = strings.TrimSpace(s[i+1 : i+j])
		if strings.ContainsAny(a.label, "(") {
			return a, false
		}
		i += j + 1
		skipMark()
		skipSpaces()
	}
	switch {
	case strings.HasPrefix(s[i:], ":"):
		i++
	case strings.HasPrefix(s[i:], "->"), strings.HasPrefix(s[i:], "=>"):
		i += 2
	case strings.HasPrefix(s[i:], "→"):
		i += len("→")
	default:
		return a, false
	}
	skipMark()
	skipSpaces()
	a.valueStart = i
	a.value = s[i:]
	return a, true
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// normalizeKey lowercases k and collapses its white space, allocating only
// when k is not already in that form.
func normalizeKey(k string) string {
	clean := true
	for i := 0; i < len(k) && clean; i++ {
		ch := k[i]
		clean = !(ch >= 'A' && ch <= 'Z' || ch == '\t' || ch == ' ' && (i == 0 || i == len(k)-1 || k[i-1] == ' '))
	}
	if clean {
		return k
	}
	return strings.ToLower(strings.Join(strings.Fields(k), " "))
}

// readAnnotations reads the bullets of every bullet list directly inside the
// step. Tools are taken at once; edges wait in c.edges and c.unknown, for
// finish to resolve once all the step's bullets are read.
func (c *compilation) readAnnotations(b *stepBuild) {
	bullets := bulletCount(b)
	if bullets == 0 {
		return
	}
	// Edges keep pointers into Annotations, which must not move: the
	// caller gives it room for every bullet, and for the bullets consumed.
	if cap(b.st.Annotations) < bullets {
		b.st.Annotations = make([]Annotation, 0, bullets)
	}
	if cap(b.consumed) < bullets {
		b.consumed = make([]ast.Node, 0, bullets)
	}
	for _, n := range b.blocks {
		l, ok := n.(*ast.List)
		if !ok || l.IsOrdered() {
			continue
		}
		for it := l.FirstChild(); it != nil; it = it.NextSibling() {
			para := it.FirstChild()
			if para == nil || (para.Kind() != ast.KindParagraph && para.Kind() != ast.KindTextBlock) {
				continue
			}
			bt := c.newBulletText(para)
			syn, ok := parseAnnotation(bt.s)
			if !ok {
				continue
			}
			key := normalizeKey(syn.key)
			if c.infer && waitKeys[key] && b.st.WaitFor() == "" {
				// FORMAT 6.6: "- wait: the customer's signed form". v1 has
				// no such key: there the bullet is detail.
				if what := waitText(syn.value); what != "" {
					s, e := c.blockSpan(it)
					v := b.st.v2()
					v.WaitFor, v.WaitRange = what, c.idx.rng(s, e)
					b.consumed = append(b.consumed, it)
					continue
				}
			}
			kind, known := annotationKeys[key]
			if !known {
				// Most such bullets are prose; their ranges are worked
				// out only if one turns out to be a misspelt branch.
				c.unknown = append(c.unknown, pendingEdge{bt: bt, syn: syn, item: it})
				continue
			}
			keep := false // a tools bullet with a note stays in the detail too
			if kind == AnnotationTools && c.infer {
				names, note := c.toolsAreNames(b, &bt, syn, it)
				if !names {
					continue
				}
				keep = note
			}
			s, e := c.blockSpan(it)
			ann := Annotation{
				Key:        syn.key,
				KeyRange:   c.btRange(&bt, syn.keyStart, syn.keyEnd),
				Label:      syn.label,
				Value:      strings.TrimSpace(syn.value),
				ValueRange: c.btRange(&bt, syn.valueStart, len(bt.s)),
				Range:      c.idx.rng(s, e),
			}
			ann.Kind = kind
			if !keep {
				b.consumed = append(b.consumed, it)
			}
			b.st.Annotations = append(b.st.Annotations, ann)
			annRef := &b.st.Annotations[len(b.st.Annotations)-1]
			switch kind {
			case AnnotationTools:
				c.readTools(b.st, &bt, syn.valueStart)
				c.readNestedTools(b, para)
			case AnnotationSuccess:
				c.edges = append(c.edges, pendingEdge{kind: Success, ann: annRef, bt: bt, syn: syn, item: it})
			case AnnotationFailure:
				c.edges = append(c.edges, pendingEdge{kind: Failure, ann: annRef, bt: bt, syn: syn, item: it})
			}
		}
	}
}

// readNestedTools reads tools written as bullets under a tools bullet,
// a layout authors use for long lists:
//
//   - tools:
//   - search_thread
//   - ask_user
//
// A nested bullet is read as tools only when it is nothing but names
// (separated by commas); prose such as "- Read the account first" stays
// detail.
func (c *compilation) readNestedTools(b *stepBuild, para ast.Node) {
	for n := para.NextSibling(); n != nil; n = n.NextSibling() {
		l, ok := n.(*ast.List)
		if !ok || l.IsOrdered() {
			continue
		}
		for it := l.FirstChild(); it != nil; it = it.NextSibling() {
			p := it.FirstChild()
			if p == nil || (p.Kind() != ast.KindParagraph && p.Kind() != ast.KindTextBlock) || p.NextSibling() != nil {
				continue
			}
			bt := c.newBulletText(p)
			if !onlyNames(bt.s) {
				continue
			}
			c.readTools(b.st, &bt, 0)
			b.consumed = append(b.consumed, it)
		}
	}
}

// onlyNames reports whether s is a comma-separated list of single words.
func onlyNames(s string) bool {
	for _, part := range strings.Split(s, ",") {
		if f := strings.Fields(part); len(f) > 1 {
			return false
		}
	}
	return strings.TrimSpace(s) != ""
}

// bulletCount is the number of bullets in the step's bullet lists: an
// upper bound on its annotations.
func bulletCount(b *stepBuild) int {
	n := 0
	for _, blk := range b.blocks {
		if l, ok := blk.(*ast.List); ok && !l.IsOrdered() {
			n += l.ChildCount()
		}
	}
	return n
}

// readTools splits a tools value on commas and white space; backticks
// around a name are dropped.
func (c *compilation) readTools(st *Step, bt *bulletText, from int) {
	s := bt.s
	i := from
	for i < len(s) {
		for i < len(s) && (s[i] == ',' || s[i] == ' ' || s[i] == '\t' || s[i] == ';') {
			i++
		}
		if c.infer && i < len(s) && s[i] == '(' && i > 0 && s[i-1] == ' ' {
			// A note after a name: "ask_user (only if needed)".
			if j := strings.IndexByte(s[i:], ')'); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
			continue
		}
		j := i
		for j < len(s) && s[j] != ',' && s[j] != ' ' && s[j] != '\t' && s[j] != ';' {
			j++
		}
		if j == i {
			break
		}
		ts, te := i, j
		for ts < te && (s[ts] == '`' || s[ts] == '*') {
			ts++
		}
		for te > ts && (s[te-1] == '`' || s[te-1] == '*' || s[te-1] == '.') {
			te--
		}
		i = j
		if ts == te {
			continue
		}
		ref := Ref{Name: s[ts:te], Range: c.btRange(bt, ts, te)}
		if graph.CheckToolName(ref.Name) != nil {
			// Left out of the step, whose tools a plan recommends; the
			// invalid-tool-name rule reports it.
			c.skill.InvalidTools = append(c.skill.InvalidTools, ref)
			continue
		}
		dup := false
		for _, t := range st.Tools {
			if t.Name == ref.Name {
				dup = true
				break
			}
		}
		if !dup {
			st.Tools = append(st.Tools, ref)
		}
	}
}

// targetSyntax is a parsed edge value: `[lead phrase] target [note]`.
type targetSyntax struct {
	word             string // the target as written: "3", "clarify", "end"
	hash, stepPrefix bool   // written as #id, or as "step 3"
	lead             bool   // a lead phrase came first
	start, end       int    // the target word's indices in the bulletText
	note             string
	// cleanEnd is true when nothing follows the target or a separator does,
	// as in "4", "end - because" or "end."
	cleanEnd bool
}

// parseTarget reads a target from s starting at i.
func parseTarget(s string, i int) targetSyntax {
	var t targetSyntax
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '`' || s[i] == '*' || s[i] == '_' && (i+1 >= len(s) || !isWordByte(s[i+1]))) {
			i++
		}
	}
	skip()
	rest := s[i:]
	for _, p := range leadPhrases {
		if len(rest) >= len(p) && strings.EqualFold(rest[:len(p)], p) && (len(rest) == len(p) || rest[len(p)] == ' ' || rest[len(p)] == '\t') {
			i += len(p)
			t.lead = true
			break
		}
	}
	skip()
	if len(s)-i > 5 && strings.EqualFold(s[i:i+4], "step") && (s[i+4] == ' ' || s[i+4] == '\t') {
		j := i + 4
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && (isWordByte(s[j]) || s[j] == '#') {
			i = j
			t.stepPrefix = true
		}
	}
	if i < len(s) && s[i] == '#' {
		t.hash = true
		i++
	}
	t.start = i
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	t.end = i
	t.word = s[t.start:t.end]
	// A word ending in "-" was cut from a note: "end - x" has a space.
	rest = strings.TrimLeft(s[i:], "`*")
	trimmed := strings.TrimLeft(rest, " \t")
	t.note = strings.TrimSpace(strings.TrimLeft(trimmed, "-–—:,;.)( "))
	if strings.HasPrefix(trimmed, "(") {
		t.note = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(trimmed, "("), ")"))
	}
	t.cleanEnd = trimmed == "" || strings.ContainsAny(trimmed[:1], "-–—:,;.(") || strings.HasPrefix(trimmed, "–") || strings.HasPrefix(trimmed, "—")
	return t
}

func isWordByte(b byte) bool {
	return isLetter(b) || b >= '0' && b <= '9' || b == '_' || b == '-'
}

// resolver finds the step or terminal a target names.
type resolver struct {
	ids map[string]int
	// numbers maps each step number to its first step, made on the first
	// number that is no step's ID: in most skills every number written is
	// one (list form numbers its steps), and the map goes unmade.
	numbers map[int]*stepBuild
	builds  []*stepBuild
}

// resolve returns the ID or terminal t names. A step's ID wins over a
// terminal word ("done" can be an {#id}); a number that is no step's ID
// reaches the step with that number.
func (r *resolver) resolve(t targetSyntax) (string, bool) {
	if t.word == "" {
		return "", false
	}
	if _, ok := r.ids[t.word]; ok {
		return t.word, true
	}
	if t.hash {
		return "", false
	}
	if n, ok := atoiSmall(t.word); ok {
		if r.numbers == nil {
			r.numbers = make(map[int]*stepBuild, len(r.builds))
			for _, b := range r.builds {
				if _, dup := r.numbers[b.number]; !dup && b.number >= 0 {
					r.numbers[b.number] = b
				}
			}
		}
		if b, ok := r.numbers[n]; ok {
			return b.st.ID, true
		}
		return "", false
	}
	if t.stepPrefix {
		return "", false
	}
	if term, ok := endWords[strings.ToLower(t.word)]; ok {
		return term, true
	}
	return "", false
}

func atoiSmall(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// resolveEdges sets the step's explicit edges.
func (c *compilation) resolveEdges(r *resolver, b *stepBuild) {
	for i := range c.edges {
		pe := &c.edges[i]
		edge := &b.st.Success
		if pe.kind == Failure {
			edge = &b.st.Failure
		}
		if edge.Explicit {
			c.report(Diagnostic{Severity: SeverityError, Rule: "duplicate-edge",
				Summary: fmt.Sprintf("step %q has two %s edges", b.st.ID, pe.kind),
				Detail: fmt.Sprintf("the first is on line %d; a step has one success edge and one failure edge, each written once",
					edge.Range.Start.Line),
				Range: pe.ann.KeyRange,
			})
			continue
		}
		t := parseTarget(pe.bt.s, pe.syn.valueStart)
		target, ok := r.resolve(t)
		if !ok && c.infer && strings.EqualFold(t.word, "retry") && !t.hash && !t.stepPrefix {
			// FORMAT 6.5: "on failure: retry" is the step itself. A step
			// named retry would have resolved above.
			target, ok = b.st.ID, true
		}
		tr := c.btRange(&pe.bt, t.start, t.end)
		if t.hash {
			tr = c.btRange(&pe.bt, t.start-1, t.end)
		}
		if !ok {
			if t.word == "" {
				c.reportNoTarget(pe)
				continue
			}
			// A target that names no step stays in the IR as written:
			// graph.Check reports it (unknown-target, with did-you-mean),
			// and lint places it at TargetRange. The compiler reads
			// syntax only.
			target = t.word
		}
		*edge = Edge{
			Target:      target,
			Explicit:    true,
			Key:         normalizeKey(pe.ann.Key),
			Label:       pe.ann.Label,
			Note:        t.note,
			Range:       pe.ann.Range,
			TargetRange: tr,
		}
		if !c.infer {
			continue // v1: "(at most 3 times)" is the edge's note
		}
		bd, found := parseBound(pe.bt.s, t.end)
		if !found {
			continue
		}
		edge.Bound = &Bound{Rounds: bd.rounds, Range: c.btRange(&pe.bt, bd.start, bd.end)}
		edge.Note = bd.note
		if bd.then.word == "" {
			continue
		}
		then, ok := r.resolve(bd.then)
		if !ok {
			then = bd.then.word // graph.Check reports it, as above
		}
		edge.Bound.Then = then
		edge.Bound.ThenRange = c.btRange(&pe.bt, bd.then.start, bd.then.end)
	}
}

// boundSyntax is a loop's bound written after an edge's target (FORMAT
// 6.5): "(at most 3 times)", ", up to 5 times", "(at most 3 times, then
// 6)". start and end are indices into the bulletText; note is what is left
// of the edge's note.
type boundSyntax struct {
	rounds     int
	then       targetSyntax
	start, end int
	note       string
}

// boundLeads are the words before a bound's number, longest first.
var boundLeads = []string{"no more than", "at most", "up to", "max", "maximum"}

// boundUnits are the words after it.
var boundUnits = []string{"times", "time", "rounds", "round", "attempts", "tries", "retries"}

// numberWords are the small numbers people spell out ("up to three times").
var numberWords = map[string]int{"once": 1, "one": 1, "two": 2, "twice": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// parseBound reads a bound from s at i, just after an edge's target: an
// optional "(" or ",", an optional lead ("at most", "up to"), a number and
// a unit ("times"), an optional ", then TARGET", an optional ")". Anything
// else is no bound, and the text stays the edge's note, as in v1.
func parseBound(s string, i int) (boundSyntax, bool) {
	var b boundSyntax
	spaces := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	word := func(w string) bool {
		if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) && (len(s)-i == len(w) || !isWordByte(s[i+len(w)])) {
			i += len(w)
			return true
		}
		return false
	}
	spaces()
	b.start = i
	paren := false
	switch {
	case i < len(s) && s[i] == '(':
		paren = true
		i++
	case i < len(s) && (s[i] == ',' || s[i] == ';' || s[i] == '-'):
		i++
	}
	spaces()
	for _, l := range boundLeads {
		if word(l) {
			break
		}
	}
	spaces()
	j := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if n, ok := atoiSmall(s[j:i]); ok && n > 0 {
		b.rounds = n
	} else {
		// A spelled-out number is a whole word of ASCII letters: look the
		// word up rather than try every number at i.
		i = j
		k := i
		for k < len(s) && isWordByte(s[k]) {
			k++
		}
		if n, ok := numberWords[strings.ToLower(s[i:k])]; ok {
			b.rounds, i = n, k
		}
	}
	if b.rounds == 0 {
		return b, false
	}
	number := s[j:i]
	spaces()
	unit := false
	for _, u := range boundUnits {
		if word(u) {
			unit = true
			break
		}
	}
	if !unit && !strings.EqualFold(number, "once") && !strings.EqualFold(number, "twice") {
		return b, false
	}
	b.end = i
	after := i
	spaces()
	if i < len(s) && (s[i] == ',' || s[i] == ';') {
		i++
		spaces()
	}
	if word("then") {
		t := parseTarget(s, i)
		if t.word != "" {
			b.then = t
			i = t.end
			b.end = i
			after = i
		}
	}
	i = after
	spaces()
	if paren {
		if i >= len(s) || s[i] != ')' {
			return b, false
		}
		i++
		b.end = i
	}
	rest := strings.TrimSpace(s[i:])
	b.note = strings.TrimSpace(strings.TrimLeft(rest, "-–—:,;.)( "))
	return b, true
}

// reportNoTarget reports an edge bullet with nothing after its
// separator: syntax, so the compiler's to report.
func (c *compilation) reportNoTarget(pe *pendingEdge) {
	c.report(Diagnostic{Severity: SeverityError, Rule: "unknown-target",
		Summary: fmt.Sprintf("%q has no target", pe.ann.Key),
		Detail:  "write a step number or ID after the separator, or end or fail",
		Range:   c.btRange(&pe.bt, pe.syn.keyStart, len(pe.bt.s)),
	})
}

// bulletEdit is the edit that replaces bt.s[i:j] with text, or false when
// that span wraps onto another line: a wrapped bullet's text joins its
// lines with one space, so its offsets do not map one to one onto the
// source there.
func (c *compilation) bulletEdit(bt *bulletText, i, j int, text string) (Edit, bool) {
	if i < 0 || j < i || j > len(bt.s) {
		return Edit{}, false
	}
	start, end := bt.offset(i), bt.offset(j)
	if end-start != j-i {
		return Edit{}, false
	}
	return Edit{Range: c.idx.rng(start, end), NewText: text}, true
}

// fixBullet gives d the fix that rewrites an annotation's key (and label)
// up to its value as lead: bt.s[:valueStart], emphasis marks around the
// key included, so "**many**: 4" becomes "no (many): 4" and not a bold
// mark left open.
func (c *compilation) fixBullet(d *Diagnostic, bt *bulletText, valueStart int, lead, title string, safe bool) {
	if e, ok := c.bulletEdit(bt, 0, valueStart, lead); ok {
		d.Fixes = []Fix{{Title: title, Safe: safe, Edits: []Edit{e}}}
	}
}

// checkUnknownKeys reports bullets such as "many: 4": an unknown KEY whose
// value starts with a target that resolves is almost surely a branch
// written with the wrong key. To spare prose such as "Note: 3 reports are
// needed", the target must stand alone, end the value, be followed by a
// separator, or come after a lead phrase.
func (c *compilation) checkUnknownKeys(r *resolver, b *stepBuild) {
	type hit struct {
		pe     pendingEdge
		t      targetSyntax
		target string
	}
	var hits []hit
	for _, pe := range c.unknown {
		t := parseTarget(pe.bt.s, pe.syn.valueStart)
		target, ok := r.resolve(t)
		if !ok || !(t.lead || t.cleanEnd) {
			continue
		}
		hits = append(hits, hit{pe, t, target})
	}
	// Choose yes or no for each: a free edge first; with both free, two
	// such bullets read as yes then no, and a lone one as the exception
	// path (no), since success already defaults to the next step.
	succFree, failFree := !b.st.Success.Explicit, !b.st.Failure.Explicit
	// The side is forced when the step writes one of its edges and leaves
	// the other free; with both free, yes or no is this reading's guess,
	// and so is its fix, for every bullet of the step.
	forced := succFree != failFree
	for i, h := range hits {
		key := "no"
		switch {
		case succFree && failFree && len(hits) >= 2 && i == 0:
			key = "yes"
			succFree = false
		case succFree && !failFree:
			key = "yes"
			succFree = false
		case failFree:
			failFree = false
		}
		value := strings.TrimSpace(h.pe.bt.s[h.pe.syn.valueStart:])
		if key := normalizeKey(h.pe.syn.key); c.infer && len(key) >= 5 {
			// "on faliure: 4" is a typo of a key, not a label. Short
			// words are left out: "one" is two edits from "ok" and "no"
			// and is a label.
			if m := NearestMatch(key, edgeKeyNames); m.Name != "" {
				near := m.Name
				fixed := near
				if h.pe.syn.label != "" {
					fixed += " (" + h.pe.syn.label + ")"
				}
				d := Diagnostic{Severity: SeverityError, Rule: "unknown-branch-key",
					Summary:    fmt.Sprintf("%q is not an edge key, but its value goes to %q: did you mean %q?", h.pe.syn.key, h.target, near),
					Detail:     "edge keys are yes, no, on success, on failure and their synonyms",
					Range:      c.btRange(&h.pe.bt, h.pe.syn.keyStart, h.pe.syn.keyEnd),
					Suggestion: fixed + ": " + value,
				}
				// A misspelt key has one spelling it meant when no other
				// key is as near (m.Rivals): two edits are a typo's usual
				// transposition, so the distance is not held against it.
				c.fixBullet(&d, &h.pe.bt, h.pe.syn.valueStart, fixed+": ", fmt.Sprintf("replace %q with %q", h.pe.syn.key, near), m.Rivals == 0)
				c.report(d)
				b.consumed = append(b.consumed, h.pe.item)
				continue
			}
		}
		label := h.pe.syn.key
		if h.pe.syn.label != "" {
			label = h.pe.syn.key + " " + h.pe.syn.label
		}
		label = strings.ToLower(label)
		d := Diagnostic{Severity: SeverityError, Rule: "unknown-branch-key",
			Summary: fmt.Sprintf("%q is not an edge key, but its value goes to %q", h.pe.syn.key, h.target),
			Detail: fmt.Sprintf("write the branch as \"yes (%s): %s\" for the success edge or \"no (%s): %s\" for the failure edge; edge keys are yes, no, on success, on failure and their synonyms",
				label, value, label, value),
			Range:      c.btRange(&h.pe.bt, h.pe.syn.keyStart, h.pe.syn.keyEnd),
			Suggestion: fmt.Sprintf("%s (%s): %s", key, label, value),
		}
		c.fixBullet(&d, &h.pe.bt, h.pe.syn.valueStart, fmt.Sprintf("%s (%s): ", key, label),
			fmt.Sprintf("write %q as %q", h.pe.syn.key+":", key+" ("+label+"):"), forced)
		c.report(d)
		b.consumed = append(b.consumed, h.pe.item)
	}
}
