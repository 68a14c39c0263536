package compiler

// FormatVersion is the version of the skill format and of plan templates.
const FormatVersion = 1

// Template is a compiled skill as a plan template (FORMAT.md §5): exactly
// what make_plan accepts, so a compiled skill seeds an agent's plan
// unchanged. Field order is the JSON order.
type Template struct {
	Format      int            `json:"format" yaml:"format"`
	Skill       string         `json:"skill" yaml:"skill"`
	Title       string         `json:"title" yaml:"title"`
	Description string         `json:"description" yaml:"description"`
	Entry       string         `json:"entry" yaml:"entry"`
	Steps       []TemplateStep `json:"steps" yaml:"steps"`
}

// TemplateStep is one step of a Template.
type TemplateStep struct {
	ID               string   `json:"id" yaml:"id"`
	Goal             string   `json:"goal" yaml:"goal"`
	RecommendedTools []string `json:"recommended_tools" yaml:"recommended_tools"`
	NextOnSuccess    string   `json:"next_on_success" yaml:"next_on_success"`
	NextOnFailure    string   `json:"next_on_failure" yaml:"next_on_failure"`
	SuccessLabel     string   `json:"success_label" yaml:"success_label"`
	FailureLabel     string   `json:"failure_label" yaml:"failure_label"`
	Detail           string   `json:"detail" yaml:"detail"`
	Line             int      `json:"line" yaml:"line"`
}

// Template returns the skill's plan template. Steps keep written order.
func (s *Skill) Template() *Template {
	t := &Template{
		Format:      FormatVersion,
		Skill:       s.Name,
		Title:       s.Title,
		Description: s.Description,
		Entry:       s.Entry,
		Steps:       make([]TemplateStep, 0, len(s.Steps)),
	}
	for _, st := range s.Steps {
		t.Steps = append(t.Steps, TemplateStep{
			ID:               st.ID,
			Goal:             st.Goal,
			RecommendedTools: st.ToolNames(),
			NextOnSuccess:    st.Success.Target,
			NextOnFailure:    st.Failure.Target,
			SuccessLabel:     st.Success.DisplayLabel(),
			FailureLabel:     st.Failure.DisplayLabel(),
			Detail:           st.Detail,
			Line:             st.Line(),
		})
	}
	return t
}
