package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"golang.org/x/net/html"
)

// faultyManifest is m's bytes with three kinds of fault: an unknown field, a version that is
// not a DreamWeave version, a deprecated notice on an available release. It returns the
// findings the protocol gives them.
func faultyManifest(t *testing.T, m *protocol.Manifest) []protocol.Finding {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	v["project"].(map[string]any)["home/page"] = "x"
	rel := v["releases"].([]any)[0].(map[string]any)
	rel["version"] = "1.0.0.0.0.0.0"
	rel["deprecated"] = map[string]any{"reason": "old"}
	if b, err = json.Marshal(v); err != nil {
		t.Fatal(err)
	}
	_, fs := protocol.ValidateManifest(b, "")
	return fs
}

// findingItems are the list items of the findings list under sel, each with its kind.
func findingItems(t *testing.T, doc *html.Node, sel string) map[string]*html.Node {
	t.Helper()
	out := map[string]*html.Node{}
	for _, li := range htmlcheck.All(t, doc, sel+" ul.findings > li") {
		out[htmlcheck.Attr(li, "data-kind")] = li
	}
	return out
}

// TestClaimPageListsEveryFinding: a claim whose last read found three kinds of fault lists
// all three on its page, each with the publisher's keys and values in <bdi>
// taken from the finding's fields and the index's words outside them; without its own file
// (deleted, or stale once the record changed) the page says the record's one problem string.
func TestClaimPageListsEveryFinding(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/mods/dreamweave.json", "Site A")
	m := sampleManifest(uuid(1), "Project One", 1)
	fs := faultyManifest(t, m)
	problem := "the manifest fails the protocol: " + protocol.Summary(fs)
	f.Claim(site, m, func(c *store.Claim) {
		c.AdvertisedSHA256 = strings.Repeat("a", 64)
		c.Entry.ManifestSHA256 = c.AdvertisedSHA256
		c.Health, c.Problem, c.Findings = store.ClaimInvalid, &problem, store.FindingsOf(fs)
	})
	_, out := build(t, state, Options{})
	rel := paths.Claim(uuid(1), site)
	doc := parsePage(t, out, rel)
	items := findingItems(t, doc, "#staleness")
	if len(items) < 3 || htmlcheck.Count(t, doc, "#staleness ul.findings > li") != len(fs) {
		t.Fatalf("%s lists %d findings of %d:\n%s", rel, htmlcheck.Count(t, doc, "#staleness ul.findings > li"), len(fs), page(t, out, rel))
	}
	for _, kind := range []string{"additionalProperties", "pattern", protocol.RuleStatusNotice} {
		if items[kind] == nil {
			t.Errorf("no %s finding listed; kinds %v", kind, nodeKeys(items))
		}
	}
	for _, sf := range store.FindingsOf(fs) {
		li := items[sf.Kind]
		if li == nil {
			continue
		}
		// Each quoted part is set off as publisher text.
		for _, q := range append([]string{sf.At}, sf.Quotes...) {
			if q != "" {
				htmlcheck.Want(t, li, "bdi", q)
			}
		}
	}
	if li := items["additionalProperties"]; li != nil {
		htmlcheck.Want(t, li, "bdi", "home/page") // the unknown field's name is publisher text
	}
	why := htmlcheck.Text(htmlcheck.All(t, doc, "#staleness details > p")[0])
	if !strings.HasPrefix(why, "Invalid publication: the last read of the manifest found ") {
		t.Errorf("why: %q", why)
	}

	// A stale own file (the record rewritten) and a deleted one: the problem string alone.
	for _, step := range []string{"stale", "deleted"} {
		recPath := filepath.Join(state, filepath.FromSlash(store.ClaimPath(uuid(1), site)))
		switch step {
		case "stale":
			rec, err := os.ReadFile(recPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(recPath, append(rec, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		case "deleted":
			if err := os.RemoveAll(filepath.Join(state, store.OwnDir)); err != nil {
				t.Fatal(err)
			}
		}
		_, out = build(t, state, Options{})
		doc = parsePage(t, out, rel)
		if n := htmlcheck.Count(t, doc, "ul.findings"); n != 0 {
			t.Errorf("%s own file: %d findings lists", step, n)
		}
		htmlcheck.One(t, doc, "#staleness")
		htmlcheck.Want(t, doc, "#staleness details > p", "/project/home~1page [additionalProperties]")
	}
}

// TestSitePageListsEveryFinding: a site whose index fails with several findings lists each on
// its page and counts them on the health page.
func TestSitePageListsEveryFinding(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/mods/dreamweave.json", "Site A")
	f.Claim(site, sampleManifest(uuid(1), "Project One", 1), nil)
	_, fs := protocol.ValidateIndex([]byte(`{"schema_version":"2","document":"index","mirror":"x","colour":"y"}`))
	var o store.Origin
	if err := f.Dir.ReadJSON(store.OriginPath(site), &o); err != nil {
		t.Fatal(err)
	}
	problem := "the site index fails the protocol: " + protocol.Summary(fs)
	o.Health, o.Problem, o.Findings = store.OriginInvalidIndex, &problem, store.FindingsOf(fs)
	f.Write(store.OriginPath(site), o)
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Origin(site))
	if n := htmlcheck.Count(t, doc, "#problem ul.findings > li"); n != len(fs) || n < 3 {
		t.Errorf("the site page lists %d findings of %d", n, len(fs))
	}
	// Each finding's place is set off as publisher text.
	htmlcheck.Want(t, doc, "#problem ul.findings bdi", "/mirror", "/colour")
	health := parsePage(t, out, "health/index.html")
	htmlcheck.One(t, health, "#site-"+site)
	htmlcheck.Want(t, health, "#site-"+site+" td", "Invalid site index: the last read of the site index found ")
}

func nodeKeys(m map[string]*html.Node) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
