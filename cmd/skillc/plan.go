package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/skillc/skillc/catalog"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/graph/render/drawcmd"
	"github.com/skillc/skillc/lint"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/tools"
)

// PlanOptions are the flags every `skillc plan` command shares: which store,
// and whose plan.
type PlanOptions struct {
	IO *IOStreams

	Store   string
	User    string
	Session string
	TTL     time.Duration
	JSON    bool

	// Now is the clock; nil means time.Now. Tests set it.
	Now func() time.Time
	Ctx context.Context
}

// PlanMakeOptions are the flags of `skillc plan make`.
type PlanMakeOptions struct {
	*PlanOptions
	Skill     string
	SkillDirs []string
	// ConfigPath is --config; empty means .skillc.yaml found upward.
	ConfigPath string
	Title      string
	Objective  string
	StepsFile  string
}

// PlanViewOptions are the flags of `skillc plan view`.
type PlanViewOptions struct {
	*PlanOptions
	// Format is --format: text (the checklist), json, or a picture.
	Format string
	// Output is -o: write to this file instead of stdout.
	Output string
	// Scale is --scale: a PNG's size, times Graphviz's own (96 dpi).
	Scale float64
	// OutIsTerminal reports whether IO.Out is a terminal, where an SVG or
	// PNG would be noise; tests replace it.
	OutIsTerminal func() bool
}

var planViewFormats = []string{"text", "json", "dot", "mermaid", "svg", "png"}

// PlanUpdateOptions are the flags of `skillc plan update`.
type PlanUpdateOptions struct {
	*PlanOptions
	Changes plan.Changes
}

// PlanCloseOptions are the flags of `skillc plan close`.
type PlanCloseOptions struct {
	*PlanOptions
	Note    string
	Status  string
	Changes plan.Changes
}

// PlanRunFuncs replace the run functions of the plan commands in tests;
// a nil field runs the real one.
type PlanRunFuncs struct {
	Make    func(*PlanMakeOptions) error
	View    func(*PlanViewOptions) error
	Update  func(*PlanUpdateOptions) error
	Close   func(*PlanCloseOptions) error
	History func(*PlanHistoryOptions) error
}

