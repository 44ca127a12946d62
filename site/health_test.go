package site

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"golang.org/x/net/html"
)

// healthState is a network with every kind of trouble: a site read with a cached claim, a
// claim that never passed, a card image that cannot be shown; a site refused by crawler
// policy; a site no source leads to any more (its source removed, its claim withdrawn); a
// healthy site with publication issues; and a project id two sites name differently.
func healthState(t *testing.T) (state string, ids map[string]string) {
	t.Helper()
	state = t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	b := f.Site("https://b.example/dreamweave.json", "Site B")
	c := f.Site("https://c.example/dreamweave.json", "Site C")
	d := f.Site("https://d.example/dreamweave.json", "Site D")
	ids = map[string]string{"a": a, "b": b, "c": c, "d": d}

	f.Claim(a, sampleManifest(uuid(1), "Current One", 1), func(r *store.Claim) {
		r.Media = &store.Media{URL: "https://a.example/card.png", Alt: "a lamp", Problem: ptr("HTTP 404 for https://a.example/card.png")}
	})
	f.Claim(a, sampleManifest(uuid(2), "Cached Two", 1), func(r *store.Claim) {
		r.Health, r.Problem = store.ClaimInvalid, ptr("invalid publication: invalid publication: /channels/stable/version [channel-heads] bad")
		r.AdvertisedSHA256 = sha([]byte("newer"))
		r.LastSuccess = ptr("2026-10-01T00:00:00Z")
	})
	never := uuid(3)
	f.Write(store.ClaimPath(never, a), store.Claim{Project: never, Origin: a,
		Entry:            protocol.IndexEntry{ID: never, Name: "Never Three", Type: "mod", Status: "active", Manifest: "https://a.example/3.json", ManifestSHA256: sha([]byte("bad")), Channels: map[string]string{}},
		AdvertisedSHA256: sha([]byte("bad")), Health: store.ClaimInvalid, Problem: ptr("/project/id: not a UUID"),
		FirstObserved: statetest.Time, LastAttempt: statetest.Time})

	var o store.Origin
	f.Dir.ReadJSON(store.OriginPath(b), &o)
	o.Health, o.Problem = store.OriginRefused, ptr("refused by crawler policy. discovery from https://b.example/: https://b.example/x refused by crawler policy")
	f.Write(store.OriginPath(b), o)
	f.Claim(b, sampleManifest(uuid(4), "Unavailable Four", 1), func(r *store.Claim) {
		r.Health, r.Problem = store.ClaimOriginUnavailable, ptr("origin unavailable, the site could not be read")
	})

	f.Dir.ReadJSON(store.OriginPath(c), &o)
	src := o.Sources[0]
	o.Sources = []string{}
	f.Write(store.OriginPath(c), o)
	var s store.Source
	f.Dir.ReadJSON(store.SourcePath(store.SourceID(src)), &s)
	s.Health, s.Problem = store.SourceRemoved, ptr("no longer listed in network/sources.toml; this index does not read it any more")
	f.Write(store.SourcePath(store.SourceID(src)), s)
	f.Claim(c, sampleManifest(uuid(5), "Gone Five", 1), func(r *store.Claim) {
		r.Health, r.Problem = store.ClaimWithdrawn, ptr("no enrolled source leads to this site any more (its entry left network/sources.toml)")
	})

	f.Dir.ReadJSON(store.OriginPath(d), &o)
	o.Issues = []string{uuid(9) + ": listed more than once; the first entry is read"}
	f.Write(store.OriginPath(d), o)
	f.Claim(d, sampleManifest(uuid(6), "Lantern", 1))
	f.Claim(a, sampleManifest(uuid(6), "Lamp", 1))
	return state, ids
}

// inOrder fails unless each of wants appears in text after the one before.
func inOrder(t *testing.T, where, text string, wants ...string) {
	t.Helper()
	at := 0
	for _, w := range wants {
		i := strings.Index(text[at:], w)
		if i < 0 {
			t.Errorf("%s: %q does not follow %q", where, w, text[:at])
			return
		}
		at += i + len(w)
	}
}

