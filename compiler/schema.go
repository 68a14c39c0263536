package compiler

import _ "embed"

// TemplateSchema is the JSON Schema (draft 2020-12) of a plan template, the
// JSON form of Template.
//
//go:embed template.schema.json
var TemplateSchema []byte
