package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/lint"
)

// InitOptions are the flags and arguments of `skillc init`.
type InitOptions struct {
	IO   *IOStreams
	Name string
	// Dir is --dir: the folder the skill's folder is made in.
	Dir string
}

// NewCmdInit builds `skillc init`.
func NewCmdInit(io *IOStreams, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "init NAME",
		Short: "Start a new skill: NAME/SKILL.md with an annotated example",
		Long: `Write a new skill folder, NAME/SKILL.md (in --dir, by default the current
folder): frontmatter with the name and a description, a when-to-use section,
and an example procedure with comments on how steps, tools and branches are
written. It lints clean as written (also with --strict); replace the example
with your own steps and run skillc lint on the folder.

NAME is the skill's name, and its folder's: 1-64 lowercase letters, digits
and -, without a leading or trailing - or a --. init never overwrites: when
the folder or file is already there, it says so and writes nothing (exit 2).`,
		Example: `  # skills/refund-check/SKILL.md
  skillc init refund-check --dir skills
  skillc lint skills/refund-check`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	cmd.Flags().StringVar(&opts.Dir, "dir", ".", "make the skill's folder in `DIR`")
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

func initRun(opts *InitOptions) error {
	name := opts.Name
	const nameRule = "a skill name is 1-64 lowercase letters, digits and -, without a leading or trailing - or a --"
	if strings.TrimSpace(name) == "" {
		return usageError("the skill name is empty: %s", nameRule)
	}
	if t := strings.TrimSpace(name); t != name {
		return usageError("invalid skill name %q: it has white space around it. Try: skillc init %s", name, t)
	}
	if strings.ContainsAny(name, `/\`) {
		dir, base := filepath.Split(filepath.Clean(name))
		hint := ""
		if base != "" && base != "." && base != ".." {
			hint = fmt.Sprintf(": to write %s, run skillc init %s --dir %s", filepath.Join(name, catalog.FileName), base, filepath.Clean(dir))
		}
		return usageError("%q is a path; NAME is the skill's name, without a folder%s", name, hint)
	}
	src := initSource(name)
	folder := filepath.Join(opts.Dir, name)
	file := filepath.Join(folder, catalog.FileName)
	// The name is judged by the rules that judge the written skill, with
	// the default config (a project's tool registry has no say over an
	// example): invalid-name's words and its suggestion.
	diags := lint.LintSource(file, src, lint.Options{})
	for _, d := range diags {
		if d.Rule == "invalid-name" || d.Rule == "name-mismatch" {
			msg := fmt.Sprintf("invalid skill name %q: it %s; %s", name, strings.TrimPrefix(d.Summary, fmt.Sprintf("name %q ", name)), nameRule)
			if d.Suggestion != "" {
				msg += ". Try: skillc init " + d.Suggestion
			}
			return usageError("%s", msg)
		}
	}
	if len(diags) > 0 {
		// The example is checked by the tests; should a change to the
		// rules break it, say so rather than write a skill that fails.
		return &exitError{code: exitUsage, err: fmt.Errorf("internal error: the example skill does not lint clean (%s: %s [%s]); please report it", diags[0].Location(), diags[0].Summary, diags[0].Rule)}
	}

	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return usageError("cannot make --dir %q: %v", opts.Dir, unwrapPathErr(err))
	}
	// Mkdir fails when anything is there, so no folder or file is ever
	// written over, however it got there.
	if err := os.Mkdir(folder, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			what := "a folder"
			if st, serr := os.Lstat(folder); serr == nil && !st.IsDir() {
				what = "a file"
			}
			return usageError("%q already exists (%s); init writes a new skill folder and never overwrites: choose another NAME, or another --dir", folder, what)
		}
		return usageError("cannot make %q: %v", folder, unwrapPathErr(err))
	}
	if err := writeNew(file, src); err != nil {
		os.Remove(folder)
		return usageError("cannot write %q: %v", file, unwrapPathErr(err))
	}
	note := ""
	if !asciiName(name) {
		note = "\nnote: FORMAT version 1 (skillc lint --strict) allows only a-z, 0-9 and - in a name"
	}
	_, err := fmt.Fprintf(opts.IO.Out, "wrote %s\nnext: replace the example with your skill's steps, then run: skillc lint %s%s\n", file, folder, note)
	return err
}

// writeNew creates path, which must not exist, with data; on a failure it
// leaves no file behind.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func asciiName(name string) bool {
	for _, r := range name {
		if r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// initTitle is the H1 for a name: "refund-check" reads "Refund check".
func initTitle(name string) string {
	t := strings.ReplaceAll(name, "-", " ")
	r, size := utf8.DecodeRuneInString(t)
	if r == utf8.RuneError {
		return name
	}
	return string(unicode.ToUpper(r)) + t[size:]
}

// initSource is the SKILL.md that init writes for name.
func initSource(name string) []byte {
	r := strings.NewReplacer("NAME", name, "TITLE", initTitle(name))
	return []byte(r.Replace(initTemplate))
}

// initTemplate is the skill init writes, NAME and TITLE replaced. Its
// comments are HTML comments: hidden where the markdown is rendered, and
// no part of any step.
const initTemplate = `---
name: NAME
description: Answer a question about one of the user's records, asking which one when it is unclear. Use when the user asks about a record by a description rather than its ID.
# allowed-tools is the skill's tool registry: every tool a step names must
# be listed here (space-separated). Remove the line to allow any tool.
allowed-tools: search_thread lookup_records ask_user
---
<!--
Written by skillc init as an example: keep its shape, replace its words.
  - name (above) is the folder's name: lowercase letters, digits and -.
  - description says what the skill does and when to use it; an agent
    picks a skill by reading it.
Comments like this one are hidden when the markdown is rendered.
Check your changes with: skillc lint NAME (skillc explain RULE explains
a finding).
-->
# TITLE

Find the record the user means and answer from it.

## When to use

Use this when the user asks about one of their records without giving its
ID. Not for changing a record.

## Steps

<!--
The steps are the numbered list after the "Steps" heading; each becomes a
plan step. An item's first sentence is the step's goal. The bullets under
it are the step's annotations:
  - tools: the tools to call, by name, separated by commas or spaces.
  - on success: where to go when the step succeeds; by default the next
    step (after the last one: end).
  - on failure: where to go when it fails; by default fail, which ends
    the plan as failed.
  - yes: and no: are the two answers of a step that asks a question (its
    goal ends with "?"); a label in parentheses names the branch.
A target is a step number, end (the plan is done) or fail; text after
" - " is a note for the agent. Any other text in a step is its detail.
-->

1. Does the conversation already answer the question?
   - tools: search_thread
   - yes: end - answer from what the user already said
   - no: 2
2. Look up the records that match the user's description.
   - tools: lookup_records
   - on failure: 4 - nothing matched; ask the user
3. Is exactly one record a match?
   - yes (one record): end - answer from that record
   - no (several records): 4
4. Ask the user which record they mean, then answer from it.
   - tools: ask_user
   - on failure: fail - the user did not say
`