// TestHealthPage: a summary of sources, sites and claims by health, failures first in every
// list, the claims by site (in the sites' order), an anchor per source, site and claim,
// card-image problems, and the health words said
// once with no lowercase start after a full stop.
func TestHealthPage(t *testing.T) {
	state, ids := healthState(t)
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, "health/index.html")
	text := page(t, out, "health/index.html")

	if got, want := htmlcheck.Texts(t, doc, "#summary ul.summary > li"), []string{
		"4 sources: 3 resolved, 1 no longer enrolled.",
		"4 sites: 1 refused by crawler policy with 1 claim cached, 1 healthy with 1 claim cached, 1 healthy, 1 no longer enrolled.",
		"7 claims: 1 with no manifest yet (invalid publication), 1 cached (invalid publication), 1 cached (origin unavailable), 3 current, 1 withdrawn.",
		"1 card image cannot be shown.",
	}; !slices.Equal(got, want) {
		t.Errorf("the summary says %q, want %q", got, want)
	}
	inOrder(t, "sections", text, "Summary", "Claims that are not current", "Sites", "Sources", "Card images that cannot be shown")
	inOrder(t, "claims", text, "Site B", "Unavailable Four", "Site A", "Never Three", "Cached Two", "Site C", "Gone Five")
	inOrder(t, "sites", text[strings.Index(text, "Last problem"):], "Site B", "Site A", "Site D", "Site C")
	for _, id := range []string{"site-" + ids["b"], "site-" + ids["c"], "claim-" + uuid(2) + "-" + ids["a"], "claim-" + uuid(5) + "-" + ids["c"],
		"source-" + store.SourceID("https://a.example/"), "cards", "claims", "sites", "sources"} {
		if n := htmlcheck.Count(t, doc, `[id="`+id+`"]`); n != 1 {
			t.Errorf("%d elements with the anchor %q, want 1", n, id)
		}
	}
	// A recorded problem follows the index's label as it is, in one <bdi>, even where it
	// says the label again: a flat problem is never re-read for quotations.
	htmlcheck.Want(t, doc, "main ul.list li li",
		"Invalid publication: invalid publication: invalid publication: /channels/stable/version [channel-heads] bad.",
		"Origin unavailable: origin unavailable, the site could not be read.",
		"Reason: no enrolled source leads to this site any more (its entry left network/sources.toml). Out of the catalog.")
	htmlcheck.Want(t, doc, "table.sites td",
		"Refused by crawler policy: refused by crawler policy. discovery from https://b.example/: https://b.example/x refused by crawler policy.",
		"1 publication issue in what the site publishes.")
	htmlcheck.Want(t, doc, "main ul.list > li",
		"Current One from Site A a.example: the crawler could not cache the image: HTTP 404 for https://a.example/card.png.")
	bdis := htmlcheck.Texts(t, doc, "main bdi")
	for _, p := range []string{"invalid publication: invalid publication: /channels/stable/version [channel-heads] bad",
		"origin unavailable, the site could not be read",
		"refused by crawler policy. discovery from https://b.example/: https://b.example/x refused by crawler policy",
		"no enrolled source leads to this site any more (its entry left network/sources.toml)",
		"HTTP 404 for https://a.example/card.png"} {
		if !slices.Contains(bdis, p) {
			t.Errorf("the recorded problem %q is not one <bdi>", p)
		}
	}
	htmlcheck.Lacks(t, doc, "table.sites td", "nonenone", "none1 publication issue", "none 1 publication issue")
	for _, b := range htmlcheck.All(t, doc, "bdi") {
		b.Parent.RemoveChild(b)
	}
	if m := regexp.MustCompile(`[a-z]\. [a-z]`).FindString(htmlcheck.Text(doc)); m != "" {
		t.Errorf("a sentence of the index's own words starts in lowercase: %q", m)
	}
}

