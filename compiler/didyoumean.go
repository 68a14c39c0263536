package compiler

import "github.com/skillc/skillc/diag"

// Nearest returns the candidate closest to name, or "" (see diag.Nearest).
func Nearest(name string, candidates []string) string { return diag.Nearest(name, candidates) }

// slug suggests a valid name or step ID for an invalid one (see diag.Slug).
func slug(s string, keep func(rune) bool, max int) string { return diag.Slug(s, keep, max) }

// NearestMatch is Nearest, saying how sure it is (see diag.Match).
func NearestMatch(name string, candidates []string) diag.Match {
	return diag.NearestMatch(name, candidates)
}
