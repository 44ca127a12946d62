package discover

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

const (
	indexDoc    = `{"schema_version": "2", "document": "index", "site": {"name": "S", "url": "https://site.invalid/"}, "projects": []}`
	manifestDoc = `{"schema_version": "2", "document": "project", "project": {"id": "x"}}`
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func page(head string) *fstest.MapFile {
	return file("<!doctype html><html><head><title>t</title>" + head + "</head><body><p>hello</p></body></html>")
}

const indexLink = `<link rel="alternate" type="application/vnd.dreamweave.index+json" href="%s">`

func link(href string) string { return strings.Replace(indexLink, "%s", href, 1) }

// serve starts the loopback server over root with rules; URLs are base + "<host>/<path>".
func serve(t *testing.T, root fstest.MapFS, rules ...loopback.Rule) *loopback.Server {
	t.Helper()
	s, err := loopback.Start(root, loopback.Options{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func client(o guard.Options) *guard.Client {
	o.AllowLoopback = true
	return guard.New(o)
}

func st(url, outcome string) store.TrailStep { return store.TrailStep{URL: url, Outcome: outcome} }

func checkTrail(t *testing.T, got []store.TrailStep, want ...store.TrailStep) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		var g, w strings.Builder
		for _, s := range got {
			g.WriteString("\n  " + s.URL + " -> " + s.Outcome)
		}
		for _, s := range want {
			w.WriteString("\n  " + s.URL + " -> " + s.Outcome)
		}
		t.Errorf("trail:%s\nwant:%s", g.String(), w.String())
	}
}

// requested lists the paths the server saw, in order.
func requested(s *loopback.Server) []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Path)
	}
	return out
}

func TestIndexURLDirectly(t *testing.T) {
	s := serve(t, fstest.MapFS{"s.example/dreamweave.json": file(indexDoc)})
	u := s.URL() + "s.example/dreamweave.json"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil {
		t.Fatal(err)
	}
	if res.IndexURL != u || res.Method != MethodIndex || res.Kind != KindIndex || string(res.Response.Body) != indexDoc {
		t.Errorf("result %+v", res)
	}
	if res.PageValidators != (store.Validators{}) {
		t.Errorf("page validators %+v for an index URL", res.PageValidators)
	}
	checkTrail(t, res.Trail, st(u, OutcomeIndex))
}

func TestNewerSchemaVersionIndexIsStillTheIndex(t *testing.T) {
	doc := `{"schema_version": "3", "document": "index", "anything": []}`
	s := serve(t, fstest.MapFS{"s.example/dreamweave.json": file(doc)})
	res, err := Discover(context.Background(), client(guard.Options{}), s.URL()+"s.example/dreamweave.json", Held{})
	if err != nil || res.Method != MethodIndex || string(res.Response.Body) != doc {
		t.Errorf("newer protocol index: %v %+v", err, res)
	}
}

func TestManifestURLWalksUpToItsSiteIndex(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/site/dreamweave.json":                file(indexDoc),
		"s.example/site/dreamweave/projects/x.json":     file(manifestDoc),
		"s.example/site/dreamweave/projects/index.html": page(""),
	})
	b := s.URL() + "s.example/site/"
	u := b + "dreamweave/projects/x.json"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindProject || res.Method != MethodManifest || res.IndexURL != b+"dreamweave.json" ||
		res.ManifestURL != u || string(res.Manifest.Body) != manifestDoc || string(res.Response.Body) != indexDoc {
		t.Errorf("result %+v", res)
	}
	checkTrail(t, res.Trail,
		st(u, OutcomeManifest),
		st(b+"dreamweave/projects/dreamweave.json", OutcomeNotFound),
		st(b+"dreamweave/dreamweave.json", OutcomeNotFound),
		st(b+"dreamweave.json", OutcomeIndex))
}

func TestManifestWithNoIndexAbove(t *testing.T) {
	s := serve(t, fstest.MapFS{"s.example/p/x.json": file(manifestDoc)})
	u := s.URL() + "s.example/p/x.json"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	var de *Error
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "a project manifest, but no site index was found above it") || res.IndexURL != "" || res.Kind != KindProject {
		t.Errorf("got %v %+v", err, res)
	}
}

