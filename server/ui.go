package server

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skillc/skillc/graph/render/drawcmd"
	"github.com/skillc/skillc/plan"
	"github.com/skillc/skillc/store"
)

// The web view: at UIPath, a read-only page for the signed-in user that
// lists their plans and shows one, kept up to date with server-sent events
// from the store's change feed (Store.Watch), so a change made through any
// replica shows on every page.
//
// Who is signed in: with tokens, the login form takes a bearer token and
// sets an HttpOnly, SameSite=Strict cookie holding a digest derived from
// it (Tokens.Cookie), never the token; every request checks it against
// the tokens in constant time, so nothing is kept per session and any
// replica answers. Without tokens (loopback only) the page shows the
// server's fixed user. Every key the view reads is built from that user
// and nothing else, so another user's plan is a 404 like one that never
// existed.

// UIPath is where the web view is mounted.
const UIPath = "/ui/"

// uiCookie names the sign-in cookie.
const uiCookie = "skillc_ui"

// uiCSP allows the page its own script, style and the plan's picture (a
// data: URI in an img, where an SVG runs no script) and nothing else.
const uiCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// uiHeartbeat is how often an idle event stream sends a comment, so
// proxies that cut quiet connections leave it open.
const uiHeartbeat = 25 * time.Second

// maxLoginBody bounds the login form: a token and a little more.
const maxLoginBody = 8 << 10

// PlanPicture draws a plan as SVG for the web view.
type PlanPicture func(ctx context.Context, p *plan.Plan) ([]byte, error)

// DrawPlan is the default PlanPicture: the plan's step graph with its run
// over it (plan.DOT: each step's status, the path taken in bold, the
// position), drawn by skillc-draw (drawcmd), as `skillc plan view --format
// svg` draws it. It fails with drawcmd.ErrNotFound where skillc-draw is not
// installed, and the page says so.
func DrawPlan(ctx context.Context, p *plan.Plan) ([]byte, error) {
	dot, err := plan.DOT(p)
	if err != nil {
		return nil, fmt.Errorf("the plan's graph: %w", err)
	}
	return drawcmd.Draw(ctx, dot, "svg")
}

//go:embed ui
var uiFiles embed.FS

// uiPages parses the pages on first use: every skillc command links this
// package, and parsing them at start was a tenth of `skillc version`.
var uiPages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("ui").Funcs(template.FuncMap{
		"pathEscape":  url.PathEscape,
		"queryEscape": url.QueryEscape,
		"join":        strings.Join,
		"rfc3339":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"when":        func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
		"mark":        stepMark,
		"changes":     eventChanges,
	}).ParseFS(uiFiles, "ui/*.html"))
})

// webView serves the pages; one per Handler.
type webView struct {
	srv     *Server
	tokens  *Tokens
	picture PlanPicture
	pics    pictureCache
}

// mountUI adds the web view's routes to mux.
func (s *Server) mountUI(mux *http.ServeMux, opts HTTPOptions) {
	v := &webView{srv: s, tokens: opts.Tokens, picture: opts.PlanPicture}
	if v.picture == nil {
		v.picture = DrawPlan
	}
	crossOrigin := http.NewCrossOriginProtection()
	mux.Handle("GET /{$}", http.RedirectHandler(UIPath, http.StatusSeeOther))
	mux.Handle("GET /ui", http.RedirectHandler(UIPath, http.StatusSeeOther))
	mux.Handle("GET /ui/{$}", uiHeaders(http.HandlerFunc(v.list)))
	mux.Handle("GET /ui/events", uiHeaders(http.HandlerFunc(v.listEvents)))
	mux.Handle("GET /ui/plans/{conversation}", uiHeaders(http.HandlerFunc(v.plan)))
	mux.Handle("GET /ui/plans/{conversation}/events", uiHeaders(http.HandlerFunc(v.planEvents)))
	mux.Handle("GET /ui/login", uiHeaders(http.HandlerFunc(v.loginForm)))
	// A login from another site would sign the victim in as the attacker:
	// cross-origin POSTs are refused (Sec-Fetch-Site, Origin).
	mux.Handle("POST /ui/login", uiHeaders(crossOrigin.Handler(http.HandlerFunc(v.login))))
	mux.Handle("POST /ui/logout", uiHeaders(crossOrigin.Handler(http.HandlerFunc(v.logout))))
	static, _ := fs.Sub(uiFiles, "ui")
	files := http.FileServerFS(static)
	mux.Handle("GET /ui/static/{file}", uiHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := r.PathValue("file"); f != "ui.js" && f != "ui.css" {
			v.fail(w, r, http.StatusNotFound, "Not found", "There is no such file.")
			return
		}
		r = r.Clone(r.Context())
		r.URL.Path = "/" + r.PathValue("file")
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})))
	mux.Handle("GET /ui/", uiHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v.fail(w, r, http.StatusNotFound, "Not found", "There is no such page.")
	})))
}

