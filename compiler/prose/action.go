package prose

import (
	"fmt"
	"strconv"
	"strings"
)

// isActionVerb reports whether w can start an action the reader knows.
func isActionVerb(w string) bool {
	return moveVerb(w) != 0 || w == "repeat" || w == "retry" || w == "stop" || w == "abort" || w == "halt"
}

// Move verbs. verbBack marks the verbs that by themselves go back ("return
// to step 2", "loop to step 1").
const (
	verbMove = 1 << iota
	verbBack
	verbAgain // needs "again" or "over" to move ("start again from 1")
)

func moveVerb(w string) int {
	switch w {
	case "go", "continue", "proceed", "skip", "jump", "move", "head", "advance", "resume", "come":
		return verbMove
	case "return", "loop", "restart":
		return verbMove | verbBack
	case "start", "starting", "begin":
		return verbMove | verbAgain
	}
	return 0
}

// negation reports whether the words before i negate the verb at i
// ("do not proceed", "don't advance", "never go back").
func negation(ts []token, i int) bool {
	for k := i - 1; k >= 0 && k >= i-2 && ts[k].kind == tWord; k-- {
		switch ts[k].text {
		case "not", "never", "don't", "cannot", "can't", "shouldn't", "mustn't", "won't", "didn't", "doesn't", "dont", "no":
			return true
		}
	}
	return false
}

// guarded reports whether the verb at i is inside a clause that is not an
// instruction to move: "before you go to step 4", "whether to proceed",
// "they can continue with Step 1" (someone else moves, not the agent).
func guarded(ts []token, i int) bool {
	if i >= 2 && ts[i-1].kind == tWord && ts[i-2].kind == tWord {
		switch ts[i-1].text {
		case "can", "could", "will", "would", "may", "might", "should", "must":
			switch ts[i-2].text {
			case "they", "he", "she", "users", "customers", "people", "others":
				return true
			}
		}
	}
	for k := i - 1; k >= 0 && k >= i-2 && ts[k].kind == tWord; k-- {
		switch ts[k].text {
		case "before", "after", "until", "whether", "how", "why", "what", "without", "instead", "ready", "able":
			return true
		}
	}
	return false
}

// openers are the words opensAction accepts, for mayAct's length table;
// TestOpeners keeps the two the same.
var openers = []string{
	"wait", "done", "finished", "until", "expect", "block", "blocks",
	"go", "continue", "proceed", "skip", "jump", "move", "head", "advance", "resume", "come",
	"return", "loop", "restart", "start", "starting", "begin",
	"repeat", "retry", "stop", "abort", "halt",
}

// opensAction reports whether w is a word an action can begin with. Every
// edge, wait, global statement and unread the reader reports is read by
// action from such a word, so a text without one reads as nothing
// (mayAct).
func opensAction(w string) bool {
	switch w {
	case "wait", "done", "finished", "until", "expect", "block", "blocks":
		return true
	}
	return isActionVerb(w)
}

