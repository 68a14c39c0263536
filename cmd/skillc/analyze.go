package main

import (
	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
)

// checkSkill is where a compiled skill's diagnostics are completed before
// `skillc compile` prints them: checks that need the whole graph join the
// compiler's here. It returns the diagnostics sorted by position.
func checkSkill(s *compiler.Skill, diags compiler.Diagnostics) compiler.Diagnostics {
	out := append(compiler.Diagnostics(nil), diags...)
	out = append(out, graph.Check(s)...)
	out.Sort()
	return out
}