func TestPageLinksIndexRelativeAndAbsolute(t *testing.T) {
	s := serve(t, fstest.MapFS{
		// The link points where walking up would never look, so only the link can find it.
		"s.example/site/index.html":         page(link("data/catalog.json")),
		"s.example/site/data/catalog.json":  file(indexDoc),
		"a.example/page/index.html":         page(link("https://cdn.example/x/idx.json")),
		"cdn.example/x/idx.json":            file(indexDoc),
		"r.example/index.html":              page(`<link rel="ALTERNATE feed" type="Application/VND.DreamWeave.Index+JSON; charset=utf-8" href="d/i.json">`),
		"r.example/d/i.json":                file(indexDoc),
		"s.example/site/dreamweave.json":    file(`{"decoy": true}`),
		"a.example/page/dreamweave.json":    file(`{"decoy": true}`),
		"r.example/dreamweave.json":         file(`{"decoy": true}`),
		"s.example/site/data/dreamweave.js": file(""),
	})
	for _, tc := range []struct{ page, index string }{
		{"s.example/site/", "s.example/site/data/catalog.json"},
		{"a.example/page/", "cdn.example/x/idx.json"},
		{"r.example/", "r.example/d/i.json"},
	} {
		u, idx := s.URL()+tc.page, s.URL()+tc.index
		res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
		if err != nil {
			t.Errorf("%s: %v", tc.page, err)
			continue
		}
		if res.Method != MethodLink || res.IndexURL != idx || res.Kind != KindPage || res.PageValidators.ETag == "" {
			t.Errorf("%s: result %+v", tc.page, res)
		}
		checkTrail(t, res.Trail, st(u, "links the site index at "+idx), st(idx, OutcomeIndex))
	}
}

func TestBodyLinksAndAnchorsNeverRead(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/site/index.html": file(`<html><head><title>t</title></head><body>` +
			link("hidden.json") +
			`<a rel="alternate" type="application/vnd.dreamweave.index+json" href="anchor.json">x</a></body></html>`),
		"s.example/site/hidden.json":     file(indexDoc),
		"s.example/site/anchor.json":     file(indexDoc),
		"s.example/site/dreamweave.json": file(indexDoc),
	})
	u := s.URL() + "s.example/site/"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != MethodWalkUp {
		t.Errorf("method %q", res.Method)
	}
	checkTrail(t, res.Trail, st(u, OutcomeNoLink), st(u+"dreamweave.json", OutcomeIndex))
	for _, p := range requested(s) {
		if strings.Contains(p, "hidden") || strings.Contains(p, "anchor") {
			t.Errorf("requested %s, linked only from the body", p)
		}
	}
}

func TestMalformedHTMLWalksUp(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/site/index.html":      file("<html><head><link rel=alternate type=application/vnd.dreamweave.index+json href=\"x.json"),
		"s.example/site/dreamweave.json": file(indexDoc),
	})
	u := s.URL() + "s.example/site/"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil || res.Method != MethodWalkUp {
		t.Fatalf("%v %+v", err, res)
	}
	checkTrail(t, res.Trail, st(u, OutcomeNoLink), st(u+"dreamweave.json", OutcomeIndex))
}

func TestLinkLeadingNowhereFallsBackToWalkUp(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/site/index.html":      page(link("missing.json")),
		"s.example/site/dreamweave.json": file(indexDoc),
	})
	u := s.URL() + "s.example/site/"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil || res.Method != MethodWalkUp || res.IndexURL != u+"dreamweave.json" {
		t.Fatalf("%v %+v", err, res)
	}
	checkTrail(t, res.Trail,
		st(u, "links the site index at "+u+"missing.json"),
		st(u+"missing.json", OutcomeNotFound),
		st(u+"dreamweave.json", OutcomeIndex))
}

