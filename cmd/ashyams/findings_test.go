package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/refstate"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
	"github.com/DreamWeave-MP/ashyams-go/site"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
)

// TestCrawledFaultsListedOnTheClaimPage: a manifest with three kinds of fault (an unknown
// field, a version not in the DreamWeave form, a deprecated notice on an available release),
// crawled, is listed fault by fault on its claim page, the state the refresh wrote still
// read by the reference's rules; with this index's own files deleted (the state handed back)
// the page says the record's one problem string instead.
func TestCrawledFaultsListedOnTheClaimPage(t *testing.T) {
	n := refreshtest.New(t)
	s := n.Site("/mods/")
	good := refreshtest.Tallow(t)
	s.Publish(good)
	n.Refresh(s.URL(""))
	bad := refreshtest.Copy(t, good)
	bad["project"].(map[string]any)["homepage"] = "https://example.org/"
	rel := bad["releases"].([]any)[0].(map[string]any)
	rel["version"] = "1.0.0.0.0.0.0"
	rel["deprecated"] = map[string]any{"reason": "old"}
	s.Publish(bad)
	n.Refresh(s.URL(""))
	if err := refstate.Errors(n.State); err != nil {
		t.Fatalf("the reference's rules refuse the state: %v", err)
	}

	buildPage := func() (string, []byte) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "public")
		if _, err := site.Build(site.Options{State: n.State, Out: out}); err != nil {
			t.Fatal(err)
		}
		pages, _ := filepath.Glob(filepath.Join(out, "projects", refreshtest.TallowID, "*", "index.html"))
		if len(pages) != 1 {
			t.Fatalf("claim pages %v", pages)
		}
		b, err := os.ReadFile(pages[0])
		if err != nil {
			t.Fatal(err)
		}
		return pages[0], b
	}
	path, b := buildPage()
	doc := htmlcheck.Parse(t, b)
	kinds := map[string]bool{}
	for _, li := range htmlcheck.All(t, doc, "#staleness ul.findings > li") {
		kinds[htmlcheck.Attr(li, "data-kind")] = true
	}
	for _, k := range []string{"additionalProperties", "pattern", "status-notice"} {
		if !kinds[k] {
			t.Errorf("%s: no %s finding listed (kinds %v)", path, k, kinds)
		}
	}
	marked := strings.Join(htmlcheck.Texts(t, doc, "#staleness ul.findings bdi"), "|")
	for _, w := range []string{"/project/homepage", "homepage", "/releases/0/deprecated"} {
		if !strings.Contains(marked, w) {
			t.Errorf("%q is not set off as publisher text: %s", w, marked)
		}
	}

	var c store.Claim
	claims, _ := filepath.Glob(filepath.Join(n.State, store.ClaimsDir, refreshtest.TallowID, "*", store.ClaimFile))
	if len(claims) != 1 {
		t.Fatalf("claim records %v", claims)
	}
	relPath, _ := filepath.Rel(n.State, claims[0])
	if err := store.Open(n.State).ReadJSON(filepath.ToSlash(relPath), &c); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(n.State, store.OwnDir)); err != nil {
		t.Fatal(err)
	}
	if err := refstate.Errors(n.State); err != nil {
		t.Fatalf("without the own files: %v", err)
	}
	_, b = buildPage()
	doc = htmlcheck.Parse(t, b)
	if k := htmlcheck.Count(t, doc, "ul.findings"); k != 0 {
		t.Errorf("without own files the page still lists findings (%d lists)", k)
	}
	text := strings.Join(strings.Fields(htmlcheck.Text(htmlcheck.One(t, doc, "#staleness"))), " ")
	first, _, _ := strings.Cut(strings.TrimPrefix(*c.Problem, "the manifest fails the protocol: "), ";")
	if !strings.Contains(text, first) {
		t.Errorf("without own files the page does not say the record's problem (%q):\n%s", first, text)
	}
}

// TestHostileConfigValueListedOnTheClaimPage: a manifest with a value no line of a player's
// files holds (here a content file name carrying a line feed and a second content= line),
// crawled after a good one, is listed on the claim page as its other findings are: by its
// kind, the pointer set off as the publisher's text.
func TestHostileConfigValueListedOnTheClaimPage(t *testing.T) {
	b, err := os.ReadFile("../../crawl/example/www/lanterns.example/projects/6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c.json")
	if err != nil {
		t.Fatal(err)
	}
	var good map[string]any
	if err := json.Unmarshal(b, &good); err != nil {
		t.Fatal(err)
	}
	n := refreshtest.New(t)
	s := n.Site("/mods/")
	s.Publish(good)
	n.Refresh(s.URL(""))
	bad := refreshtest.Copy(t, good)
	core := refreshtest.Obj(t, bad, "releases", 0, "extensions", "openmw", "components", "core")
	core["content_files"] = []any{"ok.esp\ncontent=EVIL.esp"}
	s.Publish(bad)
	n.Refresh(s.URL(""))
	out := filepath.Join(t.TempDir(), "public")
	if _, err := site.Build(site.Options{State: n.State, Out: out}); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "projects", refreshtest.ID(t, good), "*", "index.html"))
	if len(pages) != 1 {
		t.Fatalf("claim pages %v", pages)
	}
	page, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	doc := htmlcheck.Parse(t, page)
	const at = "/releases/0/extensions/openmw/components/core/content_files/0"
	var listed []string
	for _, li := range htmlcheck.All(t, doc, "#staleness ul.findings > li, #staleness p") {
		if htmlcheck.Attr(li, "data-kind") == protocol.RuleConfigLine || strings.Contains(htmlcheck.Text(li), "openmw.cfg") {
			listed = append(listed, htmlcheck.Text(li))
		}
	}
	if len(listed) == 0 || !strings.Contains(strings.Join(listed, " "), at) {
		t.Errorf("the claim page does not list the config-line finding at %s: %q", at, listed)
	}
}