// NewCmdPlan builds `skillc plan` and its four commands.
func NewCmdPlan(io *IOStreams, runF *PlanRunFuncs) *cobra.Command {
	if runF == nil {
		runF = &PlanRunFuncs{}
	}
	opts := &PlanOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Make, view, update and close the session's plan on the local store, and show its history",
		Long: `The four plan tools of the MCP server, from a shell: a plan belongs to one
user and one session (a conversation), lives in a store (SQLite by default)
and expires a day after its last change.

The user is --user, else $SKILLC_USER, else the login name. The session is
--session, else $SKILLC_SESSION; one of them is required.

Each command prints the plan as a checklist (--json: the plan as JSON). A
refused change (an unknown step, a closed plan, a loop) exits 1 with the
reason on stderr and changes nothing.`,
		Example: `  export SKILLC_SESSION=ticket-4711
  skillc plan make --skill acat-reimbursement
  skillc plan update --fail 1
  skillc plan update --check 2
  skillc plan close --check 3 --note "one record: credited on 3 May"
  skillc plan view`,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&opts.Store, "store", "", storeSpecHelp())
	pf.StringVar(&opts.User, "user", "", "user the plan belongs to (default $SKILLC_USER, else the login name)")
	pf.StringVar(&opts.Session, "session", "", "session (conversation) the plan belongs to (default $SKILLC_SESSION)")
	pf.DurationVar(&opts.TTL, "ttl", store.DefaultTTL, "how long a plan lives after its last change")
	pf.BoolVar(&opts.JSON, "json", false, "print the plan as JSON instead of a checklist")

	resolve := func(c *cobra.Command) error {
		opts.Ctx = c.Context()
		return opts.resolve()
	}

	mk := &PlanMakeOptions{PlanOptions: opts}
	makeCmd := &cobra.Command{
		Use:   "make (--skill NAME|FILE | --steps FILE.json [--title TEXT]) [--objective TEXT]",
		Short: "Start the session's plan from a workflow skill or a list of steps",
		Long: `Start the session's plan. An active plan already there is closed as
cancelled ("superseded") and replaced.

--skill names a workflow skill: a shipped one (skillc ships acat-reimbursement),
one found under a --skills folder (by its name, as skillc serve offers it; it
wins over a shipped one), or a markdown file or skill folder. It is compiled
and judged as skillc lint judges it, with the same config; a skill with
errors is refused.

--steps reads JSON ("-" for stdin): an array of steps, or an object with
"title", "objective" and "steps" (a template from skillc compile works
too). Each step has "goal" and optionally "id", "recommended_tools",
"next_on_success" and "next_on_failure"; a missing id is the step's
position, a missing success edge the next step (after the last: end), a
missing failure edge fail.`,
		Example: `  skillc plan make --skill acat-reimbursement
  skillc plan make --skill ./skills/refund/SKILL.md
  skillc plan make --title "Refund a duplicate charge" --steps steps.json
  echo '[{"goal":"Find both charges."},{"goal":"Refund the later one."}]' |
    skillc plan make --title "Refund" --steps -`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := resolve(c); err != nil {
				return err
			}
			if (mk.Skill == "") == (mk.StepsFile == "") {
				return usageError("give either --skill NAME|FILE or --steps FILE.json")
			}
			if runF.Make != nil {
				return runF.Make(mk)
			}
			return planMakeRun(mk)
		},
	}
	makeCmd.Flags().StringVar(&mk.Skill, "skill", "", "workflow skill to seed the plan from: a `NAME` or a markdown FILE")
	makeCmd.Flags().StringArrayVar(&mk.SkillDirs, "skills", nil, "folder walked for skills (<dir>/<name>/SKILL.md) that override the shipped ones (repeatable)")
	makeCmd.Flags().StringVarP(&mk.ConfigPath, "config", "c", "", "lint config `FILE` the skill is judged by (default: .skillc.yaml found upward from the working folder)")
	makeCmd.Flags().StringVar(&mk.Title, "title", "", "the plan's title (with --skill: instead of the skill's)")
	makeCmd.Flags().StringVar(&mk.Objective, "objective", "", "one line on what the plan is for, shown under the title (at most 500 characters)")
	makeCmd.Flags().StringVar(&mk.StepsFile, "steps", "", "JSON `FILE` of steps, or - for stdin")
	_ = makeCmd.RegisterFlagCompletionFunc("skill", completeSkill)
	_ = makeCmd.MarkFlagDirname("skills")

	view := &PlanViewOptions{PlanOptions: opts, OutIsTerminal: func() bool { return isTerminal(io.Out) }}
	viewCmd := &cobra.Command{
		Use:   "view [--format text|json|dot|mermaid|svg|png] [--scale N] [-o FILE]",
		Short: "Show the session's latest plan, active or closed, as a checklist or a picture",
		Long: `Show the session's latest plan: the checklist (--format text, the default),
the plan as JSON (--format json, the same as --json), or its step graph as a
picture (dot, mermaid, svg, png), drawn as ` + "`skillc graph`" + ` draws a skill, with
the run over it: each step's status in its colours and on a line of its own
("[x] done", "[!] failed", "[-] skipped", "[>] in progress", "[>] waiting",
with the round of a loop), the steps in progress with a thick border, the
path taken from the entry along the recorded outcomes in bold, and the
plan's status and position under the title.

SVG and PNG are drawn by skillc-draw, as for ` + "`skillc graph`" + ` (a PNG at
--scale, 2 by default, times the size of dot -Tpng), and go to stdout
only when it is not a terminal, else name a file with -o. -o writes the file
atomically: it is complete or untouched.`,
		Example: `  skillc plan view
  skillc plan view --json | jq .status
  skillc plan view --format mermaid
  skillc plan view --format svg -o plan.svg`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := resolve(c); err != nil {
				return err
			}
			if err := checkScaleFlag(c, view.Scale); err != nil {
				return err
			}
			if err := view.check(); err != nil {
				return err
			}
			if runF.View != nil {
				return runF.View(view)
			}
			return planViewRun(view)
		},
	}

	viewCmd.Flags().StringVarP(&view.Format, "format", "f", "text", "output format: "+strings.Join(planViewFormats, ", "))
	viewCmd.Flags().StringVarP(&view.Output, "output", "o", "", "write to `FILE` instead of stdout")
	addScaleFlag(viewCmd, &view.Scale)
	_ = viewCmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(planViewFormats, cobra.ShellCompDirectiveNoFileComp))

	up := &PlanUpdateOptions{PlanOptions: opts}
	updateCmd := &cobra.Command{
		Use:   "update [--check IDS] [--fail IDS] [--skip IDS] [--uncheck IDS]",
		Short: "Record what happened to one or more steps",
		Long: `Record step outcomes: --check a step that succeeded, --fail one that failed,
--skip one that does not apply, --uncheck one to do again. IDS are
comma-separated and the flags repeat. The plan then moves along each step's
success (check, skip) or failure (fail) edge. All or nothing: an unknown step,
a step named twice or a closed plan changes nothing.`,
		Example: `  skillc plan update --fail 1
  skillc plan update --check 2,3 --skip 4`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := resolve(c); err != nil {
				return err
			}
			if up.Changes.Empty() {
				return usageError("name steps with --check, --fail, --skip or --uncheck")
			}
			if runF.Update != nil {
				return runF.Update(up)
			}
			return planUpdateRun(up)
		},
	}
	addChangeFlags(updateCmd, &up.Changes)

	cl := &PlanCloseOptions{PlanOptions: opts}
	closeCmd := &cobra.Command{
		Use:   "close --note TEXT [--status completed|failed|cancelled] [--check IDS] ...",
		Short: "Record the last outcomes and close the plan with a note",
		Long: `Apply --check, --fail, --skip and --uncheck exactly as update does, then close
the plan in the same write. Without --status the status follows the path:
completed if it reached end, failed if it reached fail, else cancelled.`,
		Example: `  skillc plan close --check 3 --note "one record: credited on 3 May"
  skillc plan close --status cancelled --note "the user withdrew the request"`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := resolve(c); err != nil {
				return err
			}
			if strings.TrimSpace(cl.Note) == "" {
				return usageError("--note is required: one line on how the task ended")
			}
			switch plan.Status(cl.Status) {
			case "", plan.StatusCompleted, plan.StatusFailed, plan.StatusCancelled:
			default:
				return usageError("--status %q: use completed, failed or cancelled, or leave it out to derive it from the path", cl.Status)
			}
			if runF.Close != nil {
				return runF.Close(cl)
			}
			return planCloseRun(cl)
		},
	}
	closeCmd.Flags().StringVar(&cl.Note, "note", "", "one line for the user on how the task ended (required)")
	closeCmd.Flags().StringVar(&cl.Status, "status", "", "completed, failed or cancelled (default: derived from the path)")
	addChangeFlags(closeCmd, &cl.Changes)

	cmd.AddCommand(makeCmd, viewCmd, updateCmd, closeCmd, newCmdPlanHistory(opts, runF.History, resolve))
	return cmd
}