func TestPageLinksProjectManifest(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/mod/index.html":                 page(`<link rel="alternate" type="application/vnd.dreamweave.project+json" href="../dreamweave/projects/x.json">`),
		"s.example/dreamweave/projects/x.json":     file(manifestDoc),
		"s.example/dreamweave.json":                file(indexDoc),
		"s.example/dreamweave/projects/index.html": page(""),
	})
	b := s.URL() + "s.example/"
	res, err := Discover(context.Background(), client(guard.Options{}), b+"mod/", Held{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != MethodLinkManifest || res.Kind != KindPage || res.ManifestURL != b+"dreamweave/projects/x.json" || res.IndexURL != b+"dreamweave.json" {
		t.Errorf("result %+v", res)
	}
	checkTrail(t, res.Trail,
		st(b+"mod/", "links a project manifest at "+b+"dreamweave/projects/x.json"),
		st(b+"dreamweave/projects/x.json", OutcomeManifest),
		st(b+"dreamweave/projects/dreamweave.json", OutcomeNotFound),
		st(b+"dreamweave/dreamweave.json", OutcomeNotFound),
		st(b+"dreamweave.json", OutcomeIndex))
}

func TestWalkUpFromDeepPage(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/a/b/c/page.html":   page(""),
		"s.example/a/dreamweave.json": file(indexDoc),
		// a manifest at a nearer level is not a site index
		"s.example/a/b/dreamweave.json": file(manifestDoc),
	})
	b := s.URL() + "s.example/a/"
	u := b + "b/c/page.html?utm=1#top"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != MethodWalkUp || res.IndexURL != b+"dreamweave.json" || res.Kind != KindPage {
		t.Errorf("result %+v", res)
	}
	checkTrail(t, res.Trail,
		st(u, OutcomeNoLink),
		st(b+"b/c/dreamweave.json", OutcomeNotFound),
		st(b+"b/dreamweave.json", OutcomeManifest+", not a site index"),
		st(b+"dreamweave.json", OutcomeIndex))
}

func TestWalkUpToOriginRoot(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/deep/page/index.html": page(""),
		"dreamweave.json":                file(indexDoc), // the loopback origin's root
	})
	b := s.URL()
	u := b + "s.example/deep/page/"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil {
		t.Fatal(err)
	}
	if res.IndexURL != b+"dreamweave.json" || res.Method != MethodWalkUp {
		t.Errorf("result %+v", res)
	}
	checkTrail(t, res.Trail,
		st(u, OutcomeNoLink),
		st(u+"dreamweave.json", OutcomeNotFound),
		st(b+"s.example/deep/dreamweave.json", OutcomeNotFound),
		st(b+"s.example/dreamweave.json", OutcomeNotFound),
		st(b+"dreamweave.json", OutcomeIndex))
}

func TestNothingFoundListsEveryURLTried(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/x/index.html":      page(""),
		"s.example/x/dreamweave.json": file(`{"schema_version": "2"}`),
		"s.example/dreamweave.json":   file(`[1, 2`),
	}, loopback.Rule{Path: "^/dreamweave.json$", Status: 500})
	b := s.URL()
	u := b + "s.example/x/"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	var de *Error
	if !errors.As(err, &de) || de.URL != u || de.Err != nil {
		t.Fatalf("got %v; want *Error for %s", err, u)
	}
	want := "no DreamWeave <link> and no dreamweave.json in any parent directory"
	if res.Problem != want || de.Problem != want || res.IndexURL != "" || res.Response != nil || res.Method != "" {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(err.Error(), u) || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q", err)
	}
	checkTrail(t, res.Trail,
		st(u, OutcomeNoLink),
		st(u+"dreamweave.json", `JSON, but not a DreamWeave document (no schema_version, or document is not "index" or "project")`),
		st(b+"s.example/dreamweave.json", "not valid JSON (Content-Type: application/json)"),
		st(b+"dreamweave.json", "HTTP 500 (internal server error)"))
}