// action reads an action starting at word i, governed by condition c (nil
// for none), and returns the index after what it read.
func (r *reader) action(ts []token, i int, c *cond) (int, bool) {
	w := ts[i].text
	if !opensAction(w) {
		return 0, false
	}
	switch {
	case w == "stop" || w == "abort" || w == "halt":
		return r.stop(ts, i, c)
	case w == "wait":
		return r.wait(ts, i)
	case w == "retry":
		return r.retry(ts, i, c)
	case w == "repeat":
		return r.repeat(ts, i, c)
	case w == "done" || w == "finished":
		if i > 0 && ts[i-1].kind == tWord && (ts[i-1].text == "are" || ts[i-1].text == "you're" || ts[i-1].text == "we're") &&
			(i+1 >= len(ts) || ts[i+1].kind != tWord || ts[i+1].text == "here") {
			r.emit(ts, i, Edge{Kind: Success, Target: End}, c, ts[i].end, false)
			return i + 1, true
		}
		return 0, false
	case w == "until":
		return r.until(ts, i, c)
	case w == "expect":
		return r.expectFail(ts, i, c)
	case w == "block" || w == "blocks":
		return r.noBlock(ts, i, c)
	}
	v := moveVerb(w)
	if v == 0 {
		return 0, false
	}
	if negation(ts, i) {
		return r.gate(ts, i)
	}
	if guarded(ts, i) {
		return 0, false
	}
	j := i + 1
	back := v&verbBack != 0
	again := false
	for j < len(ts) && ts[j].kind == tWord {
		switch ts[j].text {
		case "back":
			back = true
		case "again", "over":
			back, again = true, true
		case "straight", "directly", "right", "immediately", "ahead", "forward", "on", "onward", "onwards", "just", "then", "now":
		default:
			goto filled
		}
		j++
	}
filled:
	if v&verbAgain != 0 && !again {
		return 0, false
	}
	if w == "skip" && j < len(ts) && ts[j].kind == tWord && (ts[j].text == "this" || ts[j].text == "step" || ts[j].text == "steps") {
		end := ts[j].end
		if j+1 < len(ts) && ts[j+1].kind == tWord {
			end = ts[j+1].end
		}
		r.unread(condFrom(c, ts[i].start), end, "skipping a step is not an edge to another step; the step stays in the plan")
		return j + 1, true
	}
	if j >= len(ts) || ts[j].kind != tWord {
		if n, ok := r.evenIf(ts, i, j, c, ""); ok {
			return n, ok
		}
		return r.goOn(ts, i, j, c)
	}
	verbEnd := j // the word after the verb and its fillers
	switch ts[j].text {
	case "to", "with", "at", "from", "onto", "into":
		j++
	default:
		if !back {
			if n, ok := r.evenIf(ts, i, j, c, ""); ok {
				return n, ok
			}
			return r.goOn(ts, i, j, c)
		}
	}
	tg, n, why := r.target(ts, j, back)
	if why != "" {
		r.unread(condFrom(c, ts[i].start), ts[max(n, j+1)-1].end, why)
		return max(n, j+1), true
	}
	if tg == "" {
		if n, ok := r.evenIf(ts, i, n, c, ""); ok {
			return n, ok
		}
		return r.goOn(ts, i, verbEnd, c)
	}
	if k, ok := r.evenIfAt(ts, n); ok {
		return r.evenIf(ts, i, k, c, tg)
	}
	e := Edge{Target: tg, Kind: Success}
	e.Back = r.isBack(tg)
	if back && !e.Back && tg != End && tg != Fail {
		r.unread(condFrom(c, ts[i].start), ts[n-1].end, fmt.Sprintf("it says to go back, but step %q comes after this one", tg))
		return n, true
	}
	// An unconditioned move, back or forward, is where the step goes when
	// it is done ("recreate it, starting again from 1"): the success edge.
	end, after := r.bound(ts, n, &e, ts[n-1].end)
	if c == nil {
		// A condition after the target: "Go to step 5 if the build fails".
		if k := n; k < len(ts) && ts[k].kind == tWord {
			if tc, m, ok := r.condition(ts, k); ok && !tc.other {
				r.emit(ts, i, e, tc, max(end, ts[m-1].end), true)
				return m, true
			}
		}
	}
	r.emit(ts, i, e, c, end, false)
	return after, true
}

func condFrom(c *cond, start int) int {
	if c != nil && c.from < start {
		return c.from
	}
	return start
}

// emit records edge e read from word i to byte end under condition c.
// keepKind keeps e.Kind when there is no condition to decide it.
func (r *reader) emit(ts []token, i int, e Edge, c *cond, end int, keepKind bool) {
	start := condFrom(c, ts[i].start)
	if c != nil {
		if c.why != "" {
			r.unread(start, end, c.why)
			return
		}
		kind := c.kind
		if c.other {
			kind = Failure
			if r.haveLast {
				kind = r.last.opposite()
			}
		}
		switch e.Target {
		case End:
			if kind != Success {
				r.unread(start, end, "it ends the procedure under a condition that reads as a failure")
				return
			}
		case Fail:
			if kind != Failure {
				r.unread(start, end, "it stops under a condition that does not read as a failure")
				return
			}
		}
		e.Kind = kind
		e.Label = c.label
		if !c.other {
			r.last, r.haveLast = kind, true
			e.Conditional = true
		}
	} else if !keepKind && e.Target != Fail {
		e.Kind = Success
	}
	e.Start, e.End = start, end
	e.Quote = r.quote(start, end)
	r.out.Edges = append(r.out.Edges, e)
}

func (r *reader) unread(start, end int, why string) {
	if end < start {
		end = start
	}
	r.out.Unread = append(r.out.Unread, Unread{Start: start, End: end, Quote: r.quote(start, end), Why: why})
}

