package lint

import (
	"bytes"

	"github.com/skillc/skillc/compiler"
)

// RuleNoSteps reports a skill whose body was read and holds no steps.
var RuleNoSteps = &Rule{
	ID:       "no-steps",
	Severity: compiler.SeverityWarning,
	Source:   "spec",
	Summary:  "no numbered steps were found",
	Doc: `skillc looks for the items of the first ordered list after a heading Steps,
Workflow, Procedure or Process (else the first top-level ordered list), or for
"Step N: Title" headings. Without steps there is no graph and no plan template.
It is a warning because many skills are instruction-style on purpose.

Bad:
    # Refund check
    Look up the refund, then answer.

Good:
    # Refund check
    1. Look up the refund.
    2. Answer the user.`,
	Run: runNoSteps,
}

func runNoSteps(p *Pass) {
	s := p.Skill
	if s.Unread || len(s.Steps) > 0 {
		return // an unread body is file-too-large's finding
	}
	// The file's first character, after a byte order mark, which is not
	// text and takes no column.
	at := compiler.Pos{Line: 1, Column: 1}
	if bytes.HasPrefix(s.Source, []byte("\xef\xbb\xbf")) {
		at.Byte = 3
	}
	p.Report(compiler.Diagnostic{
		Summary: "no steps found: the skill has no numbered list or \"Step N:\" headings",
		Detail:  "a workflow skill lists its steps as a numbered list (after a \"Steps\" heading, or the first one in the file) or as headings like \"## Step 1: Find the transfer\"",
		Range:   compiler.Range{Start: at, End: at},
	})
}
