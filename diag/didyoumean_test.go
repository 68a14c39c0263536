package diag

import "testing"

func TestNearest(t *testing.T) {
	tests := []struct {
		name  string
		cands []string
		want  string
	}{
		{"clarfy", []string{"check", "clarify", "end"}, "clarify"},
		{"Search_Thread", []string{"search_thread"}, "search_thread"},
		{"list_charge", []string{"list_charges", "list_charge_s"}, "list_charges"},
		{"zzz", []string{"end", "fail"}, ""},
		{"", []string{"ab"}, "ab"},
		{"x", nil, ""},
		// A tie goes to the earlier candidate, whatever the map order of
		// the caller would have been.
		{"fnd", []string{"end", "find"}, "end"},
		{"fnd", []string{"find", "end"}, "find"},
	}
	for _, tt := range tests {
		if got := Nearest(tt.name, tt.cands); got != tt.want {
			t.Errorf("Nearest(%q, %q) = %q, want %q", tt.name, tt.cands, got, tt.want)
		}
	}
}

// TestNearestMatch: a suggestion is sure (a fix --fix may apply) only when
// it is the one candidate within reach, a case change or one edit away.
func TestNearestMatch(t *testing.T) {
	tests := []struct {
		name  string
		cands []string
		want  Match
		sure  bool
	}{
		{"clarfy", []string{"check", "clarify", "end"}, Match{"clarify", 1, 0}, true},
		{"Search_Thread", []string{"search_thread"}, Match{"search_thread", 0, 0}, true},
		{"list_charge", []string{"list_charges", "list_charge_s"}, Match{"list_charges", 1, 1}, false},
		{"clrfy", []string{"clarify"}, Match{"clarify", 2, 0}, false},
		{"zzz", []string{"end", "fail"}, Match{}, false},
		{"fnd", []string{"end", "find"}, Match{"end", 1, 1}, false},
	}
	for _, tt := range tests {
		got := NearestMatch(tt.name, tt.cands)
		if got != tt.want || got.Sure() != tt.sure {
			t.Errorf("NearestMatch(%q, %q) = %+v (sure %v), want %+v (sure %v)", tt.name, tt.cands, got, got.Sure(), tt.want, tt.sure)
		}
	}
}