func TestURLNotFoundStillWalksUp(t *testing.T) {
	s := serve(t, fstest.MapFS{"s.example/dreamweave.json": file(indexDoc)})
	b := s.URL() + "s.example/"
	res, err := Discover(context.Background(), client(guard.Options{}), b+"gone/page", Held{})
	if err != nil || res.Kind != KindOther || res.IndexURL != b+"dreamweave.json" {
		t.Fatalf("%v %+v", err, res)
	}
	checkTrail(t, res.Trail,
		st(b+"gone/page", OutcomeNotFound),
		st(b+"gone/dreamweave.json", OutcomeNotFound),
		st(b+"dreamweave.json", OutcomeIndex))
}

func TestRedirectsRecorded(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"new.example/site/index.html":      page(""),
		"new.example/site/dreamweave.json": file(indexDoc),
	}, loopback.Rule{Path: "^/old.example/site/$", Redirect: "{base}new.example/site/"})
	b := s.URL()
	res, err := Discover(context.Background(), client(guard.Options{}), b+"old.example/site/", Held{})
	if err != nil {
		t.Fatal(err)
	}
	if res.IndexURL != b+"new.example/site/dreamweave.json" {
		t.Errorf("index %q: walking up starts where the page was served", res.IndexURL)
	}
	checkTrail(t, res.Trail,
		st(b+"old.example/site/", "redirects (HTTP 302) to "+b+"new.example/site/"),
		st(b+"new.example/site/", OutcomeNoLink),
		st(b+"new.example/site/dreamweave.json", OutcomeIndex))
}

func TestRefusedAddressAtEnrolledURLEndsDiscovery(t *testing.T) {
	res, err := Discover(context.Background(), guard.New(guard.Options{}), "http://10.0.0.1/site/", Held{})
	var re *guard.RefusedError
	if !errors.As(err, &re) || !re.AddressGuard {
		t.Fatalf("got %v; want an *Error wrapping the guard's refusal", err)
	}
	if !strings.HasPrefix(res.Problem, "refused by the address guard: 10.0.0.1 is private") || res.Kind != "" {
		t.Errorf("result %+v", res)
	}
	checkTrail(t, res.Trail, st("http://10.0.0.1/site/", res.Problem))
}

func TestRedirectIntoMetadataRefused(t *testing.T) {
	s := serve(t, fstest.MapFS{"s.example/dreamweave.json": file(indexDoc)},
		loopback.Rule{Path: "^/s.example/site/$", Redirect: "http://169.254.169.254/latest/meta-data/"},
		loopback.Rule{Path: "^/s.example/other/dreamweave.json$", Redirect: "http://[::ffff:127.0.0.1]/"})
	b := s.URL() + "s.example/"
	res, err := Discover(context.Background(), client(guard.Options{}), b+"site/", Held{})
	if err == nil {
		t.Fatal("discovery through a redirect into 169.254.169.254 succeeded")
	}
	checkTrail(t, res.Trail,
		st(b+"site/", "redirects (HTTP 302) to http://169.254.169.254/latest/meta-data/"),
		st("http://169.254.169.254/latest/meta-data/", "refused by the address guard: 169.254.169.254 is link-local (169.254.0.0/16, where cloud metadata services live)"))
	// At a walk-up level a refusal is recorded and the walk goes on.
	res, err = Discover(context.Background(), client(guard.Options{}), b+"other/page", Held{})
	if err != nil || res.IndexURL != b+"dreamweave.json" {
		t.Fatalf("%v %+v", err, res)
	}
	checkTrail(t, res.Trail,
		st(b+"other/page", OutcomeNotFound),
		st(b+"other/dreamweave.json", "redirects (HTTP 302) to http://[::ffff:127.0.0.1]/"),
		st("http://[::ffff:127.0.0.1]/", "refused by the address guard: ::ffff:127.0.0.1 is an IPv4-mapped IPv6 address (::ffff:0:0/96; refused outright)"),
		st(b+"dreamweave.json", OutcomeIndex))
}