func (r *reader) isBack(id string) bool {
	if id == End || id == Fail || r.pos < 0 {
		return false
	}
	i, ok := r.ctx.indexOf(id)
	return ok && i <= r.pos
}

// target reads a target at word j: "step 4", "Step 1b", "phase 2", "the
// next step", "the previous step", "#present", "the end", "the
// beginning", or a bare ID after a verb that goes back ("starting again
// from 1"). It returns "" when the words name no target, and why when they
// name a step this skill does not have.
func (r *reader) target(ts []token, j int, back bool) (id string, next int, why string) {
	word := func(k int) string {
		if k < len(ts) && ts[k].kind == tWord {
			return ts[k].text
		}
		return ""
	}
	if word(j) == "the" {
		j++
	}
	w := word(j)
	switch w {
	case "":
		return "", j, ""
	case "step", "phase", "stage":
		if w == "phase" && !r.ctx.Phases {
			return "", j, ""
		}
		if j+1 >= len(ts) || ts[j+1].kind != tWord {
			return "", j, ""
		}
		written := r.text[ts[j+1].start:ts[j+1].end]
		if id := r.resolve(written); id != "" {
			return id, j + 2, ""
		}
		if !startsWithDigit(written) {
			return "", j, "" // "step one", "the step where ...": not a number
		}
		return "", j + 2, fmt.Sprintf("%s %s names no step of this skill", w, written)
	case "steps", "phases":
		if j+1 < len(ts) && ts[j+1].kind == tWord && startsWithDigit(ts[j+1].text) {
			return "", j + 2, "it names several steps, not one target"
		}
		return "", j, ""
	case "next", "following":
		if k := word(j + 1); k == "step" || k == "phase" && r.ctx.Phases {
			// Without a Next (the text before the steps) it names no
			// target, but "even if" may follow it.
			return r.ctx.Next, j + 2, ""
		}
	case "previous", "prior":
		if word(j+1) == "step" && r.pos > 0 {
			return r.ctx.Steps[r.pos-1], j + 2, ""
		}
	case "end":
		if j > 0 && ts[j-1].text == "the" {
			return End, j + 1, ""
		}
	case "beginning", "top":
		if back && len(r.ctx.Steps) > 0 {
			return r.ctx.Steps[0], j + 1, ""
		}
	case "this":
		if word(j+1) == "step" {
			return r.ctx.Step, j + 2, ""
		}
	}
	if id, n := r.named(ts, j); id != "" {
		return id, n, ""
	}
	written := r.text[ts[j].start:ts[j].end]
	if strings.HasPrefix(written, "#") {
		if id := r.resolve(written[1:]); id != "" {
			return id, j + 1, ""
		}
		return "", j, ""
	}
	if back && startsWithDigit(written) {
		if id := r.resolve(written); id != "" {
			return id, j + 1, ""
		}
	}
	return "", j, ""
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// resolve finds the step a written ID names: exactly, else ignoring case
// ("Step 4b" for a step "4B"), else, for a bare number said in a step of a
// lettered branch, that branch's step ("Step 4" in step 3A is 4A, when
// the skill has a 4A but no 4: write-ups number parallel paths 3A/4A and
// 3B/4B and say only the number inside each).
func (r *reader) resolve(written string) string {
	if _, ok := r.ctx.indexOf(written); ok {
		return written
	}
	for _, id := range r.ctx.Steps { // rare: a target written in another case
		if strings.EqualFold(id, written) {
			return id
		}
	}
	if branch := branchLetter(r.ctx.Step); branch != "" && isNumber(written) {
		for _, id := range r.ctx.Steps {
			if strings.EqualFold(id, written+branch) {
				return id
			}
		}
	}
	return ""
}

// branchLetter is the letter suffix of a step ID like "3A", else "".
func branchLetter(id string) string {
	n := len(id)
	if n < 2 || !isNumber(id[:n-1]) {
		return ""
	}
	if c := id[n-1]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return id[n-1:]
	}
	return ""
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// bound reads what may follow a loop's target within its sentence: "up to
// 3 times", "at most 3 times", "3 times", "max 3 attempts", and "then N"
// or "then stop". It returns the byte end of what it read.
func (r *reader) bound(ts []token, j int, e *Edge, end int) (int, int) {
	next := j
	for k := j; k < len(ts) && k < j+10 && ts[k].kind != tStop; k++ {
		if ts[k].kind != tWord {
			continue
		}
		if n, m := count(ts, k); n > 0 && e.Bound == 0 {
			e.Bound = n
			end = ts[m-1].end
			k, next = m-1, m
			continue
		}
		if ts[k].text == "then" && e.Bound > 0 && k+1 < len(ts) && ts[k+1].kind == tWord {
			m := k + 1
			switch ts[m].text {
			case "stop", "fail", "abort", "escalate":
				e.Then = Fail
				return ts[m].end, m + 1
			}
			if moveVerb(ts[m].text) != 0 {
				m++
				for m < len(ts) && ts[m].kind == tWord && (ts[m].text == "to" || ts[m].text == "on" || ts[m].text == "with") {
					m++
				}
			}
			if tg, n, _ := r.target(ts, m, false); tg != "" {
				e.Then = tg
				return ts[n-1].end, n
			}
			return end, next
		}
	}
	return end, next
}

// count reads a number of rounds at word k: "up to 3 times", "at most 3",
// "3 times", "three attempts", "max 5", "twice". It returns the count and
// the index after it, or 0.
func count(ts []token, k int) (int, int) {
	w := func(i int) string {
		if i < len(ts) && ts[i].kind == tWord {
			return ts[i].text
		}
		return ""
	}
	i := k
	lead := false
	switch {
	case w(i) == "up" && w(i+1) == "to", w(i) == "at" && w(i+1) == "most":
		i += 2
		lead = true
	case w(i) == "no" && w(i+1) == "more" && w(i+2) == "than":
		i += 3
		lead = true
	case w(i) == "max" || w(i) == "maximum":
		i++
		lead = true
	case w(i) == "twice":
		return 2, i + 1
	}
	n := number(w(i))
	if n <= 0 {
		return 0, k
	}
	switch w(i + 1) {
	case "times", "attempts", "tries", "rounds", "retries", "iterations", "passes":
		return n, i + 2
	}
	if lead {
		return n, i + 1
	}
	return 0, k
}

func number(w string) int {
	if n, err := strconv.Atoi(w); err == nil && n > 0 && n < 1000 {
		return n
	}
	for i, s := range [...]string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"} {
		if w == s {
			return i + 1
		}
	}
	return 0
}