// uiHeaders sets what every response of the web view carries.
func uiHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", uiCSP)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		hd.Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// pageData is what the page template shows.
type pageData struct {
	Kind     string // login, list, plan, message
	Title    string
	Message  string
	User     string
	SignedIn bool
	List     []store.Listed
	ListMark string // the list's fingerprint, for its event stream
	Plan     *planView
}

// planView is one plan as the page shows it.
type planView struct {
	Session      string
	Plan         *plan.Plan
	Position     []string
	Checklist    string
	History      []plan.Event
	Picture      template.URL // a data: URI of the SVG, or ""
	PictureError string
}

// who is the user a request acts for: the cookie's with tokens, else the
// server's fixed user.
func (v *webView) who(r *http.Request) (user string, signedIn, ok bool) {
	if v.tokens == nil {
		return v.srv.user, false, v.srv.user != ""
	}
	c, err := r.Cookie(uiCookie)
	if err != nil {
		return "", false, false
	}
	user, ok = v.tokens.UserByCookie(c.Value)
	return user, ok, ok
}

// page renders a whole page with status code.
func (v *webView) page(w http.ResponseWriter, code int, d pageData) {
	var b strings.Builder
	if err := uiPages().ExecuteTemplate(&b, "page", d); err != nil {
		v.srv.logger.Error("web view: render the page", "kind", d.Kind, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(b.String()))
}

// fail answers with a page that says what went wrong.
func (v *webView) fail(w http.ResponseWriter, r *http.Request, code int, title, msg string) {
	user, signedIn, _ := v.who(r)
	v.page(w, code, pageData{Kind: "message", Title: title, Message: msg, User: user, SignedIn: signedIn})
}

// signIn sends a browser without a valid cookie to the login form.
func (v *webView) signIn(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, "/ui/login", http.StatusSeeOther)
}

func (v *webView) loginForm(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := v.who(r); ok {
		http.Redirect(w, r, UIPath, http.StatusSeeOther)
		return
	}
	if v.tokens == nil {
		v.fail(w, r, http.StatusNotFound, "No sign-in", "This server has no tokens and no user to show plans of: start it with --user or --tokens.")
		return
	}
	v.page(w, http.StatusOK, pageData{Kind: "login", Title: "Sign in"})
}

func (v *webView) login(w http.ResponseWriter, r *http.Request) {
	if v.tokens == nil {
		http.Redirect(w, r, UIPath, http.StatusSeeOther)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxLoginBody)
	if err := r.ParseForm(); err != nil {
		hangUp(w)
		v.page(w, http.StatusBadRequest, pageData{Kind: "login", Title: "Sign in", Message: "The form could not be read: send the token field alone, as the form does."})
		return
	}
	// Only the body: a token in the URL would end up in logs and history.
	token := strings.TrimSpace(r.PostForm.Get("token"))
	value, _, ok := v.tokens.Cookie(token)
	if !ok {
		v.page(w, http.StatusUnauthorized, pageData{Kind: "login", Title: "Sign in", Message: "That is not one of this server's tokens."})
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: uiCookie, Value: value, Path: UIPath,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	http.Redirect(w, r, UIPath, http.StatusSeeOther)
}

func (v *webView) logout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: uiCookie, Value: "", Path: UIPath, MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	http.Redirect(w, r, "/ui/login", http.StatusSeeOther)
}