func addChangeFlags(cmd *cobra.Command, ch *plan.Changes) {
	f := cmd.Flags()
	f.StringSliceVar(&ch.Check, "check", nil, "step `IDS` that succeeded")
	f.StringSliceVar(&ch.Fail, "fail", nil, "step `IDS` that failed")
	f.StringSliceVar(&ch.Skip, "skip", nil, "step `IDS` that do not apply")
	f.StringSliceVar(&ch.Uncheck, "uncheck", nil, "step `IDS` to set back to pending")
}

// resolve fills the user and session from the environment.
func (o *PlanOptions) resolve() error {
	if o.Ctx == nil {
		o.Ctx = context.Background()
	}
	if o.User == "" {
		o.User = os.Getenv("SKILLC_USER")
	}
	if o.User == "" {
		if u, err := user.Current(); err == nil {
			o.User = u.Username
		}
	}
	if o.User == "" {
		return usageError("no user: pass --user or set SKILLC_USER")
	}
	if o.Session == "" {
		o.Session = os.Getenv("SKILLC_SESSION")
	}
	if o.Session == "" {
		return usageError("no session: pass --session or set SKILLC_SESSION (one per conversation)")
	}
	if o.TTL <= 0 {
		return usageError("--ttl must be positive, e.g. 24h")
	}
	return nil
}

func (o *PlanOptions) key() store.Key { return store.Key{User: o.User, Session: o.Session} }

// planner opens the store; the caller closes it.
func (o *PlanOptions) planner() (*tools.Planner, func(), error) {
	s, err := openStore(o.Ctx, o.Store, store.Options{TTL: o.TTL, Now: o.Now})
	if err != nil {
		// The store given cannot be used: like input that cannot be read.
		return nil, nil, &exitError{code: exitUsage, err: err}
	}
	return &tools.Planner{Store: s, Now: o.Now, Words: cliWords}, func() { s.Close() }, nil
}

