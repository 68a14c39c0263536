package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/lint"
)

// Shell completion beyond cobra's defaults (`skillc completion bash|zsh|
// fish|powershell` prints the scripts): rule IDs for `explain`, --select and
// --ignore, each flag's fixed values, and skill names for --skill.

// completeRule completes the one RULE of `skillc explain`, each with its
// summary for shells that show descriptions.
func completeRule(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, r := range lint.Rules {
		if strings.HasPrefix(r.ID, toComplete) {
			out = append(out, cobra.CompletionWithDesc(r.ID, r.Summary))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeRuleList completes the last rule of a comma-separated list
// (--select, --ignore), keeping the ones before it and leaving out rules
// that skillc itself reports, which neither flag takes.
func completeRuleList(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	done, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	var out []cobra.Completion
	for _, r := range lint.Rules {
		if r.Run != nil && strings.HasPrefix(r.ID, last) && !strings.Contains(","+done, ","+r.ID+",") {
			out = append(out, cobra.CompletionWithDesc(done+r.ID, r.Summary))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeSkill completes --skill of `plan make`: the names of the shipped
// skills and of those under the --skills folders already typed, or files
// once the word looks like a path (--skill also takes a markdown file).
func completeSkill(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if planLooksLikeFile(toComplete) {
		return nil, cobra.ShellCompDirectiveDefault
	}
	dirs, _ := cmd.Flags().GetStringArray("skills")
	// cobra's __complete can parse the flags twice, giving each folder
	// twice; LoadSet would take that for two skills of one name.
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	set, err := catalog.LoadSet(dirs, lint.Options{Config: completionConfig(cmd)})
	if err != nil {
		// A broken --skills folder must not hide the shipped skills.
		if set, err = catalog.LoadSet(nil, lint.Options{}); err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
	}
	var out []cobra.Completion
	for _, name := range set.Names() {
		if strings.HasPrefix(name, toComplete) {
			out = append(out, name)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completionConfig is the config a command would use (its --config, else
// .skillc.yaml found upward), so completion walks the --skills folders with
// its ignore globs; nil when there is none or it has problems, since
// completion has nowhere to report them.
func completionConfig(cmd *cobra.Command) *lint.Config {
	path, _ := cmd.Flags().GetString("config")
	if path == "" {
		var err error
		if path, err = lint.FindConfig("."); err != nil || path == "" {
			return nil
		}
	}
	cfg, diags, err := lint.LoadConfig(path)
	if err != nil || len(diags) > 0 {
		return nil
	}
	return cfg
}
