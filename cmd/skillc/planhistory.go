package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/internal/termsafe"
	"github.com/skillc/skillc/plan"
)

// PlanHistoryOptions are the flags of `skillc plan history`.
type PlanHistoryOptions struct {
	*PlanOptions
}

func newCmdPlanHistory(opts *PlanOptions, runF func(*PlanHistoryOptions) error, resolve func(*cobra.Command) error) *cobra.Command {
	h := &PlanHistoryOptions{PlanOptions: opts}
	return &cobra.Command{
		Use:   "history",
		Short: "Show how the session's plan changed, one line per change",
		Long: `Print the plan's history: every change, oldest first, with its version, its
time, the command (make, update, close), the steps it named and what it
left: the position (the in-progress steps) or how the plan closed. A step
recorded off the position is marked. The history lives and expires with
the plan; a plan keeps its last 1000 changes.

--json prints the events as a JSON array.`,
		Example: `  skillc plan history
  skillc plan history --json | jq '.[] | {version, tool, position}'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := resolve(c); err != nil {
				return err
			}
			if runF != nil {
				return runF(h)
			}
			return planHistoryRun(h)
		},
	}
}

func planHistoryRun(opts *PlanHistoryOptions) error {
	pl, done, err := opts.planner()
	if err != nil {
		return err
	}
	defer done()
	r, err := pl.History(opts.Ctx, opts.key())
	if err != nil {
		return planError(err)
	}
	if opts.JSON {
		b, err := json.MarshalIndent(r.History, "", "  ")
		if err != nil {
			return err
		}
		_, err = opts.IO.Out.Write(append(b, '\n'))
		return err
	}
	return writeHistory(opts.IO.Out, r.Plan, r.History)
}

// writeHistory prints the plan's header line and one line per event:
//
//	ACAT reimbursement · completed · 2/4 done
//	v1  2026-03-04T05:06:07Z  make    position 1
//	v2  2026-03-04T05:07:07Z  update  --fail 1; position 2
//	v5  2026-03-04T05:10:07Z  close   --check 3; completed: one record
func writeHistory(w io.Writer, p *plan.Plan, events []plan.Event) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s · %d/%d done\n", p.Title, p.Status, p.Done(), len(p.Steps))
	if len(events) > 0 && events[0].Tool != plan.ToolMake {
		fmt.Fprintf(&b, "(earlier changes dropped: a plan keeps its last %d)\n", plan.MaxEvents)
	}
	if len(events) == 0 {
		b.WriteString("no changes recorded\n")
	}
	for _, ev := range events {
		fmt.Fprintf(&b, "v%d  %s  %-6s  ", ev.Version, ev.At.UTC().Format("2006-01-02T15:04:05Z"), historyVerb(ev.Tool))
		var parts []string
		for _, l := range []struct {
			flag string
			ids  []string
		}{{"--check", ev.Check}, {"--uncheck", ev.Uncheck}, {"--fail", ev.Fail}, {"--skip", ev.Skip}} {
			if len(l.ids) > 0 {
				parts = append(parts, l.flag+" "+strings.Join(l.ids, ","))
			}
		}
		if len(ev.OffPosition) > 0 {
			parts = append(parts, "off the position: "+strings.Join(ev.OffPosition, ","))
		}
		switch {
		case ev.Status != plan.StatusActive && ev.Note != "":
			parts = append(parts, fmt.Sprintf("%s: %s", ev.Status, ev.Note))
		case ev.Status != plan.StatusActive:
			parts = append(parts, string(ev.Status))
		case len(ev.Position) == 0:
			parts = append(parts, "no step in progress")
		default:
			parts = append(parts, "position "+strings.Join(ev.Position, ","))
		}
		b.WriteString(strings.Join(parts, "; "))
		b.WriteByte('\n')
	}
	// IDs and notes come from a model: escaped like the checklist.
	_, err := io.WriteString(w, termsafe.Escape(b.String()))
	return err
}

// historyVerb names an event's tool as the CLI's command does.
func historyVerb(tool string) string {
	return strings.TrimSuffix(tool, "_plan")
}
