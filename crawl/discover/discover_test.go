package discover

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
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

// A page whose DreamWeave index <link> cannot be read as what it advertises stops discovery
// there, a broken link (the protocol's step 2: "Stop."): dreamweave.json beside the page and
// above it is never asked. A link whose target does not answer at all is an outage, not a broken
// link, and stops discovery too. (A project manifest link leads to walking up from the
// manifest's URL whatever it answers: TestProjectLinkWalksUpWhateverTheManifestAnswers.)
func TestBrokenLinkStopsDiscovery(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/404/index.html":       page(link("missing.json")),
		"s.example/html/index.html":      page(link("page.html")),
		"s.example/html/page.html":       page(""),
		"s.example/man/index.html":       page(link("x.json")),
		"s.example/man/x.json":           file(manifestDoc),
		"s.example/bad/index.html":       page(link("bad.json")),
		"s.example/bad/bad.json":         file(`{"schema_version": "2", `),
		"s.example/other/index.html":     page(link("o.json")),
		"s.example/other/o.json":         file(`{"hello": 1}`),
		"s.example/down/index.html":      page(link("i.json")),
		"s.example/dreamweave.json":      file(indexDoc),
		"s.example/404/dreamweave.json":  file(indexDoc),
		"s.example/html/dreamweave.json": file(indexDoc),
	}, loopback.Rule{Path: "^/s.example/down/i.json$", Status: 503})
	b := s.URL() + "s.example/"
	for _, tc := range []struct {
		dir, href, outcome, answer string
		status                     int
		broken                     bool
	}{
		{"404", "missing.json", OutcomeNotFound, "the linked site index %s answered HTTP 404 (not found)", 404, true},
		{"html", "page.html", OutcomeNoLink, "the linked site index %s served an HTML page", 200, true},
		{"man", "x.json", OutcomeManifest, "the linked site index %s served a project manifest, not a site index", 200, true},
		{"bad", "bad.json", "not well-formed JSON: ", "the linked site index %s served a document that is not well-formed JSON: ", 200, true},
		{"other", "o.json", "JSON, but not a DreamWeave document", "the linked site index %s served a document that is not DreamWeave JSON", 200, true},
		{"down", "i.json", "HTTP 503 (service unavailable)", "the linked site index %s answered HTTP 503 (service unavailable)", 503, false},
	} {
		s.ResetRequests()
		u := b + tc.dir + "/"
		target := u + tc.href
		res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
		var de *Error
		if !errors.As(err, &de) || de.BrokenLink != tc.broken || de.Outage == tc.broken || de.At != target || de.Status != tc.status || res.IndexURL != "" || res.Response != nil {
			t.Errorf("%s: %v %+v; want broken link %v at %s", tc.dir, err, de, tc.broken, target)
			continue
		}
		answer := strings.Replace(tc.answer, "%s", target, 1)
		if !strings.Contains(res.Problem, answer) || res.Problem != de.Problem {
			t.Errorf("%s: problem %q, want it to say %q", tc.dir, res.Problem, answer)
		}
		if tc.broken && !strings.HasPrefix(res.Problem, "the page's DreamWeave <link> is broken: ") {
			t.Errorf("%s: problem %q does not say the link is broken", tc.dir, res.Problem)
		}
		if len(res.Trail) != 2 || res.Trail[1].URL != target || !strings.HasPrefix(res.Trail[1].Outcome, tc.outcome) {
			t.Errorf("%s: trail %+v", tc.dir, res.Trail)
		}
		for _, p := range requested(s) {
			if strings.HasSuffix(p, "/dreamweave.json") {
				t.Errorf("%s: discovery walked around the link to %s", tc.dir, p)
			}
		}
	}
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