func (v *webView) list(w http.ResponseWriter, r *http.Request) {
	user, signedIn, ok := v.who(r)
	if !ok {
		v.signIn(w, r)
		return
	}
	l, err := v.srv.planner.Store.List(r.Context(), user, 0)
	if err != nil {
		v.srv.logger.Error("web view: list plans", "user", user, "err", err)
		v.fail(w, r, http.StatusInternalServerError, "Plans unavailable", "The plan store did not answer; try again.")
		return
	}
	v.page(w, http.StatusOK, pageData{Kind: "list", Title: "Your plans", User: user, SignedIn: signedIn, List: l, ListMark: listMark(l)})
}

// conversation is the request's conversation, or false when no plan can
// be stored under it.
func conversation(r *http.Request) (string, bool) {
	c := r.PathValue("conversation")
	return c, checkIdentity("the conversation", c) == nil
}

func (v *webView) plan(w http.ResponseWriter, r *http.Request) {
	user, signedIn, ok := v.who(r)
	if !ok {
		v.signIn(w, r)
		return
	}
	conv, valid := conversation(r)
	if !valid {
		v.fail(w, r, http.StatusNotFound, "No such plan", "There is no plan in this conversation.")
		return
	}
	pv, err := v.load(r.Context(), store.Key{User: user, Session: conv})
	if errors.Is(err, store.ErrNotFound) {
		v.fail(w, r, http.StatusNotFound, "No such plan", "There is no plan in this conversation: it expired, or it never had one.")
		return
	}
	if err != nil {
		v.srv.logger.Error("web view: load plan", "user", user, "err", err)
		v.fail(w, r, http.StatusInternalServerError, "Plan unavailable", "The plan store did not answer; try again.")
		return
	}
	v.page(w, http.StatusOK, pageData{Kind: "plan", Title: pv.Plan.Title, User: user, SignedIn: signedIn, Plan: pv})
}

// load reads one plan with its history and picture.
func (v *webView) load(ctx context.Context, key store.Key) (*planView, error) {
	st := v.srv.planner.Store
	p, err := st.Load(ctx, key)
	if err != nil {
		return nil, err
	}
	h, err := st.History(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		h = nil // expired between the two reads: show the plan as loaded
	} else if err != nil {
		return nil, err
	}
	pv := &planView{Session: key.Session, Plan: p, Position: plan.Position(p), Checklist: plan.Checklist(p), History: h}
	svg, err := v.pics.get(key, p, func() ([]byte, error) {
		dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		return v.picture(dctx, p)
	})
	if err != nil {
		pv.PictureError = err.Error()
	} else {
		pv.Picture = template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(svg))
	}
	return pv, nil
}

