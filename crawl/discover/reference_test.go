package discover

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// The reference index's discovery tests, ported black-box: the same sites served on one
// loopback origin (root-relative hrefs work as on a real host), the same question asked of
// Discover, the answer checked in this package's terms (its methods and errors). Where the two
// indexes differ on purpose the test says so and asserts this index's behaviour; the about/state
// page lists those differences with their reasons.

const (
	refIndex    = `{"schema_version": "2", "document": "index", "site": {"name": "Fixture site", "url": "https://fixture.invalid/"}, "projects": []}`
	refManifest = `{"schema_version": "2", "document": "project", "project": {"id": "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"}}`
)

func refPage(head string) string {
	return "<!DOCTYPE html><html><head><title>Candlelight</title>" + head + "</head><body><h1>Candlelight</h1></body></html>"
}

// refServer is one origin: routes by path, every request logged.
type refServer struct {
	*httptest.Server
	mu     sync.Mutex
	routes map[string]func(w http.ResponseWriter, r *http.Request)
	paths  []string
}

func newRefServer(t *testing.T) *refServer {
	t.Helper()
	s := &refServer{routes: map[string]func(http.ResponseWriter, *http.Request){}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		h := s.routes[r.URL.Path]
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *refServer) serve(path, contentType, body string) {
	s.route(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write([]byte(body))
	})
}

func (s *refServer) json(path, body string) { s.serve(path, "application/json", body) }
func (s *refServer) html(path, body string) { s.serve(path, "text/html; charset=utf-8", body) }

func (s *refServer) redirect(from, to string) {
	s.route(from, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusMovedPermanently) })
}

// hangUp closes the connection without an answer.
func (s *refServer) hangUp(path string) {
	s.route(path, func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
}

func (s *refServer) route(path string, h func(http.ResponseWriter, *http.Request)) {
	s.mu.Lock()
	s.routes[path] = h
	s.mu.Unlock()
}

func (s *refServer) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

func (s *refServer) discover(t *testing.T, path string) (*Result, error) {
	t.Helper()
	return Discover(context.Background(), client(guard.Options{}), s.URL+path, Held{})
}

func (s *refServer) mustFind(t *testing.T, path, method, index string) *Result {
	t.Helper()
	res, err := s.discover(t, path)
	if err != nil {
		t.Fatalf("discover %s: %v", path, err)
	}
	if res.Method != method || res.IndexURL != s.URL+index {
		t.Fatalf("discover %s: method %q, index %q; want %q, %q", path, res.Method, res.IndexURL, method, s.URL+index)
	}
	return res
}

func trailPaths(res *Result) []string {
	var out []string
	for _, st := range res.Trail {
		u, _ := url.Parse(st.URL)
		out = append(out, u.Path)
	}
	return out
}

func TestReferenceDirectIndexURL(t *testing.T) {
	s := newRefServer(t)
	s.json("/mods/dreamweave.json", refIndex)
	s.mustFind(t, "/mods/dreamweave.json", MethodIndex, "/mods/dreamweave.json")
}

func TestReferenceDirectManifestURLWalksUpToItsIndex(t *testing.T) {
	s := newRefServer(t)
	s.json("/mods/dreamweave.json", refIndex)
	s.json("/mods/dreamweave/projects/candlelight.json", refManifest)
	res := s.mustFind(t, "/mods/dreamweave/projects/candlelight.json", MethodManifest, "/mods/dreamweave.json")
	if res.Kind != KindProject || res.ManifestURL != s.URL+"/mods/dreamweave/projects/candlelight.json" {
		t.Errorf("kind %q, manifest %q", res.Kind, res.ManifestURL)
	}
}

func TestReferencePageLinkingTheIndex(t *testing.T) {
	s := newRefServer(t)
	s.html("/mods/candlelight/", refPage(`<link rel="stylesheet" href="/site.css"><link rel="alternate" type="application/vnd.dreamweave.index+json" href="../dreamweave.json">`))
	s.json("/mods/dreamweave.json", refIndex)
	s.mustFind(t, "/mods/candlelight/", MethodLink, "/mods/dreamweave.json")
}

func TestReferenceRelAndTypeMatchedCaseInsensitively(t *testing.T) {
	s := newRefServer(t)
	s.html("/mods/", refPage(`<LINK REL="Alternate Feed" TYPE="Application/Vnd.DreamWeave.Index+JSON" HREF="/mods/dreamweave.json">`))
	s.json("/mods/dreamweave.json", refIndex)
	s.mustFind(t, "/mods/", MethodLink, "/mods/dreamweave.json")
}

// The page links only its project manifest, which is not served: the site index is found by
// walking up from the manifest's URL, and the trail says what the manifest answered.
func TestReferencePageLinkingOnlyItsManifest(t *testing.T) {
	s := newRefServer(t)
	s.html("/mods/candlelight/", refPage(`<link rel="alternate" type="application/vnd.dreamweave.project+json" href="/mods/dreamweave/projects/candlelight.json">`))
	s.json("/mods/dreamweave.json", refIndex)
	res := s.mustFind(t, "/mods/candlelight/", MethodLinkManifest, "/mods/dreamweave.json")
	m := s.URL + "/mods/dreamweave/projects/candlelight.json"
	if res.ManifestURL != m || res.Manifest != nil {
		t.Errorf("manifest %q (response %v); want %q, none", res.ManifestURL, res.Manifest != nil, m)
	}
	if len(res.Trail) < 2 || res.Trail[1].URL != m || !strings.HasPrefix(res.Trail[1].Outcome, OutcomeNotFound) {
		t.Errorf("the trail does not say what the manifest answered: %+v", res.Trail)
	}
}

func TestReferencePageWithoutLinksFallsBackToTheParentPath(t *testing.T) {
	s := newRefServer(t)
	s.html("/mods/candlelight/docs/events.html", refPage(""))
	s.json("/mods/dreamweave.json", refIndex)
	res := s.mustFind(t, "/mods/candlelight/docs/events.html", MethodWalkUp, "/mods/dreamweave.json")
	want := []string{"/mods/candlelight/docs/events.html", "/mods/candlelight/docs/dreamweave.json", "/mods/candlelight/dreamweave.json", "/mods/dreamweave.json"}
	if got := trailPaths(res); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tried %q; want %q", got, want)
	}
}