// A page whose <link> names only its project manifest leads to the site index by walking up
// from the manifest's URL, whether or not the manifest answers: what it answered is in the
// trail, the manifest URL is reported for the crawler's "does the index list it" check, and a
// manifest missing, down or serving something else does not hide the index above it.
func TestProjectLinkWalksUpWhateverTheManifestAnswers(t *testing.T) {
	projectLink := strings.Replace(indexLink, "index+json", "project+json", 1)
	plink := func(href string) *fstest.MapFile { return page(strings.Replace(projectLink, "%s", href, 1)) }
	s := serve(t, fstest.MapFS{
		"s.example/ok/index.html":           plink("../mods/projects/x.json"),
		"s.example/missing/index.html":      plink("../mods/projects/gone.json"),
		"s.example/down/index.html":         plink("../mods/projects/down.json"),
		"s.example/idx/index.html":          plink("../mods/projects/i.json"),
		"s.example/mods/projects/x.json":    file(manifestDoc),
		"s.example/mods/projects/i.json":    file(indexDoc),
		"s.example/mods/dreamweave.json":    file(indexDoc),
		"s.example/ok/dreamweave.json":      file(indexDoc), // beside the page: never the one adopted
		"s.example/missing/dreamweave.json": file(indexDoc),
	}, loopback.Rule{Path: "^/s.example/mods/projects/down.json$", Status: 503})
	b := s.URL() + "s.example/"
	for _, tc := range []struct {
		dir, file, outcome string
		manifest           bool
	}{
		{"ok", "x.json", OutcomeManifest, true},
		{"missing", "gone.json", OutcomeNotFound + ", not a project manifest; the site index is looked for above the linked URL all the same", false},
		{"down", "down.json", "HTTP 503 (service unavailable), not a project manifest; the site index is looked for above the linked URL all the same", false},
		{"idx", "i.json", OutcomeIndex + ", not a project manifest; the site index is looked for above the linked URL all the same", false},
	} {
		u := b + tc.dir + "/"
		m := b + "mods/projects/" + tc.file
		res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
		if err != nil {
			t.Errorf("%s: %v", tc.dir, err)
			continue
		}
		if res.Method != MethodLinkManifest || res.Kind != KindPage || res.IndexURL != b+"mods/dreamweave.json" || res.ManifestURL != m || (res.Manifest != nil) != tc.manifest {
			t.Errorf("%s: method %q kind %q index %q manifest %q (response %v)", tc.dir, res.Method, res.Kind, res.IndexURL, res.ManifestURL, res.Manifest != nil)
		}
		checkTrail(t, res.Trail,
			st(u, "links a project manifest at "+m),
			st(m, tc.outcome),
			st(b+"mods/projects/dreamweave.json", OutcomeNotFound),
			st(b+"mods/dreamweave.json", OutcomeIndex))
	}
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
		"s.example/dreamweave.json":   file(manifestDoc),
	}, loopback.Rule{Path: "^/dreamweave.json$", Status: 410})
	b := s.URL()
	u := b + "s.example/x/"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	var de *Error
	if !errors.As(err, &de) || de.URL != u || de.Err != nil || de.Outage || de.At != "" {
		t.Fatalf("got %v (%+v); want a definite *Error for %s, no outage", err, de, u)
	}
	want := "no DreamWeave <link> and no dreamweave.json in any parent directory"
	if res.Problem != want || de.Problem != want || err.Error() != want || res.IndexURL != "" || res.Response != nil || res.Method != "" {
		t.Errorf("result %+v", res)
	}
	checkTrail(t, res.Trail,
		st(u, OutcomeNoLink),
		st(u+"dreamweave.json", `JSON, but not a DreamWeave document (no schema_version, or document is not "index" or "project")`),
		st(b+"s.example/dreamweave.json", OutcomeManifest+", not a site index"),
		st(b+"dreamweave.json", "HTTP 410 (gone)"))
}

// An outage is not an answer: any answer at a walk-up level other than a definite "not here"
// (404, 410, a well-formed document that is not a site index) ends discovery there, the index
// above it is never asked, and the problem names the level and what it answered.
func TestOutageEndsTheWalk(t *testing.T) {
	truncated := indexDoc[:len(indexDoc)-5]
	_, fs := protocol.Decode([]byte(truncated))
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "line 1, column ") {
		t.Fatalf("the strict decoder's finding for a truncated index: %v", fs)
	}
	truncWords := fs[0].String()
	for _, tc := range []struct {
		name    string
		level   *fstest.MapFile
		rule    loopback.Rule
		o       guard.Options
		outcome string // the level's trail step
		problem string // after "walking up the path stopped at <level>, which "
		status  int
		rules   []string // finding rules
	}{
		{"503", nil, loopback.Rule{Status: 503}, guard.Options{}, "HTTP 503 (service unavailable)", "answered HTTP 503 (service unavailable)", 503, nil},
		{"500", nil, loopback.Rule{Status: 500}, guard.Options{}, "HTTP 500 (internal server error)", "answered HTTP 500 (internal server error)", 500, nil},
		{"408", nil, loopback.Rule{Status: 408}, guard.Options{}, "HTTP 408 (request timeout)", "answered HTTP 408 (request timeout)", 408, nil},
		{"429", nil, loopback.Rule{Status: 429}, guard.Options{}, "HTTP 429 (too many requests)", "answered HTTP 429 (too many requests)", 429, nil},
		{"403", nil, loopback.Rule{Status: 403}, guard.Options{}, "HTTP 403 (forbidden)", "answered HTTP 403 (forbidden)", 403, nil},
		// The page before the level must be read within the timeout too: generous, so a loaded
		// machine never makes it the one that times out; the level never answers.
		{"timeout", nil, loopback.Rule{Delay: time.Hour}, guard.Options{Timeout: 2 * time.Second}, "timed out after 2s", "timed out after 2s", 0, nil},
		{"over the limit", file(strings.Repeat(" ", 2048) + indexDoc), loopback.Rule{}, guard.Options{MaxBytes: 1024}, "refused by crawler policy: over the 1 KiB limit", "is over the 1 KiB limit (refused by crawler policy)", 0, nil},
		{"truncated", file(truncated), loopback.Rule{}, guard.Options{},
			"not well-formed JSON: " + truncWords,
			"served a document that is not well-formed JSON: " + truncWords, 200, []string{"json-syntax"}},
		{"byte order mark", file("\ufeff" + indexDoc), loopback.Rule{}, guard.Options{},
			"not well-formed JSON: (document) [json-syntax] malformed JSON at line 1, column 1: the document starts with a UTF-8 byte order mark, which JSON text must not have (RFC 8259 section 8.1)",
			"served a document that is not well-formed JSON: (document) [json-syntax] malformed JSON at line 1, column 1", 200, []string{"json-syntax"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := fstest.MapFS{
				"s.example/site/index.html": page(""),
				"s.example/dreamweave.json": file(indexDoc),
			}
			if tc.level != nil {
				root["s.example/site/dreamweave.json"] = tc.level
			}
			tc.rule.Path = "^/s.example/site/dreamweave.json$"
			s := serve(t, root, tc.rule)
			u := s.URL() + "s.example/site/"
			level := u + "dreamweave.json"
			res, err := Discover(context.Background(), client(tc.o), u, Held{})
			var de *Error
			if !errors.As(err, &de) || !de.Outage || de.At != level || de.Asked != level || de.Status != tc.status || de.Found != "" {
				t.Fatalf("got %v (%+v); want an outage at %s", err, de, level)
			}
			if want := "walking up the path stopped at " + level + ", which " + tc.problem; !strings.HasPrefix(de.Problem, want) ||
				!strings.HasSuffix(de.Problem, "; only a 404 or 410 lets the walk pass a level") || res.Problem != de.Problem {
				t.Errorf("problem %q\nwant it to start %q", de.Problem, want)
			}
			var rules []string
			for _, f := range de.Findings {
				rules = append(rules, f.Rule)
			}
			if !reflect.DeepEqual(rules, tc.rules) {
				t.Errorf("findings %v, want rules %v", de.Findings, tc.rules)
			}
			checkTrail(t, res.Trail, st(u, OutcomeNoLink), st(level, tc.outcome))
			for _, p := range requested(s) {
				if p == "/s.example/dreamweave.json" {
					t.Error("the walk went past an outage to the index above it")
				}
			}
		})
	}
}

