// Package lsp is skillc's language server: the lint findings of a skill as
// the author types, code actions from their fixes, hover, go to definition
// and references, the steps as an outline, completion and rename of step
// IDs, over the Language Server Protocol (3.16) on a stream, stdio for
// `skillc lsp`.
//
// The protocol's types and method table are github.com/tliron/glsp's; the
// connection is github.com/sourcegraph/jsonrpc2's (which glsp's own server
// wraps), driven here directly so the server can run on any stream and
// survive a malformed message (codec.go).
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/skillc/skillc/compiler"
	"github.com/skillc/skillc/lint"
)

// Options configure a server.
type Options struct {
	// ConfigPath is the config every document is linted with, as lint's
	// --config; "" finds .skillc.yaml upward from each document's folder.
	// The client's initializationOptions {"config": PATH} sets it too.
	ConfigPath string
	// Strict reads FORMAT v1 only, as lint's --strict.
	Strict bool
	// Version is reported to the client as the server's version.
	Version string
	// Log receives what the server could not tell the client (a panic's
	// stack, a message it could not read); nil discards it.
	Log io.Writer
}

// Server holds the open documents of one client.
type Server struct {
	opts    Options
	configs configs
	log     *log.Logger
	handler protocol.Handler

	// notify sends a notification to the client; set by Serve.
	notify func(method string, params any)

	mu       sync.Mutex
	docs     map[string]*document
	shutdown bool
}

// document is one open text and what linting it found.
type document struct {
	uri     string
	path    string
	version int32
	text    *text
	skill   *compiler.Skill
	diags   compiler.Diagnostics
	cfg     *lint.Config
}

// New returns a server; Serve runs it on a connection.
func New(opts Options) *Server {
	out := opts.Log
	if out == nil {
		out = io.Discard
	}
	s := &Server{opts: opts, configs: configs{explicit: opts.ConfigPath}, log: log.New(out, "skillc lsp: ", 0), docs: map[string]*document{}}
	s.notify = func(string, any) {}
	s.handler = protocol.Handler{
		Initialize:  s.initialize,
		Initialized: func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown: func(*glsp.Context) error {
			s.mu.Lock()
			s.shutdown = true
			s.mu.Unlock()
			return nil
		},
		SetTrace:               func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:    s.didOpen,
		TextDocumentDidChange:  s.didChange,
		TextDocumentDidSave:    s.didSave,
		TextDocumentDidClose:   s.didClose,
		TextDocumentCodeAction: s.codeAction,
		TextDocumentHover:      s.hover,
		TextDocumentDefinition: s.definition,
		TextDocumentReferences: s.references,
		TextDocumentDocumentSymbol: func(_ *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
			return s.symbols(p.TextDocument.URI), nil
		},
		TextDocumentCompletion:    s.completion,
		TextDocumentPrepareRename: s.prepareRename,
		TextDocumentRename:        s.rename,
		WorkspaceDidChangeWatchedFiles: func(*glsp.Context, *protocol.DidChangeWatchedFilesParams) error {
			s.relintAll()
			return nil
		},
	}
	return s
}

// Serve answers the client on rwc until it sends exit, the stream ends or
// ctx is done. It returns an error when the client exited without asking
// for a shutdown first (LSP: the exit code is then 1).
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var exited, clean bool
	var conn *jsonrpc2.Conn
	handle := func(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == protocol.MethodExit {
			s.mu.Lock()
			exited, clean = true, s.shutdown
			s.mu.Unlock()
			cancel()
			return nil, nil
		}
		return s.handle(ctx, c, req)
	}
	// The connection reads, and so may notify, before NewConn returns.
	ready := make(chan struct{})
	s.notify = func(method string, params any) {
		<-ready
		if err := conn.Notify(ctx, method, params); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
			s.log.Printf("notify %s: %v", method, err)
		}
	}
	conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, codec{}), jsonrpc2.HandlerWithError(handle),
		jsonrpc2.SetLogger(s.log))
	close(ready)
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	if exited && !clean {
		return errors.New("the client sent exit without shutdown")
	}
	return nil
}

