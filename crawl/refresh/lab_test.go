package refresh

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// The drill lab: two real sites of the corpus (the Mod Template with Candlelight and Tallow,
// dream-ini with one project), or corpustest's stand-ins without ../shared, served on
// loopback from a web root the drills change between refreshes, and a state directory.
const (
	host    = "dreamweave-mp.github.io"
	tplDir  = host + "/DreamWeave-Mod-Template"
	iniDir  = host + "/dream-ini"
	candle  = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
	tallow  = "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14"
	iniProj = "b3efde19-438b-4325-bf94-fae56bf1d458"
	// Tallow's summary, changed by drills that need a valid new manifest.
	tallowSummary = "A tiny OpenMW Lua library that wakes your script at dusk, at dawn, or on the hour."
)

type lab struct {
	t     *testing.T
	mu    sync.Mutex
	files map[string][]byte // the raw web root: "<host>/<path>" -> bytes as published
	orig  map[string][]byte // files as first published
	srv   *loopback.Server
	state string
	sl    *sleeper
	runs  int
	opt   func(*Options) // adjusts every refresh's options
	// intercept, when set, may answer a request itself (returning true) before the server does:
	// behaviour loopback.Rule cannot express (a hijacked lying response, a kill switch).
	intercept func(w http.ResponseWriter, r *http.Request) bool
	// moved answers these request paths ("/<host>/<path>") with a redirect of any status
	// (loopback.Rule only answers 302), before intercept and the server.
	moved map[string]redirect
}

// redirect is one answer of lab.moved: the status and the Location ("{base}" expands to the
// server's base URL). A status without a Location is answered with an empty body.
type redirect struct {
	status int
	to     string
}

// redirects sets lab.moved: paths below the server ("<host>/<path>") to their answers.
func (l *lab) redirects(m map[string]redirect) {
	l.mu.Lock()
	l.moved = map[string]redirect{}
	for p, r := range m {
		l.moved["/"+p] = r
	}
	l.mu.Unlock()
}

// labWeb is the lab's web root: the two corpus sites, or their stand-ins without ../shared.
func labWeb(t testing.TB) map[string][]byte { return corpustest.Sites(t) }

func newLab(t *testing.T) *lab {
	t.Helper()
	l := &lab{t: t, files: labWeb(t), sl: &sleeper{}, state: filepath.Join(t.TempDir(), "state")}
	l.orig = maps.Clone(l.files)
	srv, err := loopback.Start(l.root(), loopback.Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			l.mu.Lock()
			f := l.intercept
			mv, moved := l.moved[r.URL.Path]
			l.mu.Unlock()
			if moved {
				if mv.to != "" {
					w.Header().Set("Location", strings.ReplaceAll(mv.to, "{base}", l.srv.URL()))
				}
				w.Header().Set("Content-Length", "0")
				w.WriteHeader(mv.status)
				return
			}
			if f != nil && f(w, r) {
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	l.srv = srv
	return l
}

func (l *lab) setIntercept(f func(w http.ResponseWriter, r *http.Request) bool) {
	l.mu.Lock()
	l.intercept = f
	l.mu.Unlock()
}

func (l *lab) root() fs.FS {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := fstest.MapFS{}
	for p, b := range l.files {
		m[p] = &fstest.MapFile{Data: append([]byte(nil), b...), Mode: 0o644}
	}
	return m
}

// sync serves the current web root.
func (l *lab) sync() {
	l.t.Helper()
	if err := l.srv.SetRoot(l.root()); err != nil {
		l.t.Fatal(err)
	}
}

func (l *lab) url(p string) string { return l.srv.URL() + p }

// port is the server's port, as a rule's "{port}" expands.
func (l *lab) port() string {
	u, err := url.Parse(l.srv.URL())
	if err != nil {
		l.t.Fatal(err)
	}
	return u.Port()
}

// source is the enrolled URL of a site directory: its front page.
func (l *lab) source(dir string) string { return l.url(dir + "/") }

// site is the state's name for a site directory's index.
func (l *lab) site(dir string) string { return store.SiteID(l.url(dir + "/dreamweave.json")) }

func manifestPath(dir, project string) string {
	return dir + "/dreamweave/projects/" + project + ".json"
}

func (l *lab) options(urls ...string) Options {
	o := options(l.state, l.sl, urls...)
	at := clock.Add(time.Duration(l.runs) * 6 * time.Hour)
	o.Now = func() time.Time { return at }
	if l.opt != nil {
		l.opt(&o)
	}
	return o
}

// refresh runs one refresh of urls (six hours after the previous one) and checks the state.
func (l *lab) refresh(urls ...string) *Summary {
	l.t.Helper()
	sum := refresh(l.t, l.options(urls...))
	l.runs++
	mustCheck(l.t, l.state)
	return sum
}

// publish replaces a project's manifest; with honest, the site index advertises its digest.
func (l *lab) publish(dir, project string, manifest []byte, honest bool) {
	l.t.Helper()
	p := manifestPath(dir, project)
	l.mu.Lock()
	old := l.files[p]
	l.files[p] = manifest
	if honest {
		idx := dir + "/dreamweave.json"
		l.files[idx] = bytes.Replace(l.files[idx], []byte(store.Digest(old)), []byte(store.Digest(manifest)), 1)
	}
	l.mu.Unlock()
	l.sync()
}

func (l *lab) raw(p string) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.files[p]...)
}

