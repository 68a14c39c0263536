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
