// Package catalog finds and loads workflow skills, for every command that
// reads one: the paths of `skillc lint`, the FILE or folder of `compile`,
// `graph` and `plan make --skill`, the --skills folders of `serve` and
// `plan make --skill NAME`, and the skills shipped in the binary.
//
// It is the one place that touches the file system for a skill, so every
// command applies one policy: only regular files are read (a FIFO or a
// device is reported, never opened for reading), symlinks that resolve
// outside the folder being read are refused, every read is bounded by the
// size limit, and the same lint config judges every skill.
package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/graph"
	"github.com/skillc/skillc/lint"
)

// Skill is one workflow skill, read and judged as `skillc lint` judges it.
type Skill struct {
	// Name is the skill's name: the frontmatter name, else its folder's.
	Name string
	// File is the path it was read from, or "skills/<name>/SKILL.md" for a
	// shipped one.
	File string
	// Skill is the compiled skill, never nil. Its Source is the bytes read
	// (nil for a file over the size limit).
	Skill *compiler.Skill
	// Diags are every finding as configured: what lint prints for it.
	Diags compiler.Diagnostics
	// Invalid are the compiler's and the graph's errors as they found
	// them, whatever the config says: a skill with any is no valid
	// template, and a config that turns a rule off or down cannot make it
	// one. Lint, which only reports findings, leaves it empty (judge).
	Invalid compiler.Diagnostics

	// loopRounds is the config's limits.loop-rounds: the bound Template
	// gives a loop the skill leaves unbounded (0: the default).
	loopRounds int
}

// Errors says why s can make no template and seed no plan: its errors as
// configured, the errors no config can turn down, and a missing procedure.
// It is empty when s can.
func (s *Skill) Errors() compiler.Diagnostics {
	var out compiler.Diagnostics
	seen := map[compiler.Key]bool{}
	for _, list := range []compiler.Diagnostics{s.Diags, s.Invalid} {
		for _, d := range list {
			key := d.Key()
			key.Severity = compiler.SeverityError
			if d.Severity == compiler.SeverityError && !seen[key] {
				seen[key] = true
				out = append(out, d)
			}
		}
	}
	if len(out) == 0 && len(s.Skill.Steps) == 0 {
		// An instruction-style skill lints with a warning, but there is
		// nothing in it to seed a plan with.
		out = append(out, compiler.Diagnostic{
			Severity: compiler.SeverityError, Rule: "no-steps",
			Summary: fmt.Sprintf("skill %q has no numbered steps to seed a plan with", s.Name),
			Detail:  `write the steps as a numbered list or as "## Step 1: ..." headings`,
			File:    s.File,
			Range:   compiler.Range{Start: compiler.Pos{Line: 1, Column: 1}, End: compiler.Pos{Line: 1, Column: 1}},
		})
	}
	out.Sort()
	return out
}

// Template is the plan template of s, or nil when Errors says it has none.
// A loop without a bound has the default one written in (FORMAT 6.5, the
// config's limits.loop-rounds), as lint's unbounded-loop says: so what
// skillc compile prints is what make_plan accepts, as steps too, and every
// command runs the loop the same number of rounds.
func (s *Skill) Template() *graph.Template {
	if len(s.Errors()) > 0 {
		return nil
	}
	t := s.Skill.Template()
	graph.BoundLoops(t, s.loopRounds)
	return t
}