// stop reads "stop", "abort": the failure edge to fail. It needs a
// condition, or a hand-off to a person ("stop and ask the user"): a bare
// "Report and stop" is a step's normal end, not a failure.
func (r *reader) stop(ts []token, i int, c *cond) (int, bool) {
	if negation(ts, i) || guarded(ts, i) {
		return 0, false
	}
	n := i + 1
	if n < len(ts) && ts[n].kind == tWord {
		switch ts[n].text {
		case "and", "here", "immediately", "now", "there":
		default:
			return 0, false // "stop the server": a noun or an object follows
		}
	}
	end := ts[i].end
	handoff := false
	if n+1 < len(ts) && ts[n].kind == tWord && ts[n].text == "and" && ts[n+1].kind == tWord {
		switch ts[n+1].text {
		case "ask", "tell", "report", "notify", "escalate", "inform", "alert", "check", "confirm", "wait", "consult", "flag":
			handoff = true
			end = ts[n+1].end
			for m := n + 2; m < len(ts) && m < n+6 && ts[m].kind == tWord; m++ {
				end = ts[m].end
			}
		}
	}
	if c == nil && !handoff {
		return 0, false
	}
	r.emit(ts, i, Edge{Kind: Failure, Target: Fail}, c, end, true)
	return n, true
}

// wait reads "Wait for X" and "Wait until X" at the head of a clause.
func (r *reader) wait(ts []token, i int) (int, bool) {
	if i > 0 && ts[i-1].kind == tWord && ts[i-1].text != "then" && ts[i-1].text != "and" && ts[i-1].text != "please" {
		return 0, false
	}
	if i+1 >= len(ts) || ts[i+1].kind != tWord || ts[i+1].text != "for" && ts[i+1].text != "until" {
		return 0, false
	}
	// "Wait for" is also advice about the agent's own work ("wait for
	// network responses before asserting"): only a person, a decision or
	// a system that runs on its own makes it a wait (FORMAT 6.6).
	outside := false
	for k := i + 2; k < len(ts) && !outside; k++ {
		outside = ts[k].kind == tWord && outsideWord(ts[k].text)
	}
	if !outside {
		return 0, false
	}
	return r.waitWhat(ts, ts[i].start, i+2)
}