// The same duplicate-key defect gets the same verdict whichever duplicate comes last: the
// strict decoder names the key, and discovery stops there (never sniffed as the last value says).
func TestDuplicateKeysSameVerdictEitherOrder(t *testing.T) {
	var problems []string
	for _, order := range [][2]string{{"index", "project"}, {"project", "index"}} {
		doc := strings.Replace(indexDoc, `"document": "index"`, `"document": "`+order[0]+`", "document": "`+order[1]+`"`, 1)
		s := serve(t, fstest.MapFS{"s.example/dreamweave.json": file(doc)})
		u := s.URL() + "s.example/dreamweave.json"
		res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
		var de *Error
		if !errors.As(err, &de) || !de.Outage || res.Kind != KindMalformed || len(de.Findings) != 1 || de.Findings[0].Rule != "duplicate-key" {
			t.Fatalf("%v: %v %+v", order, err, de)
		}
		want := `the enrolled URL ` + u + ` served a document that is not well-formed JSON: /document [duplicate-key] duplicate key "document" in the same object (again at line 1, column `
		if !strings.HasPrefix(de.Problem, want) {
			t.Errorf("%v: problem %q\nwant it to start %q", order, de.Problem, want)
		}
		// The columns differ with the values' lengths; the verdict must not.
		problems = append(problems, regexp.MustCompile(`column \d+`).ReplaceAllString(strings.ReplaceAll(de.Problem, s.URL(), "<base>/"), "column N"))
		if len(requested(s)) != 1 {
			t.Errorf("%v: requests %v; a malformed enrolled document ends discovery", order, requested(s))
		}
	}
	if problems[0] != problems[1] {
		t.Errorf("the verdict depends on key order:\n%s\n%s", problems[0], problems[1])
	}
}

// Over the redirect limit the trail keeps every hop followed; an unparseable Location is reported
// as exactly that.
func TestRedirectFailuresKeepTheTrail(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/bad/":
			w.Header().Set("Location", "http://[::1")
			w.WriteHeader(http.StatusFound)
		case r.URL.Path == "/r/6":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(indexDoc))
		case strings.HasPrefix(r.URL.Path, "/r/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
			http.Redirect(w, r, fmt.Sprintf("/r/%d", n+1), http.StatusTemporaryRedirect)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	b := srv.URL + "/"
	res, err := Discover(context.Background(), client(guard.Options{}), b+"r/0", Held{})
	var de *Error
	if !errors.As(err, &de) || !de.Outage || de.At != b+"r/5" {
		t.Fatalf("%v %+v", err, de)
	}
	var want []store.TrailStep
	for i := 0; i < 5; i++ {
		want = append(want, st(fmt.Sprintf("%sr/%d", b, i), fmt.Sprintf("redirects (HTTP 307) to %sr/%d", b, i+1)))
	}
	want = append(want, st(b+"r/5", "redirect (HTTP 307) not followed: more than 5 redirects (this one to "+b+"r/6)"))
	checkTrail(t, res.Trail, want...)
	if w := "the enrolled URL " + b + "r/0, which redirected to " + b + "r/5, which redirected in a way the crawler does not follow: more than 5 redirects (this one to " + b + "r/6)"; de.Problem != w {
		t.Errorf("problem %q\nwant %q", de.Problem, w)
	}

	res, err = Discover(context.Background(), client(guard.Options{}), b+"bad/", Held{})
	if !errors.As(err, &de) || !de.Outage || de.At != b+"bad/" {
		t.Fatalf("%v %+v", err, de)
	}
	words := `its Location header "http://[::1" does not parse as a URL (missing ']' in host)`
	checkTrail(t, res.Trail, st(b+"bad/", "redirect (HTTP 302) not followed: "+words))
	if w := "the enrolled URL " + b + "bad/ redirected in a way the crawler does not follow: " + words; de.Problem != w {
		t.Errorf("problem %q\nwant %q", de.Problem, w)
	}
}

