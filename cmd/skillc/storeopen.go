package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/sqlite"
)

// storeBackend opens the stores whose --store spec it matches. Backends
// beyond the built-in ones (postgres) register themselves from their own
// file with registerStoreBackend in an init function, so adding one does
// not touch this file.
type storeBackend struct {
	// form is how the spec is written, for help and errors ("postgres://...").
	form  string
	match func(spec string) bool
	open  func(ctx context.Context, spec string, opts store.Options) (store.Store, error)
}

var storeBackends []storeBackend

func registerStoreBackend(b storeBackend) { storeBackends = append(storeBackends, b) }

// storeSpecHelp describes --store for flag help.
func storeSpecHelp() string {
	forms := []string{"sqlite:PATH", "memory"}
	for _, b := range storeBackends {
		forms = append(forms, b.form)
	}
	return "plan store: " + strings.Join(forms, " | ") + " (default: sqlite in $XDG_STATE_HOME/skillc/plans.db)"
}

// openStore opens the store named by a --store value. "" and "sqlite" are
// the default SQLite file; "sqlite:PATH" another file; "memory" a store
// that lives as long as the process.
func openStore(ctx context.Context, spec string, opts store.Options) (store.Store, error) {
	spec = strings.TrimSpace(spec)
	switch {
	case spec == "" || spec == "sqlite":
		path, err := sqlite.DefaultPath()
		if err != nil {
			return nil, err
		}
		return sqlite.Open(ctx, path, opts)
	case strings.HasPrefix(spec, "sqlite:"):
		path := strings.TrimPrefix(spec, "sqlite:")
		if path == "" {
			return nil, fmt.Errorf("--store %q names no file: write sqlite:PATH, e.g. sqlite:./plans.db", spec)
		}
		if rest, ok := strings.CutPrefix(path, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil, err
			}
			path = filepath.Join(home, rest)
		}
		return sqlite.Open(ctx, path, opts)
	case spec == "memory":
		return memory.New(opts), nil
	}
	for _, b := range storeBackends {
		if b.match(spec) {
			return b.open(ctx, spec, opts)
		}
	}
	forms := []string{"sqlite:PATH", "memory"}
	for _, b := range storeBackends {
		forms = append(forms, b.form)
	}
	return nil, fmt.Errorf("unknown store %q: use %s", spec, strings.Join(forms, ", "))
}