// cliWords name the commands and flags in refusals and guidance: a person
// at a shell runs `skillc plan update`, not the MCP tool update_plan.
var cliWords = plan.Words{
	Make: "skillc plan make", View: "skillc plan view", Update: "skillc plan update", Close: "skillc plan close",
	Check: "--check", Uncheck: "--uncheck", Fail: "--fail", Skip: "--skip", Note: "--note",
	Call: "run",
}

// print writes a tool's result: the checklist, or the plan as JSON with
// any notice on stderr so stdout stays one JSON value.
func (o *PlanOptions) print(r *tools.Result) error {
	if o.JSON {
		if r.Notice != "" {
			fmt.Fprintln(o.IO.ErrOut, r.Notice)
		}
		b, err := json.MarshalIndent(r.Plan, "", "  ")
		if err != nil {
			return err
		}
		_, err = o.IO.Out.Write(append(b, '\n'))
		return err
	}
	_, err := io.WriteString(o.IO.Out, r.Text())
	return err
}

// planError turns a refused operation into exit 1 with its message.
func planError(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	// A refusal names the commands and flags, not the MCP tools.
	return &exitError{code: exitFindings, err: errors.New(plan.Message(err, cliWords))}
}

func planMakeRun(opts *PlanMakeOptions) error {
	in := plan.MakeInput{Title: opts.Title, Objective: opts.Objective}
	if opts.Skill != "" {
		tpl, err := planSkillTemplate(opts)
		if err != nil {
			return err
		}
		in.Template = tpl
	} else {
		var err error
		if in, err = planReadSteps(opts.StepsFile, opts.IO.In); err != nil {
			return err
		}
		if opts.Title != "" {
			in.Title = opts.Title
		}
		if opts.Objective != "" {
			in.Objective = opts.Objective
		}
	}
	pl, done, err := opts.planner()
	if err != nil {
		return err
	}
	defer done()
	r, err := pl.Make(opts.Ctx, opts.key(), in)
	if err != nil {
		return planError(err)
	}
	// No process of the CLI lives long enough to run a sweeper, so making
	// a plan clears the expired ones. It is one indexed DELETE; a failure
	// only leaves rows that are never read anyway.
	_, _ = pl.Store.Sweep(opts.Ctx)
	return opts.print(r)
}

// check refuses an unknown format, --json with a picture, and a picture
// to a terminal.
func (o *PlanViewOptions) check() error {
	switch o.Format {
	case "text", "json", "dot", "mermaid":
	case "svg", "png":
		if o.Output == "" && o.OutIsTerminal != nil && o.OutIsTerminal() {
			return usageError("will not write %s to a terminal: name a file with -o, or redirect stdout", o.Format)
		}
	default:
		return usageError("unknown format %q: want %s", o.Format, strings.Join(planViewFormats, ", "))
	}
	if o.Scale == 0 {
		o.Scale = drawcmd.DefaultScale
	}
	if err := checkScale(o.Scale); err != nil {
		return err
	}
	if o.JSON && o.Format != "text" && o.Format != "json" {
		return usageError("--json and --format %s: give one of them", o.Format)
	}
	return nil
}

func planViewRun(opts *PlanViewOptions) error {
	pl, done, err := opts.planner()
	if err != nil {
		return err
	}
	defer done()
	r, err := pl.View(opts.Ctx, opts.key())
	if err != nil {
		return planError(err)
	}
	var out []byte
	switch opts.Format {
	case "", "text", "json":
		if opts.Output == "" {
			if opts.Format == "json" {
				opts.JSON = true
			}
			return opts.print(r)
		}
		var b bytes.Buffer
		o := *opts.PlanOptions
		o.IO = &IOStreams{In: opts.IO.In, Out: &b, ErrOut: opts.IO.ErrOut}
		o.JSON = o.JSON || opts.Format == "json"
		if err := o.print(r); err != nil {
			return err
		}
		out = b.Bytes()
	case "mermaid":
		if out, err = plan.Mermaid(r.Plan); err != nil {
			return planError(err)
		}
	default: // dot, svg, png
		if out, err = plan.DOT(r.Plan); err != nil {
			return planError(err)
		}
		if opts.Format != "dot" {
			if out, err = drawcmd.DrawScaled(opts.Ctx, out, opts.Format, opts.Scale); err != nil {
				return usageError("cannot draw the plan as %s: %v", opts.Format, err)
			}
		}
	}
	return writeOutput(opts.IO, opts.Output, out)
}

