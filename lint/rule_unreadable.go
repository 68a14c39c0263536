package lint

import "github.com/skillc/skillc/compiler"

// RuleUnreadable is reported by the lint driver itself; it is listed for
// its documentation.
var RuleUnreadable = &Rule{
	ID:       "unreadable",
	Severity: compiler.SeverityError,
	Source:   "driver",
	Summary:  "a file or folder could not be read",
	Doc: `A path named on the command line, or found while walking a folder, could not
be read (missing, no permission), or is refused by the file policy every
command shares: only regular files are read (a FIFO or a device is never
opened for reading), and a symlink only when it resolves inside the folder
being read (for a file named directly: its folder). A folder named on the
command line that holds no skill (no SKILL.md or skill.md anywhere below it
that the config does not ignore) is reported so too, with how to start one
(skillc init NAME). It is reported like any finding so the rest of the run
goes on, and the run then exits with status 2. It cannot be disabled.

Bad:
    skillc lint skils/      (a typo)

Good:
    skillc lint skills/`,
	// Run is nil: the driver reports this rule itself.
	Run: nil,
}
