// Package prose reads the branches a write-up states in its sentences ("If
// the issue persists, go to step 4", "If not, stop", "Do not proceed until
// the customer confirms") as FORMAT 6.4 to 6.6 describe them: edges, loops,
// waits and statements that hold for every step.
//
// It knows nothing of markdown or of the compiler: it is given the plain
// text of one step and the step IDs of its skill, and says what the text
// says, with byte offsets into that text. When it is unsure it reads
// nothing and says why (Unread), because an edge pointing the wrong way is
// worse than none.
//
// The reader is a small grammar, not a list of sentences: a tokenizer of
// words and marks, then a clause reader that takes a condition clause ("if
// C", "when C", "unless C", "otherwise", "if not", a label before an arrow),
// a move verb with its target ("go to step 4", "skip directly to Step 3",
// "go back to step 1", "return to the previous step"), and what may follow
// the target (a bound, "then N", a trailing condition, "even if ..."). It
// is linear in the length of the text.
package prose

import "strings"

// Kind says which of a step's two edges a reading is.
type Kind int

const (
	Success Kind = iota
	Failure
)

func (k Kind) String() string {
	if k == Failure {
		return "failure"
	}
	return "success"
}

func (k Kind) opposite() Kind { return 1 - k }

// Terminal targets, spelled as the compiler spells them.
const (
	End  = "end"
	Fail = "fail"
)

// Edge is a branch read from prose.
type Edge struct {
	Kind Kind
	// Target is a step ID of Context.Steps, End or Fail.
	Target string
	// Label is the condition as written ("the issue persists"), "otherwise",
	// "if not", or "" for an unconditional move.
	Label string
	// Start and End are the byte offsets of the clause read; Quote is
	// text[Start:End].
	Start, End int
	Quote      string
	// Back is true for a loop: the target is this step or an earlier one.
	Back bool
	// Bound is the number of rounds written ("up to 3 times"), 0 if none.
	Bound int
	// Then is where the edge leads once the bound is used up, "" if not
	// written.
	Then string
	// Conditional is true when the edge is taken under a condition of its
	// own ("if C", "C →"), false for "otherwise", "if not" and an
	// unconditioned move: FORMAT 6.4 sends the other side of a decision
	// to the next step.
	Conditional bool
}

// Wait is something outside the agent the step waits for (FORMAT 6.6).
type Wait struct {
	What       string
	Start, End int
}

// Global is a statement said once that holds for every step: "Continue to
// the next step even if a previous step fails" sends every step's failure
// to the step after it.
type Global struct {
	Kind       Kind // the edge it sets: Failure
	Start, End int
	Quote      string
}

// Unread is prose that reads as a branch but that the reader could not
// turn into an edge, with why.
type Unread struct {
	Start, End int
	Quote      string
	Why        string
}

// Context is what the reader knows of the skill around the text.
type Context struct {
	// Step is the ID of the step whose text is read.
	Step string
	// Steps are the skill's step IDs in written order.
	Steps []string
	// Next is where the step goes by default: the following step's ID, or
	// End after the last step.
	Next string
	// Phases is true when the skill calls its steps phases ("Phase 2: ..."),
	// so that "phase N" names step N.
	Phases bool
	// Names optionally holds, for each ID of Steps, the title a write-up
	// may call the step by ("Full Scan", "DIAGNOSE — Find Every Issue"),
	// "" for none: "go back to DIAGNOSE" and "**Exists** → DELTA SCAN"
	// name steps by their titles.
	Names []string
	// Index optionally maps each ID of Steps to its position. A caller
	// that reads every step of a large skill gives it, so that each Read
	// costs the length of its text, not also the number of steps.
	Index map[string]int
}

// Reading is everything the prose of one step says.
type Reading struct {
	Edges   []Edge
	Waits   []Wait
	Globals []Global
	Unread  []Unread
}

// Shift moves every offset of r by n: a reading of a step's text made into
// offsets of the file the step is in.
func (r *Reading) Shift(n int) {
	for k := range r.Edges {
		r.Edges[k].Start, r.Edges[k].End = r.Edges[k].Start+n, r.Edges[k].End+n
	}
	for k := range r.Waits {
		r.Waits[k].Start, r.Waits[k].End = r.Waits[k].Start+n, r.Waits[k].End+n
	}
	for k := range r.Globals {
		r.Globals[k].Start, r.Globals[k].End = r.Globals[k].Start+n, r.Globals[k].End+n
	}
	for k := range r.Unread {
		r.Unread[k].Start, r.Unread[k].End = r.Unread[k].Start+n, r.Unread[k].End+n
	}
}

