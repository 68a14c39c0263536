package catalog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// skillsRefCases restate the test cases of the reference validator,
// skills-ref (github.com/agentskills/agentskills, skills-ref/tests), as
// skill folders under testdata/skillsref/<test name>: test_validator.py,
// including the capabilities tests of the validator version that adds that
// field, and the cases of test_parser.py that judge a skill. skillc lint
// must give skills-ref's verdict: a valid skill gets no error, an invalid
// one a finding of one of the rules listed (a warning counts: skillc warns
// where skills-ref's only answer is "invalid", such as an unknown key).
var skillsRefCases = []struct {
	name  string
	path  string // what `skillc lint` is given, under the case's folder
	valid bool
	rules []string // for an invalid case: the findings that say why; none: any
	// pending names the branch whose work the case waits for; until it
	// lands, a case that skillc does not find at all is skipped.
	pending string
}{
	{name: "test_valid_skill", path: "my-skill", valid: true},
	{name: "test_nonexistent_path", path: "nonexistent", rules: []string{"unreadable"}},
	// skills-ref refuses a file where it wants a folder; skillc lints a
	// file it is given, and finds no frontmatter in "test".
	{name: "test_not_a_directory", path: "file.txt", rules: []string{"missing-frontmatter"}},
	// skills-ref: "Missing required file: SKILL.md". skillc reports a
	// folder named on the command line that holds no skill as unreadable
	// (nothing in it reads as a skill), and exits with status 2.
	{name: "test_missing_skill_md", path: "my-skill", rules: []string{"unreadable"}},
	{name: "test_invalid_name_uppercase", path: "MySkill", rules: []string{"invalid-name"}},
	{name: "test_name_too_long", path: strings.Repeat("a", 70), rules: []string{"invalid-name"}},
	{name: "test_name_leading_hyphen", path: "-my-skill", rules: []string{"invalid-name"}},
	{name: "test_name_consecutive_hyphens", path: "my--skill", rules: []string{"invalid-name"}},
	{name: "test_name_invalid_characters", path: "my_skill", rules: []string{"invalid-name"}},
	{name: "test_name_directory_mismatch", path: "wrong-name", rules: []string{"name-mismatch"}},
	{name: "test_unexpected_fields", path: "my-skill", rules: []string{"frontmatter-unknown-key"}},
	{name: "test_valid_with_all_fields", path: "my-skill", valid: true},
	{name: "test_allowed_tools_accepted", path: "my-skill", valid: true},
	{name: "test_allowed_tools_inline_list_accepted", path: "my-skill", valid: true},
	{name: "test_allowed_tools_block_list_accepted", path: "my-skill", valid: true},
	{name: "test_allowed_tools_list_items_must_be_strings", path: "my-skill", rules: []string{"invalid-frontmatter"}},
	{name: "test_allowed_tools_invalid_scalar_type_rejected", path: "my-skill", rules: []string{"invalid-frontmatter"}},
	{name: "test_i18n_chinese_name", path: "技能", valid: true},
	{name: "test_i18n_russian_name_with_hyphens", path: "мой-навык", valid: true},
	{name: "test_i18n_russian_lowercase_valid", path: "навык", valid: true},
	{name: "test_i18n_russian_uppercase_rejected", path: "НАВЫК", rules: []string{"invalid-name"}},
	{name: "test_description_too_long", path: "my-skill", rules: []string{"invalid-description"}},
	{name: "test_valid_compatibility", path: "my-skill", valid: true},
	{name: "test_compatibility_too_long", path: "my-skill", rules: []string{"invalid-frontmatter"}},
	{name: "test_nfkc_normalization", path: "caf\u00e9", valid: true},
	// skillc knows no capabilities field (the specification has none), so
	// it warns about the key: no error on the valid ones, a finding on the
	// ones that version of skills-ref refuses.
	{name: "test_valid_capabilities", path: "my-skill", valid: true},
	{name: "test_unrecognized_capability_warns", path: "my-skill", rules: []string{"frontmatter-unknown-key"}},
	{name: "test_duplicate_capability", path: "my-skill", rules: []string{"frontmatter-unknown-key"}},
	{name: "test_empty_capabilities_list", path: "my-skill", valid: true},
	{name: "test_single_capability", path: "my-skill", valid: true},
	// test_parser.py
	{name: "test_missing_frontmatter", path: "my-skill", rules: []string{"missing-frontmatter"}},
	{name: "test_unclosed_frontmatter", path: "my-skill", rules: []string{"invalid-frontmatter"}},
	{name: "test_invalid_yaml", path: "my-skill", rules: []string{"invalid-frontmatter"}},
	{name: "test_non_dict_frontmatter", path: "my-skill", rules: []string{"invalid-frontmatter"}},
	{name: "test_read_valid_skill", path: "my-skill", valid: true},
	{name: "test_read_with_metadata", path: "my-skill", valid: true},
	{name: "test_missing_name", path: "my-skill", rules: []string{"missing-name"}},
	{name: "test_missing_description", path: "my-skill", rules: []string{"missing-description"}},
	// Also test_find_skill_md_accepts_lowercase.
	{name: "test_read_properties_with_lowercase_skill_md", path: "my-skill", valid: true},
	{name: "test_read_with_allowed_tools_inline_list", path: "my-skill", valid: true},
	// test_read_with_allowed_tools, _block_list and _invalid_type are
	// test_validator.py's allowed-tools cases above; test_missing_skill_md
	// and test_find_skill_md_returns_none_when_missing are
	// test_missing_skill_md's; test_find_skill_md_prefers_uppercase is
	// TestSkillsRefPrefersUppercase, since a folder holding both SKILL.md
	// and skill.md cannot be checked out on a case-insensitive file system.
}

func TestSkillsRef(t *testing.T) {
	for _, tc := range skillsRefCases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "skillsref", tc.name, tc.path)
			checkSkillsRefVerdict(t, path, tc.valid, tc.rules, tc.pending)
		})
	}
}

// TestSkillsRefPrefersUppercase restates test_find_skill_md_prefers_uppercase:
// with both files, SKILL.md is the skill.
func TestSkillsRefPrefersUppercase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-skill")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skill.md"), []byte("lowercase"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "Skill.md")); err == nil {
		t.Skip("case-insensitive file system: SKILL.md and skill.md are one file")
	}
	checkSkillsRefVerdict(t, dir, true, nil, "")
}

func checkSkillsRefVerdict(t *testing.T, path string, valid bool, rules []string, pending string) {
	t.Helper()
	res := catalog.Lint([]string{path}, lint.Options{})
	diags := res.Diagnostics()
	var errs []string
	found := false
	for _, d := range diags {
		if d.Severity == compiler.SeverityError {
			errs = append(errs, d.Location()+": "+d.Summary+" ["+d.Rule+"]")
		}
		found = found || len(rules) == 0
		for _, r := range rules {
			found = found || d.Rule == r
		}
	}
	linted := len(res.Files) > 0
	if pending != "" && !linted {
		t.Skipf("skillc lints no file for %s: waits for the %s branch", path, pending)
	}
	switch {
	case !linted:
		t.Errorf("skillc lint %s read no skill", path)
	case valid && len(errs) > 0:
		t.Errorf("skills-ref finds %s valid; skillc reports:\n%s", path, strings.Join(errs, "\n"))
	case !valid && !found:
		t.Errorf("skills-ref finds %s invalid; skillc reports none of %v, only %v", path, rules, diags)
	}
}