// codeServerNotInitialized is LSP's error code for a request before
// initialize.
const codeServerNotInitialized = -32002

// handle runs one message through glsp's method table. A handler that
// panics costs the client that one answer, never the server.
func (s *Server) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("panic in %s: %v\n%s", req.Method, r, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("skillc: internal error in %s: %v", req.Method, r)}
		}
	}()
	ctx := &glsp.Context{Method: req.Method, Notify: s.notify, Call: func(string, any, any) {}}
	if req.Params != nil {
		ctx.Params = *req.Params
	}
	if req.Method == methodMalformed {
		var p struct{ Problem string }
		_ = json.Unmarshal(ctx.Params, &p)
		s.log.Printf("skipped a message: %s", p.Problem)
		s.notify(protocol.ServerWindowLogMessage, protocol.LogMessageParams{Type: protocol.MessageTypeWarning,
			Message: "skillc: skipped a message it could not read: " + p.Problem})
		return nil, nil
	}
	if !s.handler.IsInitialized() && req.Method != protocol.MethodInitialize {
		// glsp refuses these too, but with no code; LSP has one for it.
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "skillc: send initialize first (or the server was shut down)"}
	}
	r, validMethod, validParams, err := s.handler.Handle(ctx)
	switch {
	case !validMethod && req.Notif:
		// A notification the server has no use for ($/cancelRequest,
		// workspace/didChangeConfiguration): LSP lets it be ignored, and
		// nobody waits for an answer.
		return nil, nil
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "skillc: method not supported: " + req.Method}
	case !validParams:
		msg := "skillc: invalid params for " + req.Method
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	// initializationOptions are the editor's settings: {"config": PATH,
	// "strict": true}, as lint's --config and --strict; the command's own
	// flags win. A relative config is the workspace's.
	if m, ok := p.InitializationOptions.(map[string]any); ok {
		if c, ok := m["config"].(string); ok && c != "" && s.opts.ConfigPath == "" {
			if !filepath.IsAbs(c) && p.RootURI != nil && *p.RootURI != "" {
				c = filepath.Join(uriPath(*p.RootURI), c)
			}
			s.configs.explicit = c
		}
		if strict, ok := m["strict"].(bool); ok && strict {
			s.opts.Strict = true
		}
	}
	caps := s.handler.CreateServerCapabilities()
	sync := protocol.TextDocumentSyncKindIncremental
	caps.TextDocumentSync = protocol.TextDocumentSyncOptions{OpenClose: &protocol.True, Change: &sync, Save: &protocol.True}
	caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{":", "#", " ", ","}}
	caps.RenameProvider = protocol.RenameOptions{PrepareProvider: &protocol.True}
	caps.CodeActionProvider = protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, codeActionFixAll}}
	version := s.opts.Version
	return protocol.InitializeResult{Capabilities: caps, ServerInfo: &protocol.InitializeResultServerInfo{Name: "skillc", Version: &version}}, nil
}

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	td := p.TextDocument
	doc := &document{uri: td.URI, path: uriPath(td.URI), version: td.Version, text: newText(td.Text)}
	s.mu.Lock()
	s.docs[td.URI] = doc
	s.mu.Unlock()
	s.lint(doc)
	return nil
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	old := s.docs[p.TextDocument.URI]
	s.mu.Unlock()
	if old == nil {
		return fmt.Errorf("skillc: didChange for %s, which is not open", p.TextDocument.URI)
	}
	t := old.text
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEvent:
			t = t.apply(*c.Range, c.Text)
		case protocol.TextDocumentContentChangeEventWhole:
			t = newText(c.Text)
		}
	}
	doc := &document{uri: old.uri, path: old.path, version: p.TextDocument.Version, text: t}
	s.mu.Lock()
	s.docs[doc.uri] = doc
	s.mu.Unlock()
	s.lint(doc)
	return nil
}

// didSave lints again: a config or a linked file may have changed on disk
// since the document was last linted.
func (s *Server) didSave(_ *glsp.Context, p *protocol.DidSaveTextDocumentParams) error {
	if doc := s.doc(p.TextDocument.URI); doc != nil {
		s.lint(doc)
	}
	return nil
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
	return nil
}

