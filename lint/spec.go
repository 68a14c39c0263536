package lint

import "github.com/skillc/skillc/compiler"

// Limits of the Agent Skills specification, which the spec rules check.
const (
	maxNameLen          = 64
	maxDescriptionLen   = 1024
	maxCompatibilityLen = 500
)

// specFields is the frontmatter whose fields the spec rules check: nil
// when there is none, when its YAML could not be read (the compiler
// reported why), or when it is a document's, whose keys are a docs
// site's (document-frontmatter says so).
func specFields(s *compiler.Skill) *compiler.Frontmatter {
	fm := s.Frontmatter
	if fm == nil || fm.Malformed || fm.Document {
		return nil
	}
	return fm
}

// opening is the range of the frontmatter's opening "---", where a finding
// about a field that is not written points.
func opening(fm *compiler.Frontmatter) compiler.Range {
	r := fm.Range
	r.End = r.Start
	r.End.Column += 3
	r.End.Byte += 3
	return r
}
