package lint

import (
	"sort"

	"github.com/skillc/skillc/compiler"
)

// Rules is the registry: every rule skillc knows, compiler and graph rules
// first (in the order they tend to fire), then the lint rules, then the
// driver's own. The order is the order `skillc rules` lists them in.
var Rules = []*Rule{
	// the file, the frontmatter and the steps as written (compiler), with
	// the IDs, goals, targets and tool names graph.Check also judges
	RuleInvalidEncoding,
	RuleFileTooLarge,
	RuleInvalidFrontmatter,
	RuleMissingName,
	RuleInvalidName,
	RuleNameMismatch,
	RuleMissingDescription,
	RuleInvalidDescription,
	RuleNoSteps,
	RuleInvalidId,
	RuleReservedId,
	RuleDuplicateId,
	RuleEmptyGoal,
	RuleUnknownTarget,
	RuleDuplicateEdge,
	RuleUnknownBranchKey,
	RuleInvalidToolName,
	RuleListSplit,
	// the graph (graph.Check)
	RuleCycle,
	RuleUnboundedLoop,
	RuleUnreachableStep,
	RuleNoPathToEnd,
	RuleEntryCannotEnd,
	RuleLimitExceeded,
	// lint
	RuleUnknownTool,
	RuleTooManyTools,
	RuleUnusedTool,
	RuleQuestionWithoutBranch,
	RuleGoalTooLong,
	RuleFrontmatterUnknownKey,
	RuleMissingFrontmatter,
	RuleDocumentFrontmatter,
	RuleBodyTooLong,
	RuleBrokenLink,
	RuleMissingWhenToUse,
	RuleProseBranch,
	RuleInferred,
	// driver
	RuleUnreadable,
	RuleUnknownRule,
	RuleInvalidConfig,
}

var ruleByID = func() map[string]*Rule {
	m := make(map[string]*Rule, len(Rules))
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()

// Lookup returns the rule with the given ID, or nil.
func Lookup(id string) *Rule { return ruleByID[id] }

// RuleIDs returns every rule ID in registry order.
func RuleIDs() []string {
	out := make([]string, len(Rules))
	for i, r := range Rules {
		out[i] = r.ID
	}
	return out
}

// Suggest returns the rule ID nearest to a misspelt one, or "".
func Suggest(id string) string {
	ids := RuleIDs()
	sort.Strings(ids) // ties go to the alphabetically first
	return compiler.Nearest(id, ids)
}