func (l *lab) set(p string, b []byte) {
	l.mu.Lock()
	l.files[p] = b
	l.mu.Unlock()
	l.sync()
}

// editIndex rewrites a site index through f (decoded as generic JSON, re-encoded).
func (l *lab) editIndex(dir string, f func(doc map[string]any)) {
	l.t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(l.raw(dir+"/dreamweave.json"), &doc); err != nil {
		l.t.Fatal(err)
	}
	f(doc)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		l.t.Fatal(err)
	}
	l.set(dir+"/dreamweave.json", b)
}

// copySite publishes a copy of site dir at another directory (another host), every URL of the
// original rewritten to the copy's and the index digests recomputed honestly.
func (l *lab) copySite(from, to string) {
	l.mu.Lock()
	oldURL, newURL := "https://"+from+"/", "https://"+to+"/"
	digests := map[string]string{}
	for p, b := range l.files {
		if strings.HasPrefix(p, from+"/") {
			nb := bytes.ReplaceAll(b, []byte(oldURL), []byte(newURL))
			l.files[to+"/"+strings.TrimPrefix(p, from+"/")] = nb
			digests[store.Digest(b)] = store.Digest(nb)
		}
	}
	idx := to + "/dreamweave.json"
	for o, n := range digests {
		l.files[idx] = bytes.ReplaceAll(l.files[idx], []byte(o), []byte(n))
	}
	l.mu.Unlock()
	l.sync()
}

// held are the bytes the state holds for sites and claims: every dreamweave.json and
// manifest.json, by path.
func (l *lab) held() map[string][]byte {
	out := map[string][]byte{}
	for p, b := range snapshotFiles(l.t, l.state) {
		if strings.HasSuffix(p, "/manifest.json") || strings.HasSuffix(p, "/dreamweave.json") {
			out[p] = b
		}
	}
	return out
}

// heldManifests are the held manifest.json files only: what a failed manifest read must leave
// alone while the (valid, republished) site index is rightly replaced.
func (l *lab) heldManifests() map[string][]byte {
	out := map[string][]byte{}
	for p, b := range l.held() {
		if strings.HasSuffix(p, "/manifest.json") {
			out[p] = b
		}
	}
	return out
}

// sameHeld asserts that the held bytes are exactly as before (a failed read changes nothing).
func (l *lab) sameHeld(before map[string][]byte) {
	l.t.Helper()
	after := l.held()
	if !hasIndex(before) {
		after = l.heldManifests()
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			l.t.Errorf("held %s changed after a failed read", p)
		}
	}
	if len(after) != len(before) {
		l.t.Errorf("held files: %d before, %d after", len(before), len(after))
	}
}

func (l *lab) claim(project, dir string) store.Claim {
	l.t.Helper()
	var c store.Claim
	if err := store.Open(l.state).ReadJSON(store.ClaimPath(project, l.site(dir)), &c); err != nil {
		l.t.Fatal(err)
	}
	return c
}