func outsideWord(w string) bool {
	switch w {
	case "user", "user's", "customer", "customer's", "requester", "requestor", "approval", "approve", "approves", "approved",
		"confirm", "confirms", "confirmed", "confirmation", "sign-off", "signoff", "review", "reviewer", "reviewers", "reviews",
		"answer", "answers", "answered", "reply", "replies", "respond", "responds", "responded", "human", "manager", "owner",
		"team", "lead", "maintainer", "maintainers", "ci", "pipeline", "pipelines", "build", "builds", "job", "jobs",
		"deployment", "they", "them", "someone", "stakeholder", "stakeholders", "go-ahead", "permission", "consent", "acknowledgement",
		"signature", "signed":
		return true
	}
	return false
}

// waitWhat records the wait whose object starts at word j and runs to the
// end of the sentence. An object about the agent's own work ("until you
// have reproduced it") is a completion criterion, not a wait for someone.
func (r *reader) waitWhat(ts []token, from, j int) (int, bool) {
	if j >= len(ts) {
		return 0, false
	}
	// The object runs to the end of the sentence, or to an aside: "(",
	// ":", ";" or a dash.
	start, end := ts[j].start, ts[j].end
	for k := j; k < len(ts); k++ {
		if ts[k].kind == tWord {
			end = ts[k].end
			continue
		}
		if m := r.text[ts[k].start]; m != ',' && m != ')' {
			break
		}
	}
	if end <= start {
		return 0, false
	}
	switch ts[j].text {
	case "you", "you've", "you're", "we", "we've", "i":
		r.unread(from, end, "it names the agent's own work, not something outside it to wait for")
		return len(ts), true
	}
	r.out.Waits = append(r.out.Waits, Wait{What: r.label(start, end), Start: from, End: end})
	return len(ts), true
}

// gate reads a negated move: "Do not proceed until the customer confirms",
// "Do not proceed to Steps 7-8 without explicit confirmation". Without
// "until" or "without" it says nothing: "do not proceed" alone is a stop
// that the sentence before usually states.
func (r *reader) gate(ts []token, i int) (int, bool) {
	switch ts[i].text {
	case "proceed", "continue", "advance", "go", "move":
	default:
		return 0, false // "do not skip items": not a gate
	}
	j := i + 1
	if j < len(ts) && ts[j].kind == tWord && (ts[j].text == "to" || ts[j].text == "with" || ts[j].text == "on") {
		// Only a step can be gated: "do not proceed to writing until you
		// have ..." is about the agent's own work.
		k := j + 1
		if k < len(ts) && ts[k].text == "the" {
			k++
		}
		if k >= len(ts) || ts[k].kind != tWord {
			return 0, false
		}
		switch ts[k].text {
		case "step", "steps", "phase", "phases", "next":
		default:
			return 0, false
		}
		// Past the steps gated: "Steps 7–8", "step 4", "phases 2 and 3".
		j = k + 1
		for m := j; m < len(ts) && m < k+6; m++ {
			if ts[m].kind == tWord && (startsWithDigit(ts[m].text) || ts[m].text == "and" || ts[m].text == "or" || ts[m].text == "through" || ts[m].text == "step") ||
				ts[m].kind == tComma && r.text[ts[m].start] != ',' && r.text[ts[m].start] != '(' && r.text[ts[m].start] != ')' {
				j = m + 1
				continue
			}
			break
		}
	}
	for k := j; k < len(ts) && ts[k].kind == tWord; k++ {
		switch ts[k].text {
		case "further", "any", "yet", "forward", "on", "ahead", "past", "this", "step", "here":
			continue
		}
		if ts[k].text == "until" || ts[k].text == "without" || ts[k].text == "unless" {
			start := ts[i].start
			for m := i - 1; m >= 0 && m >= i-2 && ts[m].kind == tWord; m-- {
				start = ts[m].start // "Do not", "don't"
			}
			return r.waitWhat(ts, start, k+1)
		}
		break
	}
	return 0, false
}

