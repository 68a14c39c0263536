// Package lint checks workflow skills: a registry of rules, each a value
// with an ID, a default severity and its documentation, that report
// diagnostics without printing; configuration, suppressions, and the output
// formats people and CI read (text, JSON, SARIF, GitHub workflow commands).
package lint