// Read reads the text of one step. It never panics, and every offset it
// returns lies within text.
func Read(text string, ctx Context) Reading {
	var b Buffer
	return b.Read(text, ctx)
}

// Buffer reads many steps with one token buffer: reading every step of a
// skill then allocates tokens once, not once per step. The zero value is
// ready to use; a Buffer is not safe for concurrent use.
type Buffer struct {
	toks []token
	// names are the step names of the Context last read (Context.Names
	// as tokens), kept while the Context's Names stay the same slice.
	names   []stepName
	namesOf []string
}

// Read is Read, reusing b's tokens.
func (b *Buffer) Read(text string, ctx Context) Reading {
	if !MayRead(text, ctx) {
		return Reading{} // most steps state no branch: skip tokenizing them
	}
	return b.read(text, ctx)
}

// MayRead is Read's prefilter: false when Read finds nothing in text
// under ctx, for it holds no word an action opens with and no arrow to a
// step name. A word or arrow is made of bytes in a row, so text with some
// bytes turned to spaces holds none the text does not, unless a space cuts
// a word in two: the compiler asks this of a step's source before it
// blanks the annotations in a copy.
func MayRead(text string, ctx Context) bool {
	return mayAct(text) || len(ctx.Names) > 0 && hasArrow(text)
}

// read is Read without the prefilter.
func (b *Buffer) read(text string, ctx Context) Reading {
	r := &reader{text: text, ctx: ctx, pos: position(ctx), buf: b}
	b.toks = tokenize(text, b.toks[:0])
	r.toks = b.toks
	start := 0
	for i := 0; i <= len(r.toks); i++ {
		if i == len(r.toks) || r.toks[i].kind >= tStop {
			if i > start {
				r.sentence(r.toks[start:i])
			}
			start = i + 1
			if i < len(r.toks) && r.toks[i].kind == tBlock {
				r.pending = nil // a condition does not reach into the next paragraph or item
			}
		}
	}
	return r.out
}

// position is the position of ctx.Step in ctx.Steps, or -1.
func position(ctx Context) int {
	if i, ok := ctx.indexOf(ctx.Step); ok {
		return i
	}
	return -1
}

func (ctx Context) indexOf(id string) (int, bool) {
	if ctx.Index != nil {
		i, ok := ctx.Index[id]
		return i, ok && i < len(ctx.Steps) && ctx.Steps[i] == id
	}
	for i, s := range ctx.Steps {
		if s == id {
			return i, true
		}
	}
	return 0, false
}

type reader struct {
	text string
	ctx  Context
	pos  int // index of ctx.Step in ctx.Steps, -1 when it is not there
	toks []token
	out  Reading

	// last is the kind of the last edge read under a real condition, which
	// "otherwise" and "if not" take the opposite of; haveLast is false
	// until there is one (then "otherwise" is the failure edge).
	last     Kind
	haveLast bool
	// pending is the condition of an earlier sentence of the paragraph
	// when it led to no action: "If this returns a value, you're ready.
	// Skip to Step 2." It lasts two sentences.
	pending    *cond
	pendingAge int

	buf *Buffer // holds ctx.Names as tokens, made when first needed
}

// cond is a condition clause.
type cond struct {
	from       int // byte offset where the clause begins ("If")
	label      string
	kind       Kind
	other      bool   // "otherwise", "if not": the opposite of the last edge
	why        string // non-empty when the polarity cannot be told
	start, end int    // the condition's own words
}

// sentence reads one sentence: conditions and the actions they govern.
func (r *reader) sentence(ts []token) {
	var c *cond
	acted := false
	pending := r.pending
	clause := 0        // index of the first token of the current clause
	sentenceHead := -1 // the clause before an arrow may be a bare condition only at the sentence's head
	arrowed := -1      // the word after an arrow (not a table pipe) that a condition leads to
	for i := 0; i < len(ts); {
		t := ts[i]
		if t.kind != tWord {
			if head := max(sentenceHead, 0); t.kind == tArrow && c == nil && i > head {
				c = r.arrowCond(ts[head:i])
				if c != nil && r.text[t.start] != '|' {
					arrowed = i + 1
				}
			}
			if t.kind == tArrow {
				sentenceHead = i + 1
			}
			clause = i + 1
			i++
			continue
		}
		if i == clause || i > 0 && ts[i-1].text == "then" && ts[i-1].kind == tWord {
			if nc, n, ok := r.condition(ts, i); ok {
				c = nc
				i = n
				continue
			}
		}
		if c == nil && pending != nil && i == 0 {
			// Only a sentence that opens with the move takes the
			// condition of the sentence before.
			if n, ok := r.action(ts, i, pending); ok {
				c, acted, i = pending, true, n
				continue
			}
		}
		n, ok := r.action(ts, i, c)
		if ok {
			acted = true
			i = n
			continue
		}
		if i == arrowed && c != nil {
			// "**Exists** → DELTA SCAN": the arrow leads to a step
			// named by its title.
			if id, m := r.named(ts, i); id != "" {
				e := Edge{Target: id, Kind: Success, Back: r.isBack(id)}
				r.emit(ts, i, e, c, ts[m-1].end, false)
				acted, i = true, m
				continue
			}
		}
		i++
	}
	switch {
	case c != nil && c != pending && !acted && !c.other:
		r.pending, r.pendingAge = c, 0
	case acted || c != nil:
		r.pending = nil
	case r.pending != nil:
		if r.pendingAge++; r.pendingAge >= 2 {
			r.pending = nil
		}
	}
}

