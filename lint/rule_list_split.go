package lint

import "github.com/skillc/skillc/compiler"

// RuleListSplit passes on the compiler's list-split warnings: a numbered
// list that markdown ends early but a reader reads as one procedure.
// Syntax: where markdown's list ends, and that the compiler joins the
// parts again, is how it reads the text.
var RuleListSplit = &Rule{
	ID:       "list-split",
	Severity: compiler.SeverityWarning,
	Source:   "compiler",
	Summary:  "a block indented less than the step's text splits the numbered list",
	Doc: `Markdown ends a numbered list at a block indented less than the text of its
items: bullets three spaces under "10." (whose text starts four columns in), a
table or a code block at column 0. The list then starts again after it.
skillc reads the steps on as one procedure (FORMAT 6.2), and the block as the
detail of the step before it, but other renderers show two lists and the
block outside the step. Indent the block to the step's text; the fix shows
the first line indented so.

Bad:
    10. Tell the user.
       - tools: ask_user
    11. Close the ticket.

Good:
    10. Tell the user.
        - tools: ask_user
    11. Close the ticket.`,
	Fix: "safe: the block indented to the step's text, with every block after it up to the item that resumes the list (bullets and code blocks in turn), their own nesting kept. skillc already reads it as the step's detail; the fix makes other renderers agree. A block indented with tabs gets none.",
	Run: forward("list-split"),
}