// A redirect chain that ends at a network error (a dead mirror, a typo'd host) keeps every
// URL tried in the trail, the unreachable one last, as a chain ending at a refusal does
// (b5 case 2: only the enrolled URL was recorded, as unreachable, though it answered 302).
func TestRedirectIntoNetworkErrorKeepsTheTrail(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL + "/elsewhere/dreamweave.json"
	dead.Close() // its port now refuses connections
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/r10":
			http.Redirect(w, r, "/r9", http.StatusFound)
		case "/r9":
			http.Redirect(w, r, deadURL, http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	b := srv.URL + "/"
	res, err := Discover(context.Background(), client(guard.Options{}), b+"r10", Held{})
	var de *Error
	if !errors.As(err, &de) || !de.Outage {
		t.Fatalf("%v %+v", err, de)
	}
	if len(res.Trail) != 3 || res.Trail[2].URL != deadURL || !strings.HasPrefix(res.Trail[2].Outcome, "unreachable: ") {
		t.Fatalf("trail %+v", res.Trail)
	}
	checkTrail(t, res.Trail[:2],
		st(b+"r10", "redirects (HTTP 302) to "+b+"r9"),
		st(b+"r9", "redirects (HTTP 302) to "+deadURL))
	if w := "the enrolled URL " + b + "r10, which redirected to " + deadURL + ", which could not be reached: "; !strings.HasPrefix(de.Problem, w) {
		t.Errorf("problem %q\nwant prefix %q", de.Problem, w)
	}
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
	var de *Error
	if guard.KindOf(err) != guard.KindAddress || !errors.As(err, &de) || !de.Outage || de.At != "http://10.0.0.1/site/" {
		t.Fatalf("got %v; want an *Error wrapping the guard's refusal", err)
	}
	if res.Problem != "the enrolled URL http://10.0.0.1/site/ was refused by the address guard: 10.0.0.1 is private (RFC 1918, 10.0.0.0/8)" || res.Kind != "" {
		t.Errorf("result %+v", res)
	}
	checkTrail(t, res.Trail, st("http://10.0.0.1/site/", "refused by the address guard: 10.0.0.1 is private (RFC 1918, 10.0.0.0/8)"))
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
	refusal := "refused by the address guard: 169.254.169.254 is link-local (169.254.0.0/16, where cloud metadata services live)"
	checkTrail(t, res.Trail,
		st(b+"site/", "redirects (HTTP 302) to http://169.254.169.254/latest/meta-data/"),
		st("http://169.254.169.254/latest/meta-data/", refusal))
	if w := "the enrolled URL " + b + "site/, which redirected to http://169.254.169.254/latest/meta-data/, which was " + refusal; res.Problem != w {
		t.Errorf("problem %q\nwant %q", res.Problem, w)
	}
	// At a walk-up level a refusal ends discovery too: the index above is never asked.
	s.ResetRequests()
	res, err = Discover(context.Background(), client(guard.Options{}), b+"other/page", Held{})
	var de *Error
	if !errors.As(err, &de) || !de.Outage || de.Asked != b+"other/dreamweave.json" || de.At != "http://[::ffff:127.0.0.1]/" {
		t.Fatalf("%v %+v", err, res)
	}
	checkTrail(t, res.Trail,
		st(b+"other/page", OutcomeNotFound),
		st(b+"other/dreamweave.json", "redirects (HTTP 302) to http://[::ffff:127.0.0.1]/"),
		st("http://[::ffff:127.0.0.1]/", "refused by the address guard: ::ffff:127.0.0.1 is an IPv4-mapped IPv6 address (::ffff:0:0/96; refused outright)"))
	for _, p := range requested(s) {
		if p == "/s.example/dreamweave.json" {
			t.Error("the walk went past a refused level")
		}
	}
}

func TestFailuresAtEnrolledURL(t *testing.T) {
	s := serve(t, fstest.MapFS{"s.example/big.json": file(strings.Repeat(" ", 2048) + indexDoc)},
		loopback.Rule{Path: "^/s.example/slow/", Delay: time.Minute},
		loopback.Rule{Path: "^/s.example/down/", Status: 503})
	for _, tc := range []struct {
		path, words, predicate string
		o                      guard.Options
	}{
		{"s.example/slow/", "timed out after 50ms", "timed out after 50ms", guard.Options{Timeout: 50 * time.Millisecond}},
		{"s.example/big.json", "refused by crawler policy: over the 1 KiB limit", "is over the 1 KiB limit (refused by crawler policy)", guard.Options{MaxBytes: 1024}},
		{"s.example/down/", "HTTP 503 (service unavailable)", "answered HTTP 503 (service unavailable)", guard.Options{}},
		{"s.example/x", "refused: scheme \"file\" is not http or https", "was refused: scheme \"file\" is not http or https", guard.Options{}},
	} {
		u := s.URL() + tc.path
		if tc.path == "s.example/x" {
			u = "file:///etc/passwd"
		}
		res, err := Discover(context.Background(), client(tc.o), u, Held{})
		var de *Error
		if !errors.As(err, &de) || !de.Outage || res.Problem != "the enrolled URL "+u+" "+tc.predicate || len(res.Trail) != 1 || res.Trail[0] != st(u, tc.words) {
			t.Errorf("%s: %v %+v; want only %q, problem %q", u, err, res, tc.words, tc.predicate)
		}
	}
	// unreachable: a port nobody listens on
	res, err := Discover(context.Background(), client(guard.Options{}), "http://127.0.0.1:1/", Held{})
	if err == nil || !strings.HasPrefix(res.Problem, "the enrolled URL http://127.0.0.1:1/ could not be reached: dial tcp") || len(res.Trail) != 1 ||
		!strings.HasPrefix(res.Trail[0].Outcome, "unreachable: ") {
		t.Errorf("unreachable: %v %+v", err, res)
	}
	// The caller's context ending (a refresh's budget) is said as such, not as a slow site.
	budget := errors.New("the refresh's overall deadline (1s) ran out")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(budget)
	res, err = Discover(ctx, client(guard.Options{}), s.URL()+"s.example/slow/", Held{})
	if !errors.Is(err, budget) || res.Problem != "the enrolled URL "+s.URL()+"s.example/slow/ was not read: "+budget.Error() {
		t.Errorf("budget: %v %+v", err, res)
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

// The page still links the held index (304), which now answers 404; dreamweave.json sits beside
// the page. The page is read again for its link, which is broken: discovery stops there and the
// index beside the page is not adopted (a broken link is never walked around).
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
	s.ResetRequests()
	second, err := Discover(context.Background(), c, u, held(u, first))
	var de *Error
	if !errors.As(err, &de) || !de.BrokenLink || second.IndexURL != "" {
		t.Fatalf("got %v %+v; want a broken link", err, second)
	}
	checkTrail(t, second.Trail,
		st(u, OutcomePageUnchanged),
		st(u+"i.json", OutcomeNotFound+"; the page is read again for its link"),
		st(u, "links the site index at "+u+"i.json"),
		st(u+"i.json", OutcomeNotFound+"; a broken link: discovery stops here"))
	for _, p := range requested(s) {
		if strings.HasSuffix(p, "/dreamweave.json") {
			t.Errorf("discovery walked around the broken link to %s", p)
		}
	}
	// The link mended: the page is unchanged, its index answers again, and it stands.
	root["s.example/site/i.json"] = file(indexDoc)
	s.SetRoot(root)
	third, err := Discover(context.Background(), c, u, held(u, first))
	if err != nil || third.Method != MethodLink || third.IndexURL != u+"i.json" {
		t.Fatalf("mended: %v %+v", err, third)
	}
}

// A GitHub Pages layout: a project site below a user site, each with its own index. The project
// site's index held, it answers 404 or 503 mid-deploy: discovery never lands on the user site's
// index. When the held index answers again on the second ask, it stands.
func TestWalkUpWithoutEvidenceKeepsTheHeldIndex(t *testing.T) {
	root := fstest.MapFS{
		"u.example/s/index.html":      page(""),
		"u.example/s/dreamweave.json": file(indexDoc),
		"u.example/dreamweave.json":   file(indexDoc),
	}
	s := serve(t, root)
	b := s.URL() + "u.example/"
	u, x, y := b+"s/", b+"s/dreamweave.json", b+"dreamweave.json"
	c := client(guard.Options{})
	first, err := Discover(context.Background(), c, u, Held{})
	if err != nil || first.IndexURL != x {
		t.Fatal(err, first)
	}
	h := held(u, first)
	h.Validators = map[string]store.Validators{} // nothing conditional: the plain answers are asked

	// 404 at the held index: the walk reaches the user site, which is not adopted.
	s.SetRules([]loopback.Rule{{Path: "^/u.example/s/dreamweave.json$", Status: 404}})
	res, err := Discover(context.Background(), c, u, h)
	var de *Error
	if !errors.As(err, &de) || de.Found != y || de.At != x || de.Status != 404 || res.IndexURL != "" {
		t.Errorf("404: %v %+v", err, de)
	}
	// 503 at the held index: the walk stops there.
	s.SetRules([]loopback.Rule{{Path: "^/u.example/s/dreamweave.json$", Status: 503}})
	res, err = Discover(context.Background(), c, u, h)
	if !errors.As(err, &de) || de.Found != "" || de.At != x || de.Status != 503 || res.IndexURL != "" {
		t.Errorf("503: %v %+v", err, de)
	}
	// One 404, then the held index answers: it stands.
	s.SetRules([]loopback.Rule{{Path: "^/u.example/s/dreamweave.json$", Status: 404, Times: 1}})
	res, err = Discover(context.Background(), c, u, h)
	if err != nil || res.IndexURL != x || res.Method != MethodWalkUp {
		t.Fatalf("flaky: %v %+v", err, res)
	}
	checkTrail(t, res.Trail,
		st(u, OutcomeNoLink),
		st(x, OutcomeNotFound),
		st(y, OutcomeIndex),
		st(x, OutcomeIndex+"; the held site index stands (walking up also reached "+y+")"))
	// Without a held index (a first discovery) the walk's index is used.
	s.SetRules([]loopback.Rule{{Path: "^/u.example/s/dreamweave.json$", Status: 404}})
	res, err = Discover(context.Background(), c, u, Held{})
	if err != nil || res.IndexURL != y {
		t.Errorf("first discovery: %v %+v", err, res)
	}
}

// redirector answers the listed paths with a redirect of the given status (loopback.Rule only
// answers 302); its table may change between discoveries.
type redirector struct {
	mu sync.Mutex
	to map[string]redirect // request path -> where and how
}

type redirect struct {
	status int
	to     string // "{base}" expands to the server's base URL
}

func (rd *redirector) set(m map[string]redirect) {
	rd.mu.Lock()
	rd.to = m
	rd.mu.Unlock()
}

// serveRedirecting is serve with rd answering before the server's files.
func serveRedirecting(t *testing.T, root fstest.MapFS, rd *redirector) *loopback.Server {
	t.Helper()
	var s *loopback.Server
	s, err := loopback.Start(root, loopback.Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rd.mu.Lock()
			to, ok := rd.to[r.URL.Path]
			rd.mu.Unlock()
			if ok {
				w.Header().Set("Location", strings.ReplaceAll(to.to, "{base}", s.URL()))
				w.WriteHeader(to.status)
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The evidence of a move, rule by rule (package comment; SPEC section 3, "Moves"), on a GitHub
// Pages layout: the project site u.example/s/ (its index held) below the user site u.example/
// (its own index), with other directories to move to. Each case says what is served, and
// whether the source moves (the index discovery ends with) or discovery ends without a move.
func TestEvidenceOfAMove(t *testing.T) {
	base := fstest.MapFS{
		"u.example/s/index.html":            page(""),
		"u.example/s/dreamweave.json":       file(indexDoc),
		"u.example/dreamweave.json":         file(indexDoc),
		"u.example/maintenance.html":        page(""),
		"u.example/new/index.html":          page(""),
		"u.example/new/dreamweave.json":     file(indexDoc),
		"u.example/bare/index.html":         page(""),
		"u.example/linked/index.html":       page(link("../other/idx.json")),
		"u.example/other/idx.json":          file(indexDoc),
		"u.example/deep/index.html":         page(""),
		"u.example/s/data/dreamweave.json":  file(indexDoc),
		"u.example/s/p/m.json":              file(manifestDoc),
		"u.example/s/p/dreamweave.json":     file(indexDoc),
		"u.example/s/mlink/index.html":      page(strings.Replace(indexLink, "index+json", "project+json", 1)),
		"u.example/s/mlink/dreamweave.json": file(indexDoc),
	}
	const (
		moves = iota
		stays // the held index stands
		ends  // discovery ends: nothing moves
	)
	for _, tc := range []struct {
		name      string
		enrolled  string // below u.example/
		held      string // the held index, below u.example/
		drop      []string
		redirects map[string]redirect // paths below u.example/
		want      int
		index     string // moves/stays: the index discovery ends with, below u.example/
	}{
		// Temporary redirects are never evidence.
		{name: "302 to a maintenance page, held index answers", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {302, "{base}u.example/maintenance.html"}}, want: stays, index: "s/dreamweave.json"},
		{name: "307 to a maintenance page, held index gone", enrolled: "s/", held: "s/dreamweave.json", drop: []string{"s/dreamweave.json"},
			redirects: map[string]redirect{"s/": {307, "{base}u.example/maintenance.html"}}, want: ends},
		{name: "302 to a page linking an index, held index answers", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {302, "{base}u.example/linked/"}}, want: stays, index: "s/dreamweave.json"},
		{name: "303 to another site's index, held index answers", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {303, "{base}u.example/new/dreamweave.json"}}, want: stays, index: "s/dreamweave.json"},
		{name: "302 to a page with an index beside it, held index answers", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {302, "{base}u.example/new/"}}, want: stays, index: "s/dreamweave.json"},
		// Permanent redirects to an index or a page linking one: strong, whatever the held index says.
		{name: "301 to a page linking an index", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {301, "{base}u.example/linked/"}}, want: moves, index: "other/idx.json"},
		{name: "308 to an index", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {308, "{base}u.example/new/dreamweave.json"}}, want: moves, index: "new/dreamweave.json"},
		{name: "301 then 302 to an index", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {301, "{base}u.example/hop/"}, "hop/": {302, "{base}u.example/new/dreamweave.json"}}, want: stays, index: "s/dreamweave.json"},
		// A permanent redirect to a page with the index beside it: weak.
		{name: "301 to a page with an index beside it, held index answers", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {301, "{base}u.example/new/"}}, want: stays, index: "s/dreamweave.json"},
		{name: "301 to a page with an index beside it, held index gone", enrolled: "s/", held: "s/dreamweave.json", drop: []string{"s/dreamweave.json"},
			redirects: map[string]redirect{"s/": {301, "{base}u.example/new/"}}, want: moves, index: "new/dreamweave.json"},
		{name: "301 to a page with the index only above it, held index gone", enrolled: "s/", held: "s/dreamweave.json", drop: []string{"s/dreamweave.json"},
			redirects: map[string]redirect{"s/": {301, "{base}u.example/bare/"}}, want: ends},
		{name: "301 to a page, held index redirects permanently to the same index", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {301, "{base}u.example/new/"}, "s/dreamweave.json": {301, "{base}u.example/new/dreamweave.json"}}, want: moves, index: "new/dreamweave.json"},
		{name: "held index redirects temporarily to another index", enrolled: "s/", held: "s/dreamweave.json",
			redirects: map[string]redirect{"s/": {301, "{base}u.example/new/"}, "s/dreamweave.json": {302, "{base}u.example/new/dreamweave.json"}}, want: ends},
		{name: "301 adding the trailing slash, held index gone", enrolled: "s", held: "s/dreamweave.json", drop: []string{"s/dreamweave.json"},
			redirects: map[string]redirect{"s": {301, "{base}u.example/s/"}}, want: ends},
		{name: "302 adding the trailing slash, held index gone", enrolled: "s", held: "s/dreamweave.json", drop: []string{"s/dreamweave.json"},
			redirects: map[string]redirect{"s": {302, "{base}u.example/s/"}}, want: ends},
		{name: "302 within the directory, index beside the enrolled URL, held index gone", enrolled: "s/", held: "s/data/dreamweave.json", drop: []string{"s/data/dreamweave.json"},
			redirects: map[string]redirect{"s/": {302, "{base}u.example/s/index.html"}}, want: moves, index: "s/dreamweave.json"},
		// No redirect: beside the enrolled URL is weak; a parent directory is nothing.
		{name: "index beside the page, held index answers", enrolled: "s/", held: "s/data/dreamweave.json", want: stays, index: "s/data/dreamweave.json"},
		{name: "index beside the page, held index gone", enrolled: "s/", held: "s/data/dreamweave.json", drop: []string{"s/data/dreamweave.json"},
			want: moves, index: "s/dreamweave.json"},
		{name: "index beside the page, held index now other JSON", enrolled: "s/", held: "s/data/dreamweave.json",
			redirects: nil, drop: []string{"s/data/dreamweave.json", "+s/data/dreamweave.json"}, want: moves, index: "s/dreamweave.json"},
		{name: "index beside the page, held index answers 503", enrolled: "s/", held: "s/data/dreamweave.json",
			redirects: map[string]redirect{"s/data/dreamweave.json": {503, ""}}, want: ends},
		{name: "index beside the page, held index truncated", enrolled: "s/", held: "s/data/dreamweave.json",
			drop: []string{"~s/data/dreamweave.json"}, want: ends},
		{name: "index only in a parent directory, held index gone", enrolled: "deep/", held: "deep/x/dreamweave.json",
			want: ends},
		{name: "index beside the enrolled manifest, held index gone", enrolled: "s/p/m.json", held: "s/data/dreamweave.json", drop: []string{"s/data/dreamweave.json"},
			want: moves, index: "s/p/dreamweave.json"},
		{name: "index beside the linked manifest, held index gone", enrolled: "s/mlink/", held: "s/data/dreamweave.json", drop: []string{"s/data/dreamweave.json"},
			want: moves, index: "s/p/dreamweave.json"},
		// The page's own link: strong.
		{name: "the page links another index", enrolled: "linked/", held: "s/dreamweave.json", want: moves, index: "other/idx.json"},
		// A spelling is not a move: the held index URL in capitals is the same site index.
		{name: "held index spelled in capitals", enrolled: "s/", held: "S-CASE", want: stays, index: "s/dreamweave.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := fstest.MapFS{}
			for p, f := range base {
				root[p] = f
			}
			for _, d := range tc.drop {
				if strings.HasPrefix(d, "~") { // served truncated: not well-formed, not gone
					root["u.example/"+strings.TrimPrefix(d, "~")] = file(`{"schema_version": "2", "docu`)
					continue
				}
				if strings.HasPrefix(d, "+") { // served as JSON that is not a DreamWeave document
					root["u.example/"+strings.TrimPrefix(d, "+")] = file(`{"moved": "elsewhere"}`)
					continue
				}
				delete(root, "u.example/"+d)
			}
			if tc.name == "index beside the linked manifest, held index gone" {
				root["u.example/s/mlink/index.html"] = page(`<link rel="alternate" type="application/vnd.dreamweave.project+json" href="../p/m.json">`)
				delete(root, "u.example/s/mlink/dreamweave.json")
			}
			rd := &redirector{}
			s := serveRedirecting(t, root, rd)
			b := s.URL() + "u.example/"
			m := map[string]redirect{}
			for p, r := range tc.redirects {
				m["/u.example/"+p] = r
			}
			rd.set(m)
			x := b + tc.held
			if tc.held == "S-CASE" {
				x = "HTTP" + strings.TrimPrefix(b, "http") + "s/dreamweave.json"
			}
			h := Held{Validators: map[string]store.Validators{}, IndexURL: x, Method: MethodWalkUp}
			res, err := Discover(context.Background(), client(guard.Options{}), b+tc.enrolled, h)
			switch tc.want {
			case moves, stays:
				if err != nil || res.IndexURL != b+tc.index {
					t.Errorf("got %v, index %q; want %q\ntrail: %+v", err, res.IndexURL, b+tc.index, res.Trail)
				}
			case ends:
				var de *Error
				if !errors.As(err, &de) || res.IndexURL != "" {
					t.Errorf("got %v, index %q; want discovery to end without a move\ntrail: %+v", err, res.IndexURL, res.Trail)
				}
			}
		})
	}
}