func TestFailuresAtEnrolledURL(t *testing.T) {
	s := serve(t, fstest.MapFS{"s.example/big.json": file(strings.Repeat(" ", 2048) + indexDoc)},
		loopback.Rule{Path: "^/s.example/slow/", Delay: time.Minute})
	for _, tc := range []struct {
		path, words string
		o           guard.Options
	}{
		{"s.example/slow/", "timed out after 50ms", guard.Options{Timeout: 50 * time.Millisecond}},
		{"s.example/big.json", "refused by crawler policy: over the 1 KiB limit", guard.Options{MaxBytes: 1024}},
		{"s.example/x", "refused: scheme \"file\" is not http or https", guard.Options{}},
	} {
		u := s.URL() + tc.path
		if tc.path == "s.example/x" {
			u = "file:///etc/passwd"
		}
		res, err := Discover(context.Background(), client(tc.o), u, Held{})
		if err == nil || res.Problem != tc.words || len(res.Trail) != 1 || res.Trail[0] != st(u, tc.words) {
			t.Errorf("%s: %v %+v; want only %q", u, err, res, tc.words)
		}
	}
	// unreachable: a port nobody listens on
	res, err := Discover(context.Background(), client(guard.Options{}), "http://127.0.0.1:1/", Held{})
	if err == nil || !strings.HasPrefix(res.Problem, "unreachable: ") || len(res.Trail) != 1 {
		t.Errorf("unreachable: %v %+v", err, res)
	}
}

// held builds what the crawler would hold after a discovery.
func held(enrolled string, res *Result) Held {
	v := map[string]store.Validators{res.IndexURL: {ETag: res.Response.ETag(), LastModified: res.Response.LastModified()}}
	if res.PageValidators != (store.Validators{}) {
		v[enrolled] = res.PageValidators
	}
	return Held{Validators: v, IndexURL: res.IndexURL, Method: res.Method}
}

func TestSecondDiscoveryIsAllNotModified(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"walk.example/site/index.html":      page(""),
		"walk.example/site/dreamweave.json": file(indexDoc),
		"link.example/site/index.html":      page(link("i/idx.json")),
		"link.example/site/i/idx.json":      file(indexDoc),
		"idx.example/dreamweave.json":       file(indexDoc),
		"deep.example/a/b/index.html":       page(""),
		"deep.example/dreamweave.json":      file(indexDoc),
	})
	b := s.URL()
	cases := []struct {
		enrolled string
		second   []store.TrailStep
		paths    []string
	}{
		{b + "walk.example/site/", []store.TrailStep{st(b+"walk.example/site/", OutcomePageUnchanged), st(b+"walk.example/site/dreamweave.json", OutcomeIndexUnchanged)}, nil},
		{b + "link.example/site/", []store.TrailStep{st(b+"link.example/site/", OutcomePageUnchanged), st(b+"link.example/site/i/idx.json", OutcomeIndexUnchanged)}, nil},
		{b + "idx.example/dreamweave.json", []store.TrailStep{st(b+"idx.example/dreamweave.json", OutcomeIndexUnchanged)}, nil},
		// walking past a level costs its 404 again: a nearer index would be found
		{b + "deep.example/a/b/", []store.TrailStep{st(b+"deep.example/a/b/", OutcomePageUnchanged), st(b+"deep.example/a/b/dreamweave.json", OutcomeNotFound), st(b+"deep.example/a/dreamweave.json", OutcomeNotFound), st(b+"deep.example/dreamweave.json", OutcomeIndexUnchanged)}, nil},
	}
	c := client(guard.Options{})
	for _, tc := range cases {
		first, err := Discover(context.Background(), c, tc.enrolled, Held{})
		if err != nil {
			t.Fatalf("%s: %v", tc.enrolled, err)
		}
		s.ResetRequests()
		second, err := Discover(context.Background(), c, tc.enrolled, held(tc.enrolled, first))
		if err != nil {
			t.Fatalf("%s second: %v", tc.enrolled, err)
		}
		checkTrail(t, second.Trail, tc.second...)
		if second.IndexURL != first.IndexURL || second.Method != first.Method || !second.Response.NotModified || second.Kind != first.Kind || second.PageValidators != first.PageValidators {
			t.Errorf("%s: second %+v\nfirst %+v", tc.enrolled, second, first)
		}
		for _, r := range s.Requests() {
			if r.Status != 304 && r.Status != 404 {
				t.Errorf("%s: second discovery requested %s, answered %d", tc.enrolled, r.Path, r.Status)
			}
			if r.Status == 304 && r.IfNoneMatch == "" {
				t.Errorf("%s: 304 for %s without If-None-Match", tc.enrolled, r.Path)
			}
		}
	}
}