// repeat reads "repeat from step N", "repeat steps 2-4", "repeat this
// step", "repeat ... until C" and a bare "repeat": a loop.
func (r *reader) repeat(ts []token, i int, c *cond) (int, bool) {
	if negation(ts, i) || guarded(ts, i) {
		return 0, false
	}
	j := i + 1
	if j < len(ts) && ts[j].kind == tWord && ts[j].text == "from" {
		j++
	}
	tg := r.ctx.Step
	n := j
	if j < len(ts) && ts[j].kind == tWord && (ts[j].text == "steps" || ts[j].text == "phases") && j+1 < len(ts) && ts[j+1].kind == tWord {
		// "repeat steps 2-4": the loop goes back to the first of them.
		first, _, _ := strings.Cut(r.text[ts[j+1].start:ts[j+1].end], "-")
		if id := r.resolve(first); id != "" {
			tg, n = id, j+2
		} else {
			return 0, false
		}
	} else if id, m, why := r.target(ts, j, true); id != "" {
		tg, n = id, m
	} else if why != "" {
		r.unread(condFrom(c, ts[i].start), ts[m-1].end, why)
		return m, true
	}
	if !r.isBack(tg) {
		return 0, false
	}
	if n == j && c == nil && !untilAhead(ts, n) {
		return 0, false // a bare "repeat" with nothing to say when: not a branch
	}
	e := Edge{Kind: Failure, Target: tg, Back: true}
	end, after := r.bound(ts, n, &e, ts[max(n, i+1)-1].end)
	// "repeat ... until C": the condition that ends the loop is its label.
	for k := n; k < len(ts) && k < n+12 && ts[k].kind != tStop; k++ {
		if ts[k].kind == tWord && ts[k].text == "until" && k+1 < len(ts) {
			if lbl, e2 := r.rest(ts, k+1); lbl != "" {
				e.Label = "until " + lbl
				r.emitLoop(ts, i, e, c, e2)
				return len(ts), true
			}
		}
	}
	r.emitLoop(ts, i, e, c, end)
	return after, true
}

func untilAhead(ts []token, n int) bool {
	for k := n; k < len(ts) && k < n+12; k++ {
		if ts[k].kind == tWord && ts[k].text == "until" {
			return true
		}
	}
	return false
}

// retry reads "retry" as a loop on the step itself: "If it fails, ask the
// user to ... and retry", "Retry up to 3 times". It needs a condition or a
// bound, and must be an instruction: "safe to retry", "Retry the request"
// and "a retry pending" are not loops.
func (r *reader) retry(ts []token, i int, c *cond) (int, bool) {
	if negation(ts, i) || guarded(ts, i) {
		return 0, false
	}
	if i > 0 && ts[i-1].kind == tWord {
		switch ts[i-1].text {
		case "and", "then", "or", "please":
		default:
			return 0, false
		}
	}
	e := Edge{Kind: Failure, Target: r.ctx.Step, Back: true}
	end, n := r.bound(ts, i+1, &e, ts[i].end)
	if n == i+1 && i+1 < len(ts) && ts[i+1].kind == tWord && ts[i+1].text != "it" && ts[i+1].text != "again" && ts[i+1].text != "once" {
		return 0, false // "retry the request": an object, not a loop
	}
	if c == nil && e.Bound == 0 {
		return 0, false
	}
	r.emit(ts, i, e, c, end, true)
	return n, true
}

// emitLoop records a loop. A loop with "until C" is taken while C does not
// hold, so it is the failure edge whatever a leading condition says; that
// condition only scopes it ("If rebasing, continue ... until all commits
// are rebased") and joins the label.
func (r *reader) emitLoop(ts []token, i int, e Edge, c *cond, end int) {
	if e.Label == "" {
		r.emit(ts, i, e, c, end, true)
		return
	}
	start := condFrom(c, ts[i].start)
	if c != nil {
		e.Label = c.label + ", " + e.Label
	}
	e.Start, e.End = start, end
	e.Quote = r.quote(start, end)
	r.out.Edges = append(r.out.Edges, e)
}

// rest returns the words from k to the end of the clause, as written.
func (r *reader) rest(ts []token, k int) (string, int) {
	m := k
	for m < len(ts) && ts[m].kind == tWord {
		m++
	}
	if m == k {
		return "", 0
	}
	return r.label(ts[k].start, ts[m-1].end), ts[m-1].end
}