// listMark is a fingerprint of a list: it changes with every write to
// any of its plans.
func listMark(l []store.Listed) string {
	h := sha256.New()
	for _, e := range l {
		fmt.Fprintf(h, "%d:%s%d:%s%d;", len(e.Session), e.Session, len(e.Plan.ID), e.Plan.ID, e.Plan.Version)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

func (v *webView) listEvents(w http.ResponseWriter, r *http.Request) {
	user, _, ok := v.who(r)
	if !ok {
		http.Error(w, "sign in first", http.StatusUnauthorized)
		return
	}
	v.stream(w, r, user, r.URL.Query().Get("f"), func(ctx context.Context) (string, []byte, error) {
		l, err := v.srv.planner.Store.List(ctx, user, 0)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		err = uiPages().ExecuteTemplate(&b, "list", l)
		return listMark(l), []byte(b.String()), err
	})
}

func (v *webView) planEvents(w http.ResponseWriter, r *http.Request) {
	user, _, ok := v.who(r)
	if !ok {
		http.Error(w, "sign in first", http.StatusUnauthorized)
		return
	}
	conv, valid := conversation(r)
	if !valid {
		http.Error(w, "no plan in this conversation", http.StatusNotFound)
		return
	}
	key := store.Key{User: user, Session: conv}
	// Like the page: no plan, no stream (a plan that goes later is
	// reported in the stream as gone).
	if _, err := v.srv.planner.Store.Load(r.Context(), key); errors.Is(err, store.ErrNotFound) {
		http.Error(w, "no plan in this conversation", http.StatusNotFound)
		return
	}
	q := r.URL.Query()
	v.stream(w, r, user, q.Get("id")+"@"+q.Get("v"), func(ctx context.Context) (string, []byte, error) {
		var b strings.Builder
		pv, err := v.load(ctx, key)
		if errors.Is(err, store.ErrNotFound) {
			err = uiPages().ExecuteTemplate(&b, "gone", nil)
			return "gone", []byte(b.String()), err
		}
		if err != nil {
			return "", nil, err
		}
		err = uiPages().ExecuteTemplate(&b, "plan", pv)
		return pv.Plan.ID + "@" + strconv.FormatInt(pv.Plan.Version, 10), []byte(b.String()), err
	})
}

// stream sends a "view" event with render's HTML whenever its fingerprint
// differs from the last one sent (at first: from mark, what the page
// shows), looking again each time the store says the user's plans
// changed, until the client goes or the server shuts down.
func (v *webView) stream(w http.ResponseWriter, r *http.Request, user, mark string, render func(context.Context) (string, []byte, error)) {
	rc := http.NewResponseController(w)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	changes, err := v.srv.planner.Store.Watch(ctx, user)
	if err != nil {
		v.srv.logger.Error("web view: watch plans", "user", user, "err", err)
		http.Error(w, "the plan store cannot report changes; reload to see them", http.StatusServiceUnavailable)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	w.WriteHeader(http.StatusOK)
	// A reconnecting client waits this long (ms) instead of the browser's 3 s.
	fmt.Fprint(w, "retry: 2000\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	beat := time.NewTicker(uiHeartbeat)
	defer beat.Stop()
	for {
		fp, html, err := render(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			v.srv.logger.Warn("web view: render an update", "user", user, "err", err)
		case err == nil && fp != mark:
			mark = fp
			if writeEvent(w, "view", html) != nil || rc.Flush() != nil {
				return
			}
		}
		if !v.awaitChange(ctx, w, rc, changes, beat.C) {
			return
		}
	}
}

// awaitChange waits for the store's next word of a change, sending a
// heartbeat now and then; false when the stream is to end.
func (v *webView) awaitChange(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, changes <-chan struct{}, beat <-chan time.Time) bool {
	for {
		select {
		case _, ok := <-changes:
			return ok
		case <-beat:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil || rc.Flush() != nil {
				return false
			}
		case <-v.srv.stopping:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// writeEvent writes one server-sent event. Its data is split into lines
// at every line break the format knows (CR, LF, CRLF): a CR left inside a
// line would end it early.
func writeEvent(w http.ResponseWriter, name string, data []byte) error {
	var b strings.Builder
	b.WriteString("event: " + name + "\n")
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	for line := range strings.SplitSeq(text, "\n") {
		b.WriteString("data: ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	_, err := w.Write([]byte(b.String()))
	return err
}

// pictureCache keeps the pictures of recent plan versions: every open
// page of a plan renders each version, and drawing runs a program.
type pictureCache struct {
	mu sync.Mutex
	m  map[string]pictureEntry
}

type pictureEntry struct {
	svg []byte
	err error
}

// maxPictures bounds the cache; past it, it starts over.
const maxPictures = 256

func (c *pictureCache) get(key store.Key, p *plan.Plan, draw func() ([]byte, error)) ([]byte, error) {
	k := fmt.Sprintf("%q %q %q %d", key.User, key.Session, p.ID, p.Version)
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return e.svg, e.err
	}
	svg, err := draw()
	if errors.Is(err, context.Canceled) {
		return nil, err // the page went away: nothing learned about the plan
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxPictures {
		c.m = make(map[string]pictureEntry)
	}
	c.m[k] = pictureEntry{svg, err}
	return svg, err
}

// stepMark is a step's checkbox, as the checklist draws it.
func stepMark(s plan.StepStatus) string {
	switch s {
	case plan.StepDone:
		return "✓"
	case plan.StepFailed:
		return "✗"
	case plan.StepSkipped:
		return "↷"
	case plan.StepInProgress:
		return "▶"
	}
	return "○"
}

// eventChanges is an event's step lists in a few words.
func eventChanges(ev plan.Event) string {
	var parts []string
	for _, l := range []struct {
		name string
		ids  []string
	}{{"checked", ev.Check}, {"unchecked", ev.Uncheck}, {"failed", ev.Fail}, {"skipped", ev.Skip}} {
		if len(l.ids) > 0 {
			parts = append(parts, l.name+" "+strings.Join(l.ids, ", "))
		}
	}
	return strings.Join(parts, "; ")
}
