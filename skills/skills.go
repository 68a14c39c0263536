// Package skills holds the skills shipped inside the skillc binary: the plan
// skill (the general instruction for an agent using the four plan tools) and
// workflow skills such as acat-reimbursement. Finding skills by name, among
// these and the user's folders, is the catalog package's job.
package skills

import (
	"embed"
	"io/fs"
	"path"
	"sort"
)

//go:embed */SKILL.md
var files embed.FS

// PlanSkill is the name of the general instruction skill.
const PlanSkill = "plan"

// FS is the shipped skills as <name>/SKILL.md.
func FS() fs.FS { return files }

// Names lists the shipped skills, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Workflows lists the shipped workflow skills: every skill but the plan skill.
func Workflows() []string {
	var out []string
	for _, n := range Names() {
		if n != PlanSkill {
			out = append(out, n)
		}
	}
	return out
}

// Read returns a shipped skill's SKILL.md and its path inside FS, or
// fs.ErrNotExist.
func Read(name string) (data []byte, file string, err error) {
	file = path.Join(name, "SKILL.md")
	data, err = fs.ReadFile(files, file)
	return data, file, err
}