// until reads "<keep doing X> until C" as a loop on the step itself, with
// C as its label: only after a verb that says the work is repeated, so
// "wait until" and "run until it passes" are not loops.
func (r *reader) until(ts []token, i int, c *cond) (int, bool) {
	looped := false
	for k := i - 1; k >= 0 && ts[k].kind == tWord; k-- {
		switch ts[k].text {
		case "keep", "continue", "iterate", "loop", "poll", "repeat", "retry", "rerun", "re-run":
			// An instruction, at the head of its clause or after "and":
			// "the loop then continues until ..." describes, it does not
			// tell.
			lead := k == 0 || ts[k-1].kind != tWord || ts[k-1].text == "and" || ts[k-1].text == "then"
			looped = lead && !negation(ts, k)
		}
	}
	if !looped {
		return 0, false
	}
	lbl, end := r.rest(ts, i+1)
	if lbl == "" {
		return 0, false
	}
	e := Edge{Kind: Failure, Target: r.ctx.Step, Back: true, Label: "until " + lbl}
	start := i
	for start > 0 && ts[start-1].kind == tWord {
		start--
	}
	r.emitLoop(ts, start, e, c, end)
	return len(ts), true
}

// evenIfAt reports whether "even if" or "even when" starts at word k.
func (r *reader) evenIfAt(ts []token, k int) (int, bool) {
	if k+1 < len(ts) && ts[k].kind == tWord && ts[k].text == "even" && ts[k+1].kind == tWord && (ts[k+1].text == "if" || ts[k+1].text == "when") {
		return k, true
	}
	return 0, false
}

// evenIf reads "Continue [to the next step] even if this step fails": the
// failure edge to the next step, or, when the failing step is any other
// ("a previous step", "any step"), a statement for every step. It reads
// nothing when "even if" does not follow the verb at i and its target.
func (r *reader) evenIf(ts []token, i, j int, c *cond, tg string) (int, bool) {
	if w := ts[i].text; w != "continue" && w != "proceed" && w != "go" && w != "move" {
		return 0, false
	}
	k, ok := r.evenIfAt(ts, j)
	if !ok {
		return 0, false
	}
	if tg != "" && tg != r.ctx.Next {
		return 0, false // "continue to step 7 even if ...": a jump, not a pass-through
	}
	end := ts[k+1].end
	global := false
	for m := k + 2; m < len(ts) && ts[m].kind == tWord; m++ {
		end = ts[m].end
		switch ts[m].text {
		case "previous", "earlier", "any", "other", "another", "prior", "steps", "one":
			global = true
		}
	}
	start := condFrom(c, ts[i].start)
	if global {
		r.out.Globals = append(r.out.Globals, Global{Kind: Failure, Start: start, End: end, Quote: r.quote(start, end)})
		return len(ts), true
	}
	if r.ctx.Next == "" {
		return 0, false
	}
	e := Edge{Kind: Failure, Target: r.ctx.Next, Label: r.label(ts[k].start, end), Start: start, End: end}
	e.Quote = r.quote(start, end)
	r.out.Edges = append(r.out.Edges, e)
	return len(ts), true
}

// goOn reads a move under a condition that names no step: "If a deletion
// fails, report the error and continue with remaining deletions", "If
// either is missing, proceed with the fallback": the step is over on that
// side, and the reader goes on to the next step. Only continue, proceed,
// advance and resume say it; "move on" after a skipped item ("list it as
// skipped and move on") goes on to the next item. What follows the verb
// must be the end of the
// clause, "anyway", or "with" and what to go on with; "continue the
// rebase", "continue debugging" and "proceed to writing" go on with the
// step's own work, and read nothing. j is the word after the verb and its
// fillers.
func (r *reader) goOn(ts []token, i, j int, c *cond) (int, bool) {
	if c == nil || r.ctx.Next == "" {
		return 0, false
	}
	switch ts[i].text {
	case "continue", "proceed", "advance", "resume":
	default:
		return 0, false
	}
	if i > 0 && ts[i-1].kind == tWord && ts[i-1].text == "or" {
		return 0, false // "ask if they want to install it or proceed": a choice offered
	}
	end := ts[j-1].end
	next := j
	if j < len(ts) && ts[j].kind == tWord {
		switch ts[j].text {
		case "anyway", "regardless":
			end, next = ts[j].end, j+1
		case "with":
			// "with the remaining deletions", "with the native fallback
			// approach": to the end of the clause.
			m := j + 1
			for m < len(ts) && ts[m].kind == tWord {
				m++
			}
			if m == j+1 {
				return 0, false
			}
			end, next = ts[m-1].end, m
		default:
			return 0, false
		}
	}
	r.emit(ts, i, Edge{Target: r.ctx.Next}, c, end, false)
	return next, true
}