func (l *lab) origin(dir string) store.Origin {
	l.t.Helper()
	var o store.Origin
	if err := store.Open(l.state).ReadJSON(store.OriginPath(l.site(dir)), &o); err != nil {
		l.t.Fatal(err)
	}
	return o
}

func (l *lab) sourceRecord(u string) store.Source {
	l.t.Helper()
	var s store.Source
	if err := store.Open(l.state).ReadJSON(store.SourcePath(store.SourceID(u)), &s); err != nil {
		l.t.Fatal(err)
	}
	return s
}

func (l *lab) events() []store.Event { return load(l.t, l.state).Events }

// requestsFor counts logged requests whose path contains s.
func (l *lab) requestsFor(s string) int {
	n := 0
	for _, q := range l.srv.Requests() {
		if strings.Contains(q.Path, s) {
			n++
		}
	}
	return n
}

func (l *lab) rules(rs ...loopback.Rule) {
	l.t.Helper()
	if err := l.srv.SetRules(rs); err != nil {
		l.t.Fatal(err)
	}
}

// wantClaim asserts a claim's health and that its problem contains each of words.
func wantClaim(t *testing.T, c store.Claim, health string, words ...string) {
	t.Helper()
	if c.Health != health {
		t.Errorf("claim %s at %s: health %s (problem %s), want %s", c.Project, c.Origin, c.Health, deref(c.Problem), health)
	}
	for _, w := range words {
		if c.Problem == nil || !strings.Contains(*c.Problem, w) {
			t.Errorf("claim %s: problem %s lacks %q", c.Project, deref(c.Problem), w)
		}
	}
}

// wantClaimExactly asserts a claim's health and its exact problem.
func wantClaimExactly(t *testing.T, c store.Claim, health, problem string) {
	t.Helper()
	if c.Health != health || deref(c.Problem) != problem {
		t.Errorf("claim %s at %s:\n  health %s, problem %s\n  want   %s, problem %s", c.Project, c.Origin, c.Health, deref(c.Problem), health, problem)
	}
}

// wantOriginExactly asserts an origin's health and its exact problem.
func wantOriginExactly(t *testing.T, o store.Origin, health, problem string) {
	t.Helper()
	if o.Health != health || deref(o.Problem) != problem {
		t.Errorf("origin %s:\n  health %s, problem %s\n  want   %s, problem %s", o.ID, o.Health, deref(o.Problem), health, problem)
	}
}

func wantOrigin(t *testing.T, o store.Origin, health string, words ...string) {
	t.Helper()
	if o.Health != health {
		t.Errorf("origin %s: health %s (problem %s), want %s", o.ID, o.Health, deref(o.Problem), health)
	}
	for _, w := range words {
		if o.Problem == nil || !strings.Contains(*o.Problem, w) {
			t.Errorf("origin %s: problem %s lacks %q", o.ID, deref(o.Problem), w)
		}
	}
}

// changedTallow is a valid new Tallow manifest: the same document with another summary.
func (l *lab) changedTallow(suffix string) []byte {
	l.t.Helper()
	old := l.raw(manifestPath(tplDir, tallow))
	nb := bytes.Replace(old, []byte(tallowSummary), []byte(tallowSummary+suffix), 1)
	if bytes.Equal(nb, old) {
		l.t.Fatal("Tallow's summary is not where the drill expects it")
	}
	return nb
}

// runWith runs a refresh over an arbitrary state implementation (crash injection).
func runWith(ctx context.Context, o Options, st state) (*Summary, error) {
	snap, err := store.Open(o.State).Load()
	if err != nil {
		return nil, err
	}
	return newRun(o, st, snap).run(ctx)
}

func hasIndex(m map[string][]byte) bool {
	for p := range m {
		if strings.HasSuffix(p, "/dreamweave.json") {
			return true
		}
	}
	return false
}

// raw0 is the state's file at rel, as held ("" when missing).
func (l *lab) raw0(rel string) []byte {
	b, _ := os.ReadFile(filepath.Join(l.state, filepath.FromSlash(rel)))
	return b
}