func (s *Server) relintAll() {
	s.mu.Lock()
	docs := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		docs = append(docs, d)
	}
	s.mu.Unlock()
	for _, d := range docs {
		s.lint(d)
	}
}

func (s *Server) doc(uri string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

// lint compiles and lints doc's text in memory, as `skillc lint` lints the
// file, and publishes the findings.
func (s *Server) lint(doc *document) {
	cfg, cfgPath, cfgDiags, cfgErr := s.configs.forFile(doc.path)
	opts := lint.Options{Config: cfg, Strict: s.opts.Strict}
	src := []byte(doc.text.src)
	sk, compiled := compiler.Compile(doc.path, src, opts.CompilerOptions())
	if sk == nil {
		sk = &compiler.Skill{Filename: doc.path, Source: src}
	}
	if sk.Source == nil {
		sk.Source = src
	}
	diags := lint.Check(sk, compiled, opts)
	doc.skill, doc.diags, doc.cfg = sk, diags, cfg

	out := make([]protocol.Diagnostic, 0, len(diags)+1)
	if cfgErr != nil || len(cfgDiags) > 0 {
		// The CLI refuses a broken config; the editor still shows the
		// skill's findings under the defaults, and says why at the top.
		msg := fmt.Sprintf("config %s has %d problem(s), so the defaults were used: %s", cfgPath, len(cfgDiags), firstProblem(cfgDiags))
		if cfgErr != nil {
			msg = fmt.Sprintf("%v; the defaults were used", cfgErr)
		}
		out = append(out, lspDiagnostic(doc.text, compiler.Diagnostic{Severity: compiler.SeverityError, Rule: "invalid-config", Summary: msg}))
	}
	for _, d := range diags {
		if !doc.owns(d) {
			// A finding about another file (none today) is shown at the
			// top, never at a position that belongs to that file.
			d.Summary = d.Location() + ": " + d.Summary
			d.Range = compiler.Range{}
		}
		out = append(out, lspDiagnostic(doc.text, d))
	}
	version := protocol.UInteger(doc.version)
	s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: doc.uri, Version: &version, Diagnostics: out})
}

func firstProblem(ds compiler.Diagnostics) string {
	if len(ds) == 0 {
		return ""
	}
	return fmt.Sprintf("line %d: %s", ds[0].Range.Start.Line, ds[0].Summary)
}

var severities = map[compiler.Severity]protocol.DiagnosticSeverity{
	compiler.SeverityError:   protocol.DiagnosticSeverityError,
	compiler.SeverityWarning: protocol.DiagnosticSeverityWarning,
	compiler.SeverityInfo:    protocol.DiagnosticSeverityInformation,
}

func lspDiagnostic(t *text, d compiler.Diagnostic) protocol.Diagnostic {
	sev, ok := severities[d.Severity]
	if !ok {
		sev = protocol.DiagnosticSeverityError
	}
	source := "skillc"
	msg := d.Summary
	if d.Detail != "" {
		msg += "\n" + d.Detail
	}
	var tags []protocol.DiagnosticTag
	if unnecessary[d.Rule] {
		tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	return protocol.Diagnostic{
		Range:    t.rangeOf(d.Range),
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: d.Rule},
		Source:   &source,
		Message:  msg,
		Tags:     tags,
	}
}

// unnecessary are the rules whose findings are text nothing uses, which
// editors fade.
var unnecessary = map[string]bool{"unreachable-step": true, "unused-tool": true}

// uriPath is the file path of a file: URI, which names the skill (its
// folder) and is where its config is looked for; any other URI (an
// unsaved buffer) is linted under its last path element.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	if u.Scheme == "file" {
		p := u.Path
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:] // file:///C:/x on Windows
		}
		return filepath.FromSlash(p)
	}
	if i := strings.LastIndexAny(u.Opaque+u.Path, "/:"); i >= 0 {
		return (u.Opaque + u.Path)[i+1:]
	}
	return u.Opaque + u.Path
}