func planUpdateRun(opts *PlanUpdateOptions) error {
	pl, done, err := opts.planner()
	if err != nil {
		return err
	}
	defer done()
	r, err := pl.Update(opts.Ctx, opts.key(), opts.Changes)
	if err != nil {
		return planError(err)
	}
	return opts.print(r)
}

func planCloseRun(opts *PlanCloseOptions) error {
	pl, done, err := opts.planner()
	if err != nil {
		return err
	}
	defer done()
	r, err := pl.Close(opts.Ctx, opts.key(), opts.Note, plan.Status(opts.Status), opts.Changes)
	if err != nil {
		return planError(err)
	}
	return opts.print(r)
}

// planSkillTemplate loads the skill --skill names through the catalog,
// as compile and serve load it (same file policy, same config), and
// returns its template. A skill with errors is refused with them on stderr.
func planSkillTemplate(opts *PlanMakeOptions) (*graph.Template, error) {
	cfg, err := loadConfig(opts.IO, opts.ConfigPath, ".")
	if err != nil {
		return nil, err
	}
	lopts := lint.Options{Config: cfg}
	var sk *catalog.Skill
	if planLooksLikeFile(opts.Skill) {
		if sk, err = catalog.Load(opts.Skill, lopts); err != nil {
			return nil, usageError("%v", err)
		}
	} else {
		set, err := catalog.LoadSet(opts.SkillDirs, lopts)
		if err != nil {
			return nil, usageError("%v", err)
		}
		var ok bool
		if sk, ok = set.Lookup(opts.Skill); !ok {
			return nil, usageError("no skill named %q (the skills are: %s; add folders with --skills DIR)", opts.Skill, strings.Join(set.Names(), ", "))
		}
	}
	errs := sk.Errors()
	if len(errs) == 0 {
		return sk.Template(), nil
	}
	_ = writeFindings(opts.IO, sk.Skill, errs)
	return nil, &exitError{code: exitFindings, err: fmt.Errorf("skill %q has %d error(s): fix them (skillc lint) before making a plan from it", sk.Name, len(errs))}
}

// planLooksLikeFile tells a path from a skill name: names have no
// separator and no extension.
func planLooksLikeFile(arg string) bool {
	return strings.ContainsAny(arg, `/\`) || strings.HasSuffix(strings.ToLower(arg), ".md") || filepath.Ext(arg) != ""
}

// planStepsFile is the JSON --steps reads: an array of steps, or an object
// with a title and steps: a template, graph's one shape, so `skillc
// compile` output can be fed back. Unknown fields are
// refused: a misspelt edge would otherwise silently take its default.
type planStepsFile = graph.Template

// planReadSteps reads --steps (a file, or "-" for stdin).
func planReadSteps(name string, stdin io.Reader) (plan.MakeInput, error) {
	var (
		data []byte
		err  error
	)
	const limit = 4 << 20 // far above what 100 steps can hold
	if name == "-" {
		name = "<stdin>"
		data, err = io.ReadAll(io.LimitReader(stdin, limit+1))
	} else {
		var f *os.File
		if f, err = os.Open(name); err == nil {
			data, err = io.ReadAll(io.LimitReader(f, limit+1))
			f.Close()
		}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the message names the file once
		}
		return plan.MakeInput{}, usageError("cannot read the steps file %q: %v", name, err)
	}
	if len(data) > limit {
		return plan.MakeInput{}, usageError("%s: more than %d bytes of steps", name, limit)
	}
	var file planStepsFile
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case len(trimmed) == 0:
		err = errors.New("no JSON in the file")
	case trimmed[0] == '[':
		err = planDecode(data, &file.Steps)
	default:
		err = planDecode(data, &file)
	}
	if err != nil {
		return plan.MakeInput{}, usageError("%s:%s", name, planJSONError(data, err))
	}
	in := plan.MakeInput{Title: file.Title, Objective: file.Objective, Steps: file.Steps}
	if file.Entry != "" && len(file.Steps) > 0 && file.Entry != in.Steps[0].ID {
		return plan.MakeInput{}, usageError("%s: entry %q is not the first step; a plan starts at its first step", name, file.Entry)
	}
	return in, nil
}

func planDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return &json.SyntaxError{Offset: dec.InputOffset()}
	}
	return nil
}

// planJSONError says where in data the JSON error err is, as line:col, and
// what is wrong in the terms of the file, not of Go's types: every error of
// encoding/json has a place, even those that do not carry an offset.
func planJSONError(data []byte, err error) string {
	off := int64(-1)
	msg := strings.TrimPrefix(err.Error(), "json: ")
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
		if strings.HasPrefix(msg, "invalid character") && off > 0 {
			off-- // the offset is after the character: point at it
		}
		if se.Error() == "" {
			msg = "more data after the JSON value"
		}
	case errors.As(err, &te):
		off = te.Offset
		what := "the file"
		if te.Field != "" {
			what = fmt.Sprintf("field %q", te.Field)
		}
		msg = fmt.Sprintf("%s is %s; want %s", what, planJSONKind(te.Value), planJSONType(te.Type))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		off = int64(len(data))
		msg = "the JSON ends early: an array, object or string is not closed"
	case strings.HasPrefix(msg, "unknown field "):
		// The decoder names the field but not where it is: the first
		// place the quoted name is used as a key.
		key := strings.TrimPrefix(msg, "unknown field ")
		if i := planKeyOffset(data, key); i >= 0 {
			off = int64(i)
		}
		if planInStep(data, off) {
			msg = fmt.Sprintf("unknown field %s in a step; want one of %s", key, planFields(reflect.TypeFor[graph.Step]()))
		} else {
			msg = fmt.Sprintf("unknown field %s; want one of %s", key, planFields(reflect.TypeFor[graph.Template]()))
		}
	default:
		if len(bytes.TrimLeft(data, " \t\r\n\ufeff")) == 0 {
			off = 0
		}
	}
	if !strings.Contains(msg, "want") {
		msg += `; want an array of steps, or an object with "title" and "steps", each step an object with at least "goal"`
	}
	if off < 0 {
		return " " + msg
	}
	off = min(off, int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := utf8.RuneCount(data[bytes.LastIndexByte(data[:off], '\n')+1:off]) + 1
	return fmt.Sprintf("%d:%d: %s", line, col, msg)
}

// planKeyOffset is the offset of the first "key": in data, or -1.
func planKeyOffset(data []byte, quoted string) int {
	for from := 0; ; {
		i := bytes.Index(data[from:], []byte(quoted))
		if i < 0 {
			return -1
		}
		i += from
		rest := bytes.TrimLeft(data[i+len(quoted):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return i
		}
		from = i + 1
	}
}

// planInStep reports whether offset off of data lies inside a step: in an
// object within the top-level array, or nested two objects deep.
func planInStep(data []byte, off int64) bool {
	if off < 0 {
		return false
	}
	depth, inString, escaped, array := 0, false, false, false
	for i, b := range data[:off] {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if b == '\\' {
				escaped = true
			} else if b == '"' {
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{':
			depth++
		case b == '}':
			depth--
		case b == '[' && depth == 0 && len(bytes.TrimSpace(bytes.TrimPrefix(data[:i], []byte("\ufeff")))) == 0:
			array = true
		}
	}
	return depth >= 2 || array && depth >= 1
}

// planFields lists the JSON fields of t, for an unknown field.
func planFields(t reflect.Type) string {
	var names []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, strconv.Quote(name))
		}
	}
	return strings.Join(names, ", ")
}

// planJSONKind names what a JSON value of encoding/json's kind is.
func planJSONKind(v string) string {
	switch v {
	case "object", "array":
		return "an " + v
	case "number", "string":
		return "a " + v
	case "bool":
		return "true or false"
	}
	return v
}

// planJSONType names what the file must hold where a Go value of type t is
// decoded.
func planJSONType(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[graph.Template]():
		return `an array of steps or an object with "title" and "steps"`
	case t == reflect.TypeFor[graph.Step]():
		return `a step: an object such as {"goal": "List the transfers"}`
	case t.Kind() == reflect.Slice && t.Elem() == reflect.TypeFor[graph.Step]():
		return "an array of steps"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return "an array of strings"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Float64:
		return "a number"
	case t.Kind() == reflect.Bool:
		return "true or false"
	}
	return "another kind of value"
}
