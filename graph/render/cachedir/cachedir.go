// Package cachedir points go-graphviz's compiled-code cache at a folder only
// this user can write, before go-graphviz starts.
//
// go-graphviz compiles its WebAssembly module to native code in a package
// init and caches that code in $TMPDIR/go-graphviz (os.TempDir), a folder
// that on most machines every user shares: whoever runs first creates it,
// everyone else then cannot write it, and a file planted there by another
// user is loaded and run as native code (wazero checks a CRC32 only). Its
// init takes no options, so this package's init sets $TMPDIR for the
// process to <user cache dir>/skillc/graphviz, created 0700 and checked
// (see Dir), or, when no such folder can be had, to a path that cannot
// exist, where go-graphviz keeps no cache and compiles each time.
//
// Why this runs first: Go initializes packages in import-path order,
// taking at each step the first package whose imports are all initialized
// (the spec's "Package initialization"). go-graphviz's internal/wasm
// imports github.com/tetratelabs/wazero, which sorts after this package, so
// wasm waits for wazero; this package imports only standard packages that
// wazero imports too, so it is ready no later than wazero and, sorting
// before it, runs before it. Keep it that way: import nothing here that
// wazero does not. cmd/skillc-draw's tests check the effect with a real
// process.
//
// Only the programs that draw import it (through graph/render), and only
// for go-graphviz's init: graph/render's own init, which runs after
// go-graphviz's, calls Restore, so the rest of the process (a test binary's
// temporary folders above all) uses the $TMPDIR it was given.
package cachedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// NoCache is the $TMPDIR given to go-graphviz when no private folder can
// be had: a path under a file, which nobody can create, so go-graphviz
// finds no cache and compiles in memory.
const NoCache = "/dev/null/skillc-no-graphviz-cache"

// Used is the $TMPDIR that this package's init gave the process, and Err
// why it is NoCache (nil when a private folder is in use).
var (
	Used string
	Err  error
)

// tempVars are the variables os.TempDir reads: $TMPDIR on Unix; TMP and
// TEMP on Windows.
var tempVars = []string{"TMPDIR", "TMP", "TEMP"}

// saved holds what tempVars were before init changed them (nil: unset).
var saved = map[string]*string{}

func init() {
	Used, Err = Dir()
	if Err != nil {
		Used = NoCache
	}
	for _, name := range tempVars {
		if v, ok := os.LookupEnv(name); ok {
			saved[name] = &v
		} else {
			saved[name] = nil
		}
		os.Setenv(name, Used)
	}
}

// Restore gives the process back the temporary folder it was started with,
// once go-graphviz has read it. Only the code cache belongs in the private
// folder; anything else written there (a test's temporary files, with
// whatever modes and links they hold) would make Dir refuse it next time.
func Restore() {
	for _, name := range tempVars {
		if v := saved[name]; v != nil {
			os.Setenv(name, *v)
		} else {
			os.Unsetenv(name)
		}
	}
}

// Dir returns <user cache dir>/skillc/graphviz, creating it 0700, after
// checking that it and everything already in it belong to this user and
// that nobody else can write them. Anything else (a folder made by another
// user, a mode of 0777, a file planted by someone else) is an error: the
// caller then keeps no cache rather than trust it.
func Dir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache folder: %w", err)
	}
	dir := filepath.Join(base, "skillc", "graphviz")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create the graphviz cache folder: %w", err)
	}
	// The folders above dir too: whoever can write one of them can swap
	// what is below.
	for _, p := range []string{base, filepath.Join(base, "skillc")} {
		if err := checkPrivate(p); err != nil {
			return "", err
		}
	}
	// Everything under dir is wazero's code cache: check each entry, so
	// that a file in it that this user did not write is never loaded.
	err = filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return checkPrivate(path)
	})
	if err != nil {
		return "", err
	}
	return dir, nil
}

// errNotPrivate is wrapped by every refusal of checkPrivate.
var errNotPrivate = errors.New("not private to this user")
