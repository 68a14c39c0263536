package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillc/skillc/graph/render"
	"github.com/skillc/skillc/graph/render/drawcmd"
)

// TestMain lets this test binary be skillc and skillc-draw: testscript puts
// copies of it by those names first on $PATH, and running the skillc copy
// runs main. Scripts
// (`exec skillc ...`) and the end-to-end tests that start servers use it
// instead of building the binary with `go build`.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillc": main,
		// What skillc graph runs to draw SVG and PNG (drawcmd.Find finds
		// it on $PATH); the real one is cmd/skillc-draw.
		drawcmd.Name: func() { os.Exit(render.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// The floor BenchmarkGatewayForward compares the gateway with.
		"bytecopy": byteCopy,
	})
}

// skillcOnPath is the skillc that TestMain put on $PATH: this test binary.
func skillcOnPath(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("skillc")
	if err != nil {
		t.Fatalf("skillc is not on $PATH; TestMain puts it there: %v", err)
	}
	return bin
}

// TestScript runs the command-line scripts in testdata/script: each is a
// txtar archive of commands (`exec skillc ...`), what they must print, and
// the files they read. $TESTDATA is the repository's testdata folder and
// $REPO the repository, for goldens shared with other tests.
func TestScript(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join(testdata, "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTDATA", testdata)
			env.Setenv("REPO", filepath.Dir(testdata))
			// No identity or colour from the developer's environment.
			env.Setenv("SKILLC_USER", "")
			env.Setenv("SKILLC_SESSION", "")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exits CODE PROGRAM [ARGS...] runs PROGRAM as exec does and
			// checks its exit code: skillc's codes (1 findings, 2 usage)
			// are part of its interface, and `! exec` only tells 0 from
			// not 0.
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				err = ts.Exec(args[1], args[2:]...)
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("%s: %v", args[1], err)
				}
				if code != want {
					ts.Fatalf("%s exited %d, want %d", args[1], code, want)
				}
			},
			// truncate FILE SIZE makes FILE SIZE bytes long, sparse where
			// the file system allows: a huge file that costs no disk.
			"truncate": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: truncate FILE SIZE")
				}
				size, err := strconv.ParseInt(args[1], 0, 64)
				ts.Check(err)
				f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_CREATE|os.O_WRONLY, 0o644)
				ts.Check(err)
				ts.Check(f.Truncate(size))
				ts.Check(f.Close())
			},
			// mkfifo FILE makes a named pipe.
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: mkfifo FILE")
				}
				ts.Check(makeFIFO(ts.MkAbs(args[0])))
			},
		},
	})
}