// judge compiles src and completes its findings with lint's checks under
// opts. The compiler promises never to panic; should it break that promise
// on one skill, the finding says so and every other skill is still judged.
//
// A skill judged only to report its findings (report) is compiled without
// its steps' details and judged without Invalid, which nothing then reads:
// lint.Errors' second pass of the graph and spec rules.
func judge(file string, src []byte, opts lint.Options, report bool) (out *Skill) {
	out = &Skill{File: file}
	defer func() {
		if r := recover(); r != nil {
			d := compiler.Diagnostic{
				Severity: compiler.SeverityError, Rule: "internal-error",
				Summary: fmt.Sprintf("the compiler failed on this skill: %v; please report it", r),
				File:    file,
				Range:   compiler.Range{Start: compiler.Pos{Line: 1, Column: 1}, End: compiler.Pos{Line: 1, Column: 1}},
			}
			out.Skill = &compiler.Skill{Filename: file, Name: out.Name, Source: src}
			out.Diags, out.Invalid = compiler.Diagnostics{d}, compiler.Diagnostics{d}
		}
	}()
	out.Name = folderOf(file)
	if opts.Config != nil {
		out.loopRounds = opts.Config.Limits.LoopRounds
	}
	copts := opts.CompilerOptions()
	copts.NoDetails = report
	sk, compiled := compiler.Compile(file, src, copts)
	out.Skill = sk
	if sk.Name != "" {
		out.Name = sk.Name
	}
	if report {
		out.Diags = lint.Check(sk, compiled, opts)
		return out
	}
	out.Diags, out.Invalid = lint.Judge(sk, compiled, opts)
	return out
}

func folderOf(file string) string {
	dir := filepath.Base(filepath.Dir(file))
	if dir == "." || dir == string(filepath.Separator) {
		return ""
	}
	return dir
}

// Load reads and judges the one skill arg names: a file, or a folder
// holding a SKILL.md (else a skill.md). Its symlink must stay inside that
// folder (for a file: the file's folder). The error, already phrased for a
// person, is for a skill that could not be read at all.
func Load(arg string, opts lint.Options) (*Skill, error) {
	// A loaded skill is judged, not fixed: its findings carry no fixes.
	opts.NoFixes = true
	path, root := arg, filepath.Dir(arg)
	st, err := os.Stat(arg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(arg); lerr != nil {
			return nil, notExist(arg)
		}
		// A dangling symlink: readSkill says where it points.
	case err != nil:
		return nil, fmt.Errorf("cannot read %q: %v", arg, unwrapPath(err))
	case st.IsDir():
		p, ok := skillFileIn(arg)
		if !ok {
			return nil, noSkillIn(arg)
		}
		path, root = p, arg
	}
	src, err := readSkill(path, root, false, maxSize(opts))
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %v", path, unwrapPath(err))
	}
	return judge(path, src, opts, false), nil
}

// noSkillIn is the error for a folder given as one skill that holds no
// skill file. When its subfolders hold skills (a folder of skills, given
// where one is wanted), it names a few of them instead of the general hint.
func noSkillIn(dir string) error {
	var some []string
	more := false
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if !e.IsDir() || skippedDirs[e.Name()] {
				continue
			}
			if _, ok := skillFileIn(filepath.Join(dir, e.Name())); ok {
				if len(some) == 3 {
					more = true
					break
				}
				some = append(some, strconv.Quote(filepath.Join(dir, e.Name())))
			}
		}
	}
	if len(some) > 0 {
		list := strings.Join(some, ", ")
		if more {
			list += ", ..."
		}
		return fmt.Errorf("no skill in %q, but its folders hold skills: name one of them, such as %s", dir, list)
	}
	return fmt.Errorf("no skill in %q: %s", dir, noSkillHint)
}

// maxSize is the read bound: opts.MaxSize, with the compiler's meaning of
// 0 (its default) and of a negative value (no limit).
func maxSize(opts lint.Options) int64 {
	if opts.MaxSize == 0 {
		return compiler.DefaultMaxSize
	}
	return opts.MaxSize
}

// Lint is LintEach with the reports gathered, in the same order.
func Lint(paths []string, opts lint.Options) *lint.Result {
	res := &lint.Result{}
	LintEach(paths, opts, func(f *lint.File) { res.Files = append(res.Files, f) })
	return res
}