// TestStalenessWordingAndEnrollment: a claim that never passed says so, not "cached"; a claim
// withdrawn because its site's source left the source list says that, and that the site is
// no longer enrolled; the Sites page keeps such a site apart and qualifies a read site with
// cached claims; the front page says how many claims are cached.
func TestStalenessWordingAndEnrollment(t *testing.T) {
	state, ids := healthState(t)
	_, out := build(t, state, Options{})

	never := parsePage(t, out, paths.Claim(uuid(3), ids["a"]))
	htmlcheck.Want(t, never, "#staleness", "No manifest from this site has passed every check yet.")
	htmlcheck.Lacks(t, never, "#staleness", "This page may be out of date.")
	gone := parsePage(t, out, paths.Claim(uuid(5), ids["c"]))
	htmlcheck.Want(t, gone, "#withdrawn", "Withdrawn. Reason: no enrolled source leads to this site any more (its entry left network/sources.toml).",
		"The site is no longer enrolled")
	// It blames the source list, not the site's index.
	htmlcheck.Lacks(t, gone, "#withdrawn", "no longer lists this project", "no longer lists the project")
	sites := parsePage(t, out, "origins/index.html")
	tables := htmlcheck.All(t, sites, "main table.sites")
	htmlcheck.One(t, sites, "h2#unenrolled")
	if len(tables) != 2 {
		t.Fatalf("the Sites page has %d tables, want the read sites' and the unenrolled ones'", len(tables))
	}
	htmlcheck.Lacks(t, tables[0], "td.url", "Site C")
	htmlcheck.Want(t, tables[1], "td.url", "Site C")
	htmlcheck.Want(t, tables[0], "td.url", "Site A", "https://a.example/dreamweave.json", ids["a"])
	htmlcheck.Want(t, tables[0], "td", "healthy, 1 claim cached")
	htmlcheck.Want(t, sites, "p.lede", "by the name the site gives itself and its address")
	htmlcheck.Lacks(t, sites, "main p", "A site is named by its index's address")
	// One site's health in the same words on the Sites page, its own page and the Health
	// page: store.OriginHealthLabel's, with the count of cached claims.
	origin := parsePage(t, out, paths.Origin(ids["a"]))
	health := parsePage(t, out, "health/index.html")
	for _, where := range []*html.Node{tables[0], origin, health} {
		htmlcheck.Want(t, where, "td, dd", "healthy, 1 claim cached")
		htmlcheck.Lacks(t, where, "td, dd", "site index read")
	}
	htmlcheck.Want(t, origin, "dd", "healthy, 1 claim cached: the site index was read on the last crawl")
	htmlcheck.Want(t, parsePage(t, out, paths.Origin(ids["c"])), "main p strong", "No longer enrolled.")
	htmlcheck.Want(t, parsePage(t, out, "index.html"), "main p strong", "2 claims are cached from an earlier observation",
		"1 claim has no manifest that passed every check yet")
}

// TestProjectTitlesByName: a project page's title and heading name the project by every name
// its claims publish and never by its id, which the page shows beneath the heading; the claim
// pages' breadcrumbs name it by those names, and the id is among their facts.
func TestProjectTitlesByName(t *testing.T) {
	state, ids := healthState(t)
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Project(uuid(6)))
	title := htmlcheck.Text(htmlcheck.One(t, doc, "head > title"))
	h1 := htmlcheck.Text(htmlcheck.One(t, doc, "h1"))
	if title != "Lamp / Lantern · AsHyAmS" || h1 != "Lamp / Lantern" {
		t.Errorf("the project page's title is %q and heading %q, want both names and no id", title, h1)
	}
	htmlcheck.Want(t, doc, "main p", "Project id "+uuid(6))
	claim := parsePage(t, out, paths.Claim(uuid(6), ids["d"]))
	if crumb := htmlcheck.Text(htmlcheck.One(t, claim, "main > p.muted")); crumb != "Projects › Lamp / Lantern" {
		t.Errorf("the claim page's breadcrumb is %q, want %q", crumb, "Projects › Lamp / Lantern")
	}
	if facts := htmlcheck.Texts(t, claim, `section#facts dd > code`); !slices.Contains(facts, uuid(6)) {
		t.Errorf("the claim page's facts %q do not give the project id", facts)
	}
}