// named reads, at word j, a step named by its title ("go back to
// DIAGNOSE", "→ FULL SCAN"): the title's words in any case, or the name
// before the title's dash or colon ("DIAGNOSE" of "DIAGNOSE — Find Every
// Issue") written as the title writes it, followed by the end of the
// clause. The longest name read wins; two steps of that name are no
// target. It returns the step ID and the index after the name, or "".
func (r *reader) named(ts []token, j int) (string, int) {
	if len(r.ctx.Names) == 0 || j >= len(ts) || ts[j].kind != tWord {
		return "", j
	}
	b := r.buf
	if len(b.namesOf) != len(r.ctx.Names) || &b.namesOf[0] != &r.ctx.Names[0] {
		b.namesOf, b.names = r.ctx.Names, b.names[:0]
		for k, name := range r.ctx.Names {
			if k >= len(r.ctx.Steps) || name == "" {
				continue
			}
			toks := tokenize(name, nil)
			n := stepName{id: r.ctx.Steps[k], text: name}
			for _, t := range toks {
				if t.kind != tWord {
					if n.short == 0 && len(n.words) > 0 && t.kind == tComma && name[t.start] != '(' && name[t.start] != ',' {
						n.short = len(n.words)
					}
					continue
				}
				n.words = append(n.words, t)
			}
			if len(n.words) > 0 {
				b.names = append(b.names, n)
			}
		}
	}
	best, bestLen, tie := "", 0, false
	for _, n := range b.names {
		for _, short := range [2]bool{false, true} {
			words := n.words
			if short {
				if n.short == 0 {
					continue
				}
				words = words[:n.short]
			}
			m := j
			for _, w := range words {
				if m >= len(ts) || ts[m].kind != tWord || ts[m].text != w.text ||
					short && r.text[ts[m].start:ts[m].end] != n.text[w.start:w.end] {
					m = -1
					break
				}
				m++
			}
			if m < 0 || m < len(ts) && ts[m].kind == tWord {
				continue
			}
			switch l := m - j; {
			case l > bestLen:
				best, bestLen, tie = n.id, l, false
			case l == bestLen && best != n.id:
				tie = true
			}
		}
	}
	if best == "" || tie {
		return "", j
	}
	return best, j + bestLen
}

// stepName is a step's title as tokens; short is the number of words
// before its first dash or colon, 0 when it has none.
type stepName struct {
	id, text string
	words    []token
	short    int
}

// expectFail reads "Expect the test to fail": failing is what the step is
// for, so its failure edge goes on to the next step too. Only as an
// instruction at the head of its clause and without a condition of its
// own; "you can expect it to fail when ..." describes.
func (r *reader) expectFail(ts []token, i int, c *cond) (int, bool) {
	if c != nil || r.ctx.Next == "" || i > 0 && ts[i-1].kind == tWord && ts[i-1].text != "and" && ts[i-1].text != "then" {
		return 0, false
	}
	for k := i + 1; k < len(ts) && k <= i+6 && ts[k].kind == tWord; k++ {
		if ts[k].text != "to" || k+1 >= len(ts) || ts[k+1].kind != tWord {
			continue
		}
		switch ts[k+1].text {
		case "fail", "error", "break":
		default:
			return 0, false
		}
		if k+2 < len(ts) && ts[k+2].kind == tWord {
			return 0, false // "expect it to fail when ...": a condition follows
		}
		e := Edge{Kind: Failure, Target: r.ctx.Next, Label: "expected to fail", Start: ts[i].start, End: ts[k+1].end}
		e.Quote = r.quote(e.Start, e.End)
		r.out.Edges = append(r.out.Edges, e)
		return k + 2, true
	}
	return 0, false
}

// noBlock reads "must not block step 11", "does not block the next
// step": whatever becomes of this step, the procedure goes on to that
// step, so its failure edge goes there too. Only negated, and only with a
// step after it ("these do not block the rest of the review" reads
// nothing).
func (r *reader) noBlock(ts []token, i int, c *cond) (int, bool) {
	if c != nil || !negation(ts, i) {
		return 0, false
	}
	tg, n, why := r.target(ts, i+1, false)
	if tg == "" || why != "" || tg == End || tg == Fail || r.isBack(tg) {
		return 0, false
	}
	start := ts[i].start
	for m := i - 1; m >= 0 && m >= i-2 && ts[m].kind == tWord; m-- {
		start = ts[m].start // "must not", "does not"
	}
	e := Edge{Kind: Failure, Target: tg, Label: "even if it fails", Start: start, End: ts[n-1].end}
	e.Quote = r.quote(e.Start, e.End)
	r.out.Edges = append(r.out.Edges, e)
	return n, true
}
