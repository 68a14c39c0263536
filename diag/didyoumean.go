// Package diag holds what every diagnostic of skillc shares and that needs
// nothing else: for now the did-you-mean of names and the slug of a name
// that is not valid. It imports no other package of skillc, so the runtime
// (graph, plan) and the compiler can both use it.
package diag

import "strings"

// Nearest returns the candidate closest to name by edit distance, compared
// without regard to case, when that distance is under 3 (as hcl's
// didyoumean does), else "". Ties go to the earlier candidate, so a
// suggestion never depends on map order. The compiler and graph suggest
// step IDs with it; lint suggests tools, frontmatter keys and rule IDs.
func Nearest(name string, candidates []string) string {
	return NearestMatch(name, candidates).Name
}

// Match is Nearest's answer with what a fix needs to call it sure.
type Match struct {
	// Name is Nearest's candidate, or "".
	Name string
	// Distance is its edit distance from the name, ignoring case.
	Distance int
	// Rivals counts the other distinct candidates within reach (distance
	// under 3): with a rival the suggestion is one guess among several.
	Rivals int
}

// Sure reports whether m is the only candidate within reach and differs
// from the name by case or one edit: a fix that writes it keeps what the
// author meant, and --fix may apply it. Any other suggestion is a guess.
func (m Match) Sure() bool { return m.Name != "" && m.Rivals == 0 && m.Distance <= 1 }

// NearestMatch is Nearest, saying how sure the suggestion is.
func NearestMatch(name string, candidates []string) Match {
	best, bestDist := "", 3
	lname := strings.ToLower(name)
	within := map[string]bool{}
	for _, c := range candidates {
		d := levenshtein(lname, strings.ToLower(c), 3)
		if d < 3 {
			within[c] = true
		}
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return Match{}
	}
	return Match{Name: best, Distance: bestDist, Rivals: len(within) - 1}
}

// levenshtein is the edit distance between a and b over code points, or
// limit when it is at least limit (so long strings cost little).
// Hand-written, as hcl's didyoumean is: a few lines no maintained library
// would save.
func levenshtein(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}

// Slug keeps the runes of s that keep accepts and joins the runs between
// them with single dashes: "Check the  thread!" becomes "Check-the-thread".
// It is cut to at most max bytes, never ending in a dash. It suggests a
// valid name or step ID for an invalid one.
func Slug(s string, keep func(rune) bool, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if !keep(r) {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	out := b.String()
	if len(out) > max {
		out = strings.TrimRight(out[:max], "-")
	}
	return out
}
