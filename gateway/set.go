package gateway

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillc/skillc/plan"
)

// Set is the upstream tools a conversation sees at its plan's position.
// The plan tools are always seen and are not in it.
type Set struct {
	// All is true when nothing is gated: no plan, or a closed one.
	All bool
	// Names are the offered names, sorted.
	Names []string
	// Steps are the in-progress steps the set comes from, for messages.
	Steps []SetStep
}

// SetStep is one in-progress step and the tools it brings in.
type SetStep struct {
	ID, Goal string
	// Tools are the offered names the step brings in, sorted.
	Tools []string
	// FromSkill is true when the step recommends no tool and Tools are
	// its skill's allowed-tools.
	FromSkill bool
}

// AllowedTools returns a skill's allowed-tools, and whether it has that
// key; the server answers it from its catalog.
type AllowedTools func(skill string) ([]string, bool)

// SetFor works out the set at p's position (p may be nil: no plan):
//
//   - no plan, or a plan that is not active: everything (All);
//   - otherwise the union, over the in-progress steps, of each step's
//     recommended tools, each resolved through n (a plain name, or
//     SERVER__tool);
//   - a step that recommends no tool brings in its skill's allowed-tools
//     (a plan made from a skill that has that key); a plan written by the
//     model, or from a skill without allowed-tools, brings in nothing for
//     it, so only the plan tools remain.
//
// A name that no upstream offers (a tool of the host's own) adds nothing:
// the gateway gates only the tools it serves.
func SetFor(p *plan.Plan, n *Names, allowed AllowedTools) Set {
	if p == nil || p.Status != plan.StatusActive {
		return Set{All: true}
	}
	set := map[string]bool{}
	var steps []SetStep
	for _, st := range p.Steps {
		if st.Status != plan.StepInProgress {
			continue
		}
		ss := SetStep{ID: st.ID, Goal: st.Goal}
		names := st.RecommendedTools
		if len(names) == 0 && p.Skill != "" && allowed != nil {
			if list, ok := allowed(p.Skill); ok {
				names, ss.FromSkill = list, true
			}
		}
		stepSet := map[string]bool{}
		for _, name := range names {
			for _, o := range n.Resolve(name) {
				stepSet[o] = true
				set[o] = true
			}
		}
		ss.Tools = sortedKeys(stepSet)
		steps = append(steps, ss)
	}
	return Set{Names: sortedKeys(set), Steps: steps}
}

// Has reports whether the set lets a conversation see or call an offered
// tool.
func (s Set) Has(name string) bool {
	if s.All {
		return true
	}
	_, ok := slices.BinarySearch(s.Names, name)
	return ok
}

// Same reports whether two sets show the same tools.
func (s Set) Same(t Set) bool {
	return s.All == t.All && slices.Equal(s.Names, t.Names)
}

// Refusal is the tool error for a call to name outside the set: which
// step is in progress, what it may call, and that update_plan moves on.
func (s Set) Refusal(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tool %q is not available at this point of the plan: ", name)
	if len(s.Steps) == 0 {
		b.WriteString("no step is in progress, so only the plan tools are; call view_plan to see where the plan is, or close_plan to end it.")
		return b.String()
	}
	for i, st := range s.Steps {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "step %s (%s) is in progress", st.ID, st.Goal)
		switch {
		case len(st.Tools) > 0:
			fmt.Fprintf(&b, " and its tools are %s", strings.Join(st.Tools, ", "))
		case st.FromSkill:
			b.WriteString(" and it recommends no tool, and its skill allows none of this server's")
		default:
			b.WriteString(" and it recommends no tool of this server")
		}
	}
	b.WriteString(" (besides the plan tools). When the step is done, call update_plan to record it: that moves the position, and the next step's tools become available.")
	return b.String()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
