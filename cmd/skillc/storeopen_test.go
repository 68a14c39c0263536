package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/sqlite"
)

func TestOpenStore(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	tests := []struct {
		spec string
		path string // the SQLite file, when it is one
		mem  bool
		err  string
	}{
		{spec: "", path: filepath.Join(state, "skillc", "plans.db")},
		{spec: "sqlite", path: filepath.Join(state, "skillc", "plans.db")},
		{spec: "sqlite:" + filepath.Join(dir, "a", "b.db"), path: filepath.Join(dir, "a", "b.db")},
		{spec: "sqlite:~/x/plans.db", path: filepath.Join(home, "x", "plans.db")},
		{spec: " memory ", mem: true},
		{spec: "sqlite:", err: `--store "sqlite:" names no file`},
		{spec: "redis://x", err: `unknown store "redis://x": use sqlite:PATH, memory`},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			s, err := openStore(ctx, tt.spec, store.Options{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			switch st := s.(type) {
			case *sqlite.Store:
				if st.Path() != tt.path {
					t.Errorf("file %q, want %q", st.Path(), tt.path)
				}
				if _, err := os.Stat(tt.path); err != nil {
					t.Error(err)
				}
			case *memory.Store:
				if !tt.mem {
					t.Errorf("got a memory store")
				}
			default:
				t.Errorf("store %T", s)
			}
		})
	}
}