// LintEach finds the skills under paths (as walk meets them) and lints
// each, in parallel, bounded by opts.Workers, handing each file's report
// to report as soon as it and every report before it are done. So report
// runs one call at a time, in the order walk meets the files (the same on
// every run, whichever worker finishes first), and a long run shows its
// first findings at once instead of at its end. A path that cannot be
// read, and a folder that holds no skill, is a report of its own in its
// place, an unreadable finding; the run goes on.
func LintEach(paths []string, opts lint.Options, report func(*lint.File)) {
	var mu sync.Mutex
	// waiting holds the reports done before one ahead of them: a few per
	// worker, as the walk and the workers keep close to the order.
	waiting := map[int]*lint.File{}
	next := 0
	put := func(i int, f *lint.File) {
		mu.Lock()
		defer mu.Unlock()
		waiting[i] = f
		for f, ok := waiting[next]; ok; f, ok = waiting[next] {
			delete(waiting, next)
			next++
			report(f)
		}
	}
	problem := func(d compiler.Diagnostic) *lint.File {
		return &lint.File{Path: d.File, Diags: compiler.Diagnostics{d}, Unreadable: true}
	}
	// The walk hands each file to the workers as it meets it: waiting
	// for the whole walk first kept all but one processor idle while it
	// ran (catalog.find was 3.4% of lint's CPU on 2,000 skills, all of it
	// before the first file was read).
	loadEach(func(emit func(int, file)) {
		n := 0
		walk(paths, opts.Config, walker{
			file:    func(f file) { emit(n, f); n++ },
			problem: func(d compiler.Diagnostic) { put(n, problem(d)); n++ },
			empty:   func(e emptyDir) { put(n, problem(noSkill(e))); n++ },
		})
	}, opts, true, func(i int, sk *Skill, bad *compiler.Diagnostic) {
		// Each file is cut down to what the report needs as soon as it
		// is judged: keeping every compiled skill until the end would
		// hold a large run's whole IR in memory (2.5x the peak RSS on
		// 2,000 skills).
		if bad != nil {
			put(i, problem(*bad))
			return
		}
		put(i, &lint.File{Path: sk.File, Source: sk.Skill.Source, Diags: sk.Diags})
	})
}

// loadEach reads and judges (to report: see judge) the files that each
// hands to its emit, with an index of each's choosing, in parallel with
// each and with one another, bounded by opts.Workers (0: one per CPU),
// and hands each to done with its index: its skill, or why it could not
// be read. done runs on the workers, for distinct i; loadEach returns once
// each has returned and every file is done.
func loadEach(each func(emit func(int, file)), opts lint.Options, report bool, done func(i int, sk *Skill, problem *compiler.Diagnostic)) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	type job struct {
		i int
		f file
	}
	// Room for a few files a worker, so that the walk can run ahead of
	// workers that are all busy without waiting on each hand-off.
	jobs := make(chan job, 4*workers)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for j := range jobs {
				src, err := readSkill(j.f.path, j.f.root, j.f.regular, maxSize(opts))
				if err != nil {
					d := unreadable(j.f.path, err)
					done(j.i, nil, &d)
					continue
				}
				done(j.i, judge(j.f.path, src, opts, report), nil)
			}
		})
	}
	each(func(i int, f file) { jobs <- job{i, f} })
	close(jobs)
	wg.Wait()
}

// each hands files to emit, each with its place in the list: loadEach's
// each for a list found before.
func each(files []file) func(emit func(int, file)) {
	return func(emit func(int, file)) {
		for i, f := range files {
			emit(i, f)
		}
	}
}

// notExist is a missing path, phrased once for every command; it matches
// fs.ErrNotExist.
type notExist string

func (e notExist) Error() string { return fmt.Sprintf("no such file %q", string(e)) }
func (e notExist) Unwrap() error { return fs.ErrNotExist }

// LintReader lints the one skill read from r (standard input, for
// `skillc lint -`) as if it were the file named file: the findings carry
// that name, and a skill's folder name is taken from it. The read is bounded
// as a file's is, so an endless stream stops at the size limit and is
// reported as too large.
func LintReader(file string, r io.Reader, opts lint.Options) *lint.Result {
	limit := maxSize(opts)
	if limit >= 0 {
		r = io.LimitReader(r, limit+1)
	}
	src, err := io.ReadAll(r)
	if err != nil {
		d := unreadable(file, err)
		return &lint.Result{Files: []*lint.File{{Path: file, Diags: compiler.Diagnostics{d}, Unreadable: true}}}
	}
	sk := judge(file, src, opts, false)
	return &lint.Result{Files: []*lint.File{{Path: file, Source: sk.Skill.Source, Diags: sk.Diags}}}
}