// arrowCond reads the clause before an arrow or a table pipe as a
// condition: "**YES** → Go to Step 2", "`Converged: false` → loop back".
func (r *reader) arrowCond(ts []token) *cond {
	for len(ts) > 0 && ts[0].kind != tWord {
		ts = ts[1:]
	}
	if len(ts) == 0 || len(ts) > 12 {
		return nil // nothing, or a sentence rather than a label
	}
	if ts[0].kind == tWord && (ts[0].text == "if" || ts[0].text == "when") {
		c, _, ok := r.condition(ts, 0)
		if ok {
			return c
		}
	}
	start, end := ts[0].start, ts[len(ts)-1].end
	c := &cond{from: start, start: start, end: end, label: r.label(start, end)}
	c.kind, c.why = polarity(ts)
	return c
}

// condition reads a condition clause starting at word i, if one starts
// there, and returns the index after it.
func (r *reader) condition(ts []token, i int) (*cond, int, bool) {
	w := ts[i].text
	from := ts[i].start
	next := func(k int) string {
		if k < len(ts) && ts[k].kind == tWord {
			return ts[k].text
		}
		return ""
	}
	boundary := func(k int) bool { return k >= len(ts) || ts[k].kind != tWord }
	switch w {
	case "otherwise", "else":
		return &cond{from: from, label: "otherwise", other: true, start: from, end: ts[i].end}, i + 1, true
	case "in":
		if next(i+1) != "case" {
			return nil, 0, false
		}
		i++
	case "if", "when", "whenever", "once", "unless":
	default:
		return nil, 0, false
	}
	invert := w == "unless"
	j := i + 1
	switch next(j) {
	case "not", "no":
		if boundary(j + 1) {
			return &cond{from: from, label: "if " + next(j), other: true, start: from, end: ts[j].end}, j + 1, true
		}
	case "so", "yes":
		if boundary(j + 1) {
			return &cond{from: from, label: "if " + next(j), kind: Success, start: from, end: ts[j].end}, j + 1, true
		}
	}
	// The condition runs to the end of its clause, to "then", or to a
	// move verb that is not the condition's own ("If tests pass continue
	// to step 2", but "If you go back to step 2 and ...").
	k := j
	for k < len(ts) && ts[k].kind == tWord {
		t := ts[k].text
		if t == "then" {
			break
		}
		if k > j && isActionVerb(t) && !subjectWord(ts[k-1].text) {
			break
		}
		k++
	}
	if k == j {
		return nil, 0, false
	}
	start, end := ts[j].start, ts[k-1].end
	c := &cond{from: from, start: start, end: end, label: r.label(start, end)}
	c.kind, c.why = polarity(ts[j:k])
	if invert {
		c.kind = c.kind.opposite()
		c.label = "unless " + c.label
	}
	if k < len(ts) && ts[k].kind == tWord && ts[k].text == "then" {
		k++
	}
	return c, k, true
}

// subjectWord is a word after which a verb is the condition's own.
func subjectWord(w string) bool {
	switch w {
	case "you", "we", "i", "they", "it", "he", "she", "user", "agent", "to", "will", "can", "could",
		"should", "must", "may", "might", "does", "did", "not", "cannot", "can't", "don't", "doesn't", "didn't", "won't":
		return true
	}
	return false
}

// label is text[start:end] without markdown marks and with white space
// collapsed: the condition as a reader sees it.
func (r *reader) label(start, end int) string {
	s := r.text[start:end]
	s = strings.Map(func(c rune) rune {
		switch c {
		case '*', '`', '[', ']':
			return -1
		case '\n', '\t', '\r':
			return ' '
		}
		return c
	}, s)
	fs := strings.Fields(s)
	for i, f := range fs {
		fs[i] = strings.Trim(f, "_") // emphasis, not the "_" inside a name
	}
	return strings.Join(fs, " ")
}

func (r *reader) quote(start, end int) string { return r.label(start, end) }
