package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// configs finds and loads the config a document is linted with, as the
// command line does: the file given (--config, or the client's
// initializationOptions.config), else .skillc.yaml found upward. The CLI
// searches upward from the folder it runs in; an editor's server runs
// wherever the editor was started, so the search starts from the
// document's folder, which is where `skillc lint` is run from for that
// file. A loaded config is kept until its file changes (size or time).
type configs struct {
	explicit string

	mu     sync.Mutex
	loaded map[string]*loadedConfig
}

type loadedConfig struct {
	size  int64
	mtime time.Time
	cfg   *lint.Config
	diags compiler.Diagnostics
	err   error
}

// forFile returns the config for the skill at path: the config, its path
// ("" for none), and its problems. A config that cannot be read or has
// problems gives the default config and the problems, as the CLI would
// refuse it: the server still lints, and says why the config was not used.
func (c *configs) forFile(path string) (cfg *lint.Config, cfgPath string, diags compiler.Diagnostics, err error) {
	cfgPath = c.explicit
	if cfgPath == "" {
		cfgPath, err = lint.FindConfig(filepath.Dir(path))
		if err != nil {
			return lint.DefaultConfig(), "", nil, fmt.Errorf("looking for %s: %w", lint.ConfigFileNames[0], err)
		}
		if cfgPath == "" {
			return lint.DefaultConfig(), "", nil, nil
		}
	}
	l := c.load(cfgPath)
	if l.err != nil || len(l.diags) > 0 {
		return lint.DefaultConfig(), cfgPath, l.diags, l.err
	}
	return l.cfg, cfgPath, nil, nil
}

func (c *configs) load(path string) *loadedConfig {
	st, statErr := os.Stat(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if l := c.loaded[path]; l != nil && statErr == nil && l.err == nil && st.Size() == l.size && st.ModTime().Equal(l.mtime) {
		return l
	}
	l := &loadedConfig{}
	if statErr == nil {
		l.size, l.mtime = st.Size(), st.ModTime()
	}
	cfg, diags, err := lint.LoadConfig(path)
	if err != nil {
		l.err = fmt.Errorf("cannot read config %q: %w", path, err)
	} else {
		l.cfg, l.diags = cfg, diags
	}
	if c.loaded == nil {
		c.loaded = map[string]*loadedConfig{}
	}
	c.loaded[path] = l
	return l
}
