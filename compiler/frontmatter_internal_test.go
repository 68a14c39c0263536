package compiler

import (
	"fmt"
	"testing"
)

func TestSplitAllowedTools(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Read Grep", []string{"Read", "Grep"}},
		{"Read, Grep,Bash", []string{"Read", "Grep", "Bash"}},
		{"Bash(git:*) Bash(jq:*)", []string{"Bash(git:*)", "Bash(jq:*)"}},
		{"Bash(git diff:*), Read", []string{"Bash(git diff:*)", "Read"}},
		{"Bash(a, b) Read", []string{"Bash(a, b)", "Read"}},
		{"Read\tGrep\n Bash", []string{"Read", "Grep", "Bash"}},
		{"  ,, ", nil},
		// Unbalanced: the rest of the value is one entry, which
		// splitPermission then refuses as a whole.
		{"Bash(unclosed Read", []string{"Bash(unclosed Read"}},
		{"Read) Grep", []string{"Read)", "Grep"}},
	}
	for _, tt := range tests {
		if got := splitAllowedTools(tt.in); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("splitAllowedTools(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitPermission(t *testing.T) {
	tests := []struct {
		in, tool, pattern string
		ok                bool
	}{
		{"Read", "Read", "", true},
		{"Bash(git:*)", "Bash", "git:*", true},
		{"Bash(git diff:*)", "Bash", "git diff:*", true},
		{"Read(./docs/**)", "Read", "./docs/**", true},
		{"Bash(f(x))", "Bash", "f(x)", true},
		{"Bash()", "Bash", "", true},
		{"(x)", "", "", false},
		{"Bash(git:*", "", "", false},
		{"Bash(a)(b)", "", "", false},
		{"Bash(a)x", "", "", false},
		{"Read)", "", "", false},
	}
	for _, tt := range tests {
		tool, pattern, ok := splitPermission(tt.in)
		if tool != tt.tool || pattern != tt.pattern || ok != tt.ok {
			t.Errorf("splitPermission(%q) = %q, %q, %v; want %q, %q, %v", tt.in, tool, pattern, ok, tt.tool, tt.pattern, tt.ok)
		}
	}
}
