package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// SchemaOptions are the arguments of `skillc schema`.
type SchemaOptions struct {
	IO   *IOStreams
	Name string
}

// schemaDoc is one schema `skillc schema NAME` prints, with a line for help.
type schemaDoc struct {
	about  string
	schema []byte
}

// schemas are the JSON Schemas `skillc schema NAME` prints. Adding one is
// one line.
var schemas = map[string]schemaDoc{
	"template": {"the plan template that `skillc compile` prints and make_plan accepts", compiler.TemplateSchema},
	"config":   {"the .skillc.yaml configuration of `skillc lint`", lint.ConfigSchema},
}

// schemaHelp lists the schemas for the command's help.
func schemaHelp() string {
	var b strings.Builder
	for _, n := range schemaNames() {
		fmt.Fprintf(&b, "\n  %-10s %s", n, schemas[n].about)
	}
	return b.String()
}

func schemaNames() []string {
	names := make([]string, 0, len(schemas))
	for n := range schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewCmdSchema builds `skillc schema`.
func NewCmdSchema(ios *IOStreams, runF func(*SchemaOptions) error) *cobra.Command {
	opts := &SchemaOptions{IO: ios}
	cmd := &cobra.Command{
		Use:       "schema NAME",
		Short:     "Print a JSON Schema: " + strings.Join(schemaNames(), ", "),
		Long:      "Print a JSON Schema (draft 2020-12) for a file skillc reads or writes:\n" + schemaHelp(),
		Example:   `  skillc schema template > template.schema.json`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: schemaNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return schemaRun(opts)
		},
	}
	return cmd
}

func schemaRun(opts *SchemaOptions) error {
	s, ok := schemas[opts.Name]
	if !ok {
		return usageError("unknown schema %q: want %s", opts.Name, strings.Join(schemaNames(), " or "))
	}
	_, err := opts.IO.Out.Write(s.schema)
	return err
}