// GitHub Pages: a project site below the account's user site; both publish an index, and the
// nearer one belongs to the page.
func TestReferenceProjectSiteBelowAUserSiteFindsItsOwnIndexFirst(t *testing.T) {
	s := newRefServer(t)
	s.json("/dreamweave.json", strings.Replace(refIndex, "Fixture site", "Someone else's user site", 1))
	s.json("/cool-mods/dreamweave.json", refIndex)
	s.html("/cool-mods/candlelight/", refPage(""))
	s.mustFind(t, "/cool-mods/candlelight/", MethodWalkUp, "/cool-mods/dreamweave.json")
}

func TestReferenceMovedSiteFollowedThroughItsRedirect(t *testing.T) {
	s := newRefServer(t)
	s.redirect("/old-home/", "/new-home/")
	s.html("/new-home/", refPage(`<link rel="alternate" type="application/vnd.dreamweave.index+json" href="dreamweave.json">`))
	s.json("/new-home/dreamweave.json", refIndex)
	s.mustFind(t, "/old-home/", MethodLink, "/new-home/dreamweave.json")
}

// A <link> whose href is not a URL is skipped, the path is walked, and the trail says the link
// was ignored and why (FORMATS: `ignored <link> href "<href>": <why>`).
func TestReferenceMalformedAlternateLinkIgnoredAndThePathWalked(t *testing.T) {
	s := newRefServer(t)
	s.html("/mods/", refPage(`<link rel="alternate" type="application/vnd.dreamweave.index+json" href="http://[::1">`))
	s.json("/mods/dreamweave.json", refIndex)
	res := s.mustFind(t, "/mods/", MethodWalkUp, "/mods/dreamweave.json")
	want := []string{OutcomeNoLink, `ignored <link> href "http://[::1": not a URL (missing ']' in host)`, OutcomeIndex}
	var got []string
	for _, st := range res.Trail {
		got = append(got, st.Outcome)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || res.Trail[1].URL != s.URL+"/mods/" {
		t.Errorf("trail %+v; want outcomes %q, the ignored link's step at the page", res.Trail, want)
	}
}

func TestReferenceAdvertisedIndexMissingIsReportedNotGuessedAround(t *testing.T) {
	s := newRefServer(t)
	s.html("/mods/", refPage(`<link rel="alternate" type="application/vnd.dreamweave.index+json" href="/elsewhere/dreamweave.json">`))
	s.json("/mods/dreamweave.json", refIndex)
	_, err := s.discover(t, "/mods/")
	var de *Error
	if !errors.As(err, &de) || !de.BrokenLink {
		t.Fatalf("err = %v; want a broken link", err)
	}
	for _, p := range s.requested() {
		if p == "/mods/dreamweave.json" {
			t.Errorf("discovery guessed around the broken link: asked %s", p)
		}
	}
}

func TestReferenceNothingAnywhereIsNotFound(t *testing.T) {
	s := newRefServer(t)
	s.html("/plain/page.html", refPage(""))
	res, err := s.discover(t, "/plain/page.html")
	var de *Error
	if !errors.As(err, &de) || de.Outage || de.BrokenLink {
		t.Fatalf("err = %v; want not found (no outage, no broken link)", err)
	}
	if p := trailPaths(res); p[len(p)-1] != "/dreamweave.json" {
		t.Errorf("the walk ended at %s; want the origin's root", p[len(p)-1])
	}
}

// A site index of a newer protocol ends discovery where it is (nothing above it is tried); this
// index returns it as the site index found and lets the protocol check give the verdict
// (protocol.IsNewerProtocol), which the refresh records as unsupported-version with the last
// good data kept. The reference fails discovery itself; the walk and what is recorded agree.
func TestReferenceNewerProtocolStopsDiscovery(t *testing.T) {
	s := newRefServer(t)
	s.json("/mods/dreamweave.json", strings.Replace(refIndex, `"schema_version": "2"`, `"schema_version": "3"`, 1))
	res := s.mustFind(t, "/mods/", MethodWalkUp, "/mods/dreamweave.json")
	if _, fs := protocol.Decode(res.Response.Body); !protocol.IsNewerProtocol(fs) {
		t.Errorf("findings %v; want a newer protocol", fs)
	}
	if got := s.requested(); got[len(got)-1] != "/mods/dreamweave.json" {
		t.Errorf("asked %q after the newer index", got)
	}
}

func TestReferenceUnreachableHostIsNotWalked(t *testing.T) {
	s := newRefServer(t)
	s.hangUp("/mods/")
	_, err := s.discover(t, "/mods/")
	var de *Error
	if !errors.As(err, &de) || !de.Outage || guard.KindOf(err) != guard.KindNetwork {
		t.Fatalf("err = %v; want an outage (a network failure)", err)
	}
	if got := s.requested(); len(got) != 1 || got[0] != "/mods/" {
		t.Errorf("asked %q; want only /mods/", got)
	}
}
