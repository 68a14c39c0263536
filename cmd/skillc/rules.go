package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/lint"
)

// RulesOptions are the arguments of `skillc rules` and `skillc explain`.
type RulesOptions struct {
	IO   *IOStreams
	Rule string // explain only
}

// NewCmdRules builds `skillc rules`.
func NewCmdRules(io *IOStreams, runF func(*RulesOptions) error) *cobra.Command {
	opts := &RulesOptions{IO: io}
	return &cobra.Command{
		Use:   "rules",
		Short: "List the lint rules with their default severity",
		Long: `List every rule skillc lint reports: its ID (for .skillc.yaml and
suppression comments), its default severity and what it checks.`,
		Example: `  skillc rules
  skillc explain prose-branch`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return rulesRun(opts)
		},
	}
}

func rulesRun(opts *RulesOptions) error {
	tw := tabwriter.NewWriter(opts.IO.Out, 0, 0, 2, ' ', 0)
	for _, r := range lint.Rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, r.Summary)
	}
	return tw.Flush()
}

// NewCmdExplain builds `skillc explain RULE`.
func NewCmdExplain(io *IOStreams, runF func(*RulesOptions) error) *cobra.Command {
	opts := &RulesOptions{IO: io}
	return &cobra.Command{
		Use:   "explain RULE",
		Short: "Explain a lint rule, with a bad and a good example",
		Example: `  skillc explain unknown-target
  skillc explain question-without-branch`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRule,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Rule = args[0]
			if runF != nil {
				return runF(opts)
			}
			return explainRun(opts)
		},
	}
}

func explainRun(opts *RulesOptions) error {
	r := lint.Lookup(opts.Rule)
	if r == nil {
		if s := lint.Suggest(opts.Rule); s != "" {
			return usageError("unknown rule %q; did you mean %q? (skillc rules lists them)", opts.Rule, s)
		}
		return usageError("unknown rule %q (skillc rules lists them)", opts.Rule)
	}
	_, err := fmt.Fprintf(opts.IO.Out, "%s (%s, reported by %s)\n\n%s.\n\n%s\n", r.ID, r.Severity, r.Source, explainCapitalize(r.Summary), r.Doc)
	if err == nil && r.Fix != "" {
		_, err = fmt.Fprintf(opts.IO.Out, "\nFix: %s\n", r.Fix)
	}
	return err
}

func explainCapitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
