// Package refreshtest is test-only: fixture sites on one loopback server, crawled by a real
// refresh, so tests of what reads a state start from one the crawler wrote. Each site is a base
// path ("/alpha/") whose front page links its index; media URLs are PNGs on the same server.
package refreshtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// The fixtures' project ids.
const (
	CandlelightID = corpustest.CandlelightID
	TallowID      = corpustest.TallowID
	ProgramID     = corpustest.LanternForgeID
)

// First is the time of a Net's first refresh; each later one is six hours on.
var First = time.Date(2026, 9, 28, 0, 0, 0, 0, time.UTC)

// Net is one loopback server holding any number of sites, and a state directory.
type Net struct {
	tb    testing.TB
	srv   *httptest.Server
	State string // the state directory every Refresh writes

	mu     sync.Mutex
	routes map[string]route
	down   []string // path prefixes that hang up
	slow   []string // parts of paths that answer after a delay
	delay  time.Duration
	asked  []string // the paths requested, in order
	runs   int
}

type route struct {
	status int
	header http.Header
	body   []byte
}

// New starts the server (closed when the test ends) with an empty state directory.
func New(tb testing.TB) *Net {
	tb.Helper()
	n := &Net{tb: tb, routes: map[string]route{}, State: filepath.Join(tb.TempDir(), "state")}
	n.srv = httptest.NewServer(http.HandlerFunc(n.serve))
	tb.Cleanup(n.srv.Close)
	return n
}

func (n *Net) serve(w http.ResponseWriter, r *http.Request) {
	n.mu.Lock()
	n.asked = append(n.asked, r.URL.Path)
	rt, ok := n.routes[r.URL.Path]
	hang := false
	for _, p := range n.down {
		hang = hang || strings.HasPrefix(r.URL.Path, p)
	}
	var wait time.Duration
	for _, p := range n.slow {
		if strings.Contains(r.URL.Path, p) {
			wait = n.delay
		}
	}
	n.mu.Unlock()
	if wait > 0 {
		select {
		case <-time.After(wait):
		case <-r.Context().Done():
			return
		}
	}
	if hang {
		if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
			c.Close()
		}
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	maps.Copy(w.Header(), rt.header)
	w.WriteHeader(rt.status)
	w.Write(rt.body)
}

// Serve answers path with body as contentType.
func (n *Net) Serve(path, contentType string, body []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.routes[path] = route{status: http.StatusOK, header: http.Header{"Content-Type": {contentType}}, body: bytes.Clone(body)}
}

// TakeDown makes every path below prefix hang up without an answer: a site that is down.
func (n *Net) TakeDown(prefix string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.down = append(n.down, prefix)
}

// Redirect answers path with a redirect of the given status to location (a path or a URL).
func (n *Net) Redirect(path, location string, status int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.routes[path] = route{status: status, header: http.Header{"Location": {location}}}
}

// Slow makes every path containing part answer after d, unless its client goes first.
func (n *Net) Slow(part string, d time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.slow, n.delay = append(n.slow, part), d
}

// BringUp ends every TakeDown and Slow: the sites answer again as before.
func (n *Net) BringUp() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.down, n.slow = nil, nil
}

// Requests are the paths requested since the server started or ForgetRequests, in order.
func (n *Net) Requests() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.asked)
}

// ForgetRequests empties the request log.
func (n *Net) ForgetRequests() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.asked = nil
}

// URL is the server's URL of path.
func (n *Net) URL(path string) string { return n.srv.URL + path }

// Site is one site of the Net, at a base path ending in "/".
type Site struct {
	net  *Net
	Base string
}

// Site returns the site at base ("/mods/").
func (n *Net) Site(base string) *Site { return &Site{net: n, Base: base} }

// URL is the URL of p below the site's base ("" for the site itself, its enrolled URL).
func (s *Site) URL(p string) string { return s.net.URL(s.Base + p) }

// Publish serves every manifest (media pointed at this server), an index listing them under
// the digests of the bytes served, and a front page linking the index.
func (s *Site) Publish(manifests ...map[string]any) {
	s.net.tb.Helper()
	var entries []map[string]any
	for _, m := range manifests {
		entries = append(entries, s.Entry(m, s.Manifest(ID(s.net.tb, m), m)))
	}
	s.Index(entries...)
	page := fmt.Sprintf(`<!DOCTYPE html><html><head><title>Fixture</title><link rel="alternate" type="application/vnd.dreamweave.index+json" href="%s"></head><body>Fixture</body></html>`, s.URL("dreamweave.json"))
	s.net.Serve(s.Base, "text/html; charset=utf-8", []byte(page))
}

// Manifest serves m as project id's manifest and returns the bytes served.
func (s *Site) Manifest(id string, m map[string]any) []byte {
	s.net.tb.Helper()
	b := s.Bytes(m)
	s.net.Serve(s.ManifestPath(id), "application/json", b)
	return b
}

// ManifestPath is the server path of project id's manifest.
func (s *Site) ManifestPath(id string) string { return s.Base + "dreamweave/projects/" + id + ".json" }

// Bytes are the bytes Publish serves for m, without serving them as a manifest.
func (s *Site) Bytes(m map[string]any) []byte {
	s.net.tb.Helper()
	return Pretty(s.net.tb, s.localized(m))
}

// Index serves the site index listing entries (from Entry).
func (s *Site) Index(entries ...map[string]any) {
	s.net.tb.Helper()
	index := map[string]any{
		"schema_version": "2", "document": "index", "generator": "fixture",
		"site":     map[string]any{"name": "Fixture site", "url": s.URL("")},
		"projects": append([]map[string]any{}, entries...),
	}
	s.net.Serve(s.Base+"dreamweave.json", "application/json", Pretty(s.net.tb, index))
}