// What the trail and the problem say when a temporary redirect leads off the site during an
// outage: the held index answering 503 ends discovery, nothing moves, and
// the words say why.
func TestTemporaryRedirectDuringAnOutage(t *testing.T) {
	root := fstest.MapFS{
		"u.example/s/index.html":      page(""),
		"u.example/s/dreamweave.json": file(indexDoc),
		"u.example/maintenance.html":  page(""),
		"u.example/dreamweave.json":   file(indexDoc),
	}
	rd := &redirector{}
	s := serveRedirecting(t, root, rd)
	b := s.URL() + "u.example/"
	rd.set(map[string]redirect{"/u.example/s/": {302, "{base}u.example/maintenance.html"}, "/u.example/s/dreamweave.json": {503, ""}})
	x := b + "s/dreamweave.json"
	res, err := Discover(context.Background(), client(guard.Options{}), b+"s/", Held{Validators: map[string]store.Validators{}, IndexURL: x, Method: MethodWalkUp})
	var de *Error
	if !errors.As(err, &de) || !de.Outage || de.Status != 503 || de.At != x || de.Found != b+"dreamweave.json" || res.IndexURL != "" {
		t.Fatalf("got %v %+v", err, de)
	}
	want := "walking up the path reached the site index " + b + "dreamweave.json, but the held site index " + x +
		" answered HTTP 503 (service unavailable); a temporary redirect is no evidence of a move, so none is recorded"
	if de.Problem != want {
		t.Errorf("problem %q\nwant    %q", de.Problem, want)
	}
	checkTrail(t, res.Trail,
		st(b+"s/", "redirects (HTTP 302) to "+b+"maintenance.html"),
		st(b+"maintenance.html", OutcomeNoLink),
		st(b+"dreamweave.json", OutcomeIndex),
		st(x, "HTTP 503 (service unavailable); walking up reached "+b+"dreamweave.json, but the held site index did not answer, so no move is recorded"))

	// A weak find (beside where a 301 ended) while the held index is down: an outage, not a move.
	root["u.example/new/index.html"], root["u.example/new/dreamweave.json"] = page(""), file(indexDoc)
	s.SetRoot(root)
	rd.set(map[string]redirect{"/u.example/s/": {301, "{base}u.example/new/"}, "/u.example/s/dreamweave.json": {503, ""}})
	res, err = Discover(context.Background(), client(guard.Options{}), b+"s/", Held{Validators: map[string]store.Validators{}, IndexURL: x, Method: MethodWalkUp})
	want = "walking up the path reached the site index " + b + "new/dreamweave.json, but the held site index " + x +
		" answered HTTP 503 (service unavailable); a site index that does not answer is not gone, so no move is recorded"
	if !errors.As(err, &de) || de.Problem != want || res.IndexURL != "" {
		t.Errorf("got %v\nwant %q", err, want)
	}
	// The held index redirecting temporarily to another index: an outage, not a move.
	rd.set(map[string]redirect{"/u.example/s/": {301, "{base}u.example/new/"}, "/u.example/s/dreamweave.json": {307, "{base}u.example/new/dreamweave.json"}})
	res, err = Discover(context.Background(), client(guard.Options{}), b+"s/", Held{Validators: map[string]store.Validators{}, IndexURL: x, Method: MethodWalkUp})
	want = "walking up the path reached the site index " + b + "new/dreamweave.json, but the held site index " + x +
		" redirects temporarily to " + b + "new/dreamweave.json, which answers as a site index; a temporary redirect is no evidence of a move, so none is recorded"
	if !errors.As(err, &de) || de.Problem != want || res.IndexURL != "" {
		t.Errorf("got %v\nwant %q", err, want)
	}
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

// An unchanged page (304) reached through a redirect is read again when it links the index: a
// relative link names another URL from the page's new address. The site moved for good (301):
// the index its link names there is adopted.
func TestUnchangedPageBehindANewRedirect(t *testing.T) {
	root := fstest.MapFS{
		"a.example/site/index.html": page(link("i.json")),
		"a.example/site/i.json":     file(indexDoc),
		"b.example/site/index.html": page(link("i.json")),
		"b.example/site/i.json":     file(indexDoc),
	}
	var on bool
	var mu sync.Mutex
	s, err := loopback.Start(root, loopback.Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			redirect := on && r.URL.Path == "/a.example/site/"
			mu.Unlock()
			if redirect {
				w.Header().Set("Location", "/b.example/site/")
				w.WriteHeader(http.StatusMovedPermanently)
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	u := s.URL() + "a.example/site/"
	c := client(guard.Options{})
	first, err := Discover(context.Background(), c, u, Held{})
	if err != nil || first.IndexURL != u+"i.json" {
		t.Fatal(err, first)
	}
	mu.Lock()
	on = true
	mu.Unlock()
	second, err := Discover(context.Background(), c, u, held(u, first))
	b := s.URL() + "b.example/site/"
	if err != nil || second.IndexURL != b+"i.json" || second.Method != MethodLink {
		t.Fatalf("got %v %+v; want the index the page links at its new address", err, second)
	}
	checkTrail(t, second.Trail,
		st(u, "redirects (HTTP 301) to "+b),
		st(b, OutcomePageUnchanged+", but reached through a redirect; read again for its link"),
		st(u, "redirects (HTTP 301) to "+b),
		st(b, "links the site index at "+b+"i.json"),
		st(b+"i.json", OutcomeIndex))
}

// A page whose only DreamWeave <link> has an href that is not a URL: the link is skipped, the
// trail says so at the page, and the path is walked.
func TestMalformedLinkIsIgnoredInTheTrail(t *testing.T) {
	s := serve(t, fstest.MapFS{
		"s.example/mods/index.html":      page(link("http://[::1")),
		"s.example/mods/dreamweave.json": file(indexDoc),
	})
	u := s.URL() + "s.example/mods/"
	res, err := Discover(context.Background(), client(guard.Options{}), u, Held{})
	if err != nil || res.Method != MethodWalkUp {
		t.Fatalf("%v, %+v", err, res)
	}
	checkTrail(t, res.Trail,
		st(u, OutcomeNoLink),
		st(u, `ignored <link> href "http://[::1": not a URL (missing ']' in host)`),
		st(u+"dreamweave.json", OutcomeIndex))
}