func TestChangedPageIsReadAgain(t *testing.T) {
	root := fstest.MapFS{
		"s.example/site/index.html":      page(""),
		"s.example/site/dreamweave.json": file(indexDoc),
		"s.example/site/new/i.json":      file(indexDoc),
	}
	s := serve(t, root)
	u := s.URL() + "s.example/site/"
	c := client(guard.Options{})
	first, err := Discover(context.Background(), c, u, Held{})
	if err != nil {
		t.Fatal(err)
	}
	// The page now links another index: its ETag changes, so it is read and followed.
	root["s.example/site/index.html"] = page(link("new/i.json"))
	if err := s.SetRoot(root); err != nil {
		t.Fatal(err)
	}
	second, err := Discover(context.Background(), c, u, held(u, first))
	if err != nil {
		t.Fatal(err)
	}
	if second.Method != MethodLink || second.IndexURL != u+"new/i.json" || second.Response.NotModified {
		t.Errorf("second %+v", second)
	}
	checkTrail(t, second.Trail, st(u, "links the site index at "+u+"new/i.json"), st(u+"new/i.json", OutcomeIndex))
}

func TestUnchangedPageWhoseIndexIsGone(t *testing.T) {
	root := fstest.MapFS{
		"s.example/site/index.html":      page(link("i.json")),
		"s.example/site/i.json":          file(indexDoc),
		"s.example/site/dreamweave.json": file(indexDoc),
	}
	s := serve(t, root)
	u := s.URL() + "s.example/site/"
	c := client(guard.Options{})
	first, err := Discover(context.Background(), c, u, Held{})
	if err != nil || first.Method != MethodLink {
		t.Fatal(err, first)
	}
	delete(root, "s.example/site/i.json")
	s.SetRoot(root)
	second, err := Discover(context.Background(), c, u, held(u, first))
	if err != nil {
		t.Fatal(err)
	}
	if second.Method != MethodWalkUp || second.IndexURL != u+"dreamweave.json" {
		t.Errorf("second %+v", second)
	}
	checkTrail(t, second.Trail,
		st(u, OutcomePageUnchanged),
		st(u+"i.json", OutcomeNotFound),
		st(u+"dreamweave.json", OutcomeIndex))
}

func TestWalkUpURLs(t *testing.T) {
	for in, want := range map[string][]string{
		"https://h.example/a/b/page.html?x=1#y": {"https://h.example/a/b/dreamweave.json", "https://h.example/a/dreamweave.json", "https://h.example/dreamweave.json"},
		"https://h.example/a/b/":                {"https://h.example/a/b/dreamweave.json", "https://h.example/a/dreamweave.json", "https://h.example/dreamweave.json"},
		"https://h.example":                     {"https://h.example/dreamweave.json"},
		"https://h.example/?q":                  {"https://h.example/dreamweave.json"},
		"http://h.example:8080/x%20y/z":         {"http://h.example:8080/x%20y/dreamweave.json", "http://h.example:8080/dreamweave.json"},
		"https://h.example//a//":                {"https://h.example//a//dreamweave.json", "https://h.example//a/dreamweave.json", "https://h.example//dreamweave.json", "https://h.example/dreamweave.json"},
		"not a url":                             nil,
		"/relative/path":                        nil,
	} {
		if got := WalkUpURLs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("WalkUpURLs(%q) = %q; want %q", in, got, want)
		}
	}
}
