// Package skills holds the skills shipped inside the skillc binary: the plan
// skill (the general instruction for an agent using the four plan tools) and
// workflow skills such as acat-reimbursement.
package skills

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
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

// Find returns the SKILL.md of the skill called name: from the first of dirs
// that holds <dir>/<name>/SKILL.md, else from the shipped skills. Folders
// given by the user win over shipped skills so a team can override one.
// file is the path on disk, or "skills/<name>/SKILL.md" for a shipped one.
func Find(name string, dirs []string) (data []byte, file string, err error) {
	if !fs.ValidPath(name) || path.Base(name) != name || name == "." {
		return nil, "", fmt.Errorf("invalid skill name %q", name)
	}
	for _, d := range dirs {
		p := filepath.Join(d, name, "SKILL.md")
		data, err := os.ReadFile(p)
		if err == nil {
			return data, p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, p, err
		}
	}
	data, file, err = Read(name)
	if err != nil {
		known := Workflows()
		return nil, "", fmt.Errorf("no skill named %q (shipped: %s; add folders with --skills DIR): %w",
			name, strings.Join(known, ", "), fs.ErrNotExist)
	}
	return data, "skills/" + file, nil
}