// Entry is the index entry of manifest m advertising the digest of served.
func (s *Site) Entry(m map[string]any, served []byte) map[string]any {
	p := m["project"].(map[string]any)
	id := p["id"].(string)
	channels := map[string]any{}
	for ch, head := range m["channels"].(map[string]any) {
		channels[ch] = head.(map[string]any)["version"]
	}
	e := map[string]any{
		"id": id, "name": p["name"], "summary": p["summary"], "type": p["type"], "status": p["status"],
		"page": s.URL(id + "/"), "manifest": s.URL("dreamweave/projects/" + id + ".json"),
		"manifest_sha256": store.Digest(served), "channels": channels,
	}
	if rs, _ := m["releases"].([]any); len(rs) > 0 {
		e["updated"] = rs[0].(map[string]any)["date"]
	}
	return e
}

// ID is the project id of manifest m.
func ID(tb testing.TB, m map[string]any) string {
	tb.Helper()
	id, ok := Get(tb, m, "project", "id").(string)
	if !ok {
		tb.Fatal("the manifest has no project id")
	}
	return id
}

// localized is a copy of m whose media URLs are PNGs served below the site.
func (s *Site) localized(m map[string]any) map[string]any {
	m = Copy(s.net.tb, m)
	p := m["project"].(map[string]any)
	media, _ := p["media"].([]any)
	for i, it := range media {
		item := it.(map[string]any)
		for _, field := range []string{"url", "thumbnail"} {
			if _, ok := item[field]; ok {
				path := fmt.Sprintf("%smedia/%s-%d-%s.png", s.Base, p["id"], i, field)
				s.net.Serve(path, "image/png", thumbnail)
				item[field] = s.net.URL(path)
			}
		}
	}
	return m
}

// thumbnail is the PNG every media URL serves: 16×9 pixels of one colour.
var thumbnail = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 9))
	for x := range 16 {
		for y := range 9 {
			img.Set(x, y, color.RGBA{R: 0xc0, G: 0x80, B: 0x30, A: 0xff})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// Refresh runs one refresh of urls into State, six hours after the previous one (the first at
// First), retry waits returning at once; a failure fails the test.
func (n *Net) Refresh(urls ...string) *refresh.Summary {
	n.tb.Helper()
	var srcs []sources.Source
	for i, u := range urls {
		srcs = append(srcs, sources.Source{URL: u, Entry: i + 1})
	}
	at := First.Add(time.Duration(n.runs) * 6 * time.Hour)
	n.runs++
	var progress bytes.Buffer
	sum, err := refresh.Run(context.Background(), refresh.Options{
		State: n.State, Sources: srcs, AllowLoopback: true, Progress: &progress,
		Now:     func() time.Time { return at },
		Sleep:   func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		Timeout: 10 * time.Second,
	})
	if err != nil {
		n.tb.Fatalf("refresh of %q: %v\n%s", urls, err, progress.String())
	}
	return sum
}

// Network publishes corpustest.Generated stand-ins (Candlelight and Tallow at /mods/, Lantern Forge at
// /tools/) and refreshes both twice, Tallow's summary changed between: a state of several
// sites, observed and changed events and a cached image. It returns the sites' URLs.
func (n *Net) Network() []string {
	n.tb.Helper()
	mods, tools := n.Site("/mods/"), n.Site("/tools/")
	urls := []string{mods.URL(""), tools.URL("")}
	tallow := corpustest.Generated(n.tb, "tallow.json")
	mods.Publish(corpustest.Generated(n.tb, "candlelight.json"), tallow)
	tools.Publish(corpustest.Generated(n.tb, "lantern-forge.json"))
	n.Refresh(urls...)
	Obj(n.tb, tallow, "project")["summary"] = "Wakes your script at dusk and at dawn."
	mods.Publish(corpustest.Generated(n.tb, "candlelight.json"), tallow)
	n.Refresh(urls...)
	return urls
}

// Candlelight is the reference's Candlelight fixture: a mod with three releases that requires
// Tallow, provides dreamweave:dynamic-lights, recommends and conflicts.
func Candlelight(tb testing.TB) map[string]any { return corpustest.Fixture(tb, "candlelight.json") }

// Tallow is the reference's Tallow fixture: a library with a stable and a development release.
func Tallow(tb testing.TB) map[string]any { return corpustest.Fixture(tb, "tallow.json") }

// Program is the reference's Lantern Forge fixture: a program built per platform.
func Program(tb testing.TB) map[string]any { return corpustest.Fixture(tb, "lantern-forge.json") }

// Copy is a deep copy of a JSON value.
func Copy(tb testing.TB, m map[string]any) map[string]any {
	tb.Helper()
	var out map[string]any
	if err := json.Unmarshal(Pretty(tb, m), &out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// Pretty is v as JSON, indented by two spaces.
func Pretty(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Get is the value at a path of keys and indexes in a JSON value; a missing path fails the test.
func Get(tb testing.TB, v any, path ...any) any {
	tb.Helper()
	for _, k := range path {
		switch k := k.(type) {
		case string:
			o, ok := v.(map[string]any)
			if !ok {
				tb.Fatalf("%v: not an object at %q", path, k)
			}
			v = o[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				tb.Fatalf("%v: no element %d", path, k)
			}
			v = a[k]
		}
	}
	return v
}

// Obj is Get for an object.
func Obj(tb testing.TB, v any, path ...any) map[string]any {
	tb.Helper()
	o, ok := Get(tb, v, path...).(map[string]any)
	if !ok {
		tb.Fatalf("%v is not an object", path)
	}
	return o
}
