package site

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// TestRejectedOtherReason: when the manifest the crawler refused was refused for a reason
// other than the claim's recorded problem, the staleness banner says that reason, as the
// page words problems (a claim that holds no manifest keeps nothing); when the reasons are
// the same, it points at the reason above instead of repeating it.
func TestRejectedOtherReason(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/mods/dreamweave.json", "Site A")
	other, same := uuid(1), uuid(2)
	f.Claim(site, sampleManifest(other, "Other Reason", 1), func(r *store.Claim) {
		r.Health, r.Problem = store.ClaimInvalid, ptr("/releases/0/version: does not parse")
		r.AdvertisedSHA256 = sha([]byte("newer"))
		r.Rejected = &store.Rejected{SHA256: sha([]byte("newer")), Problem: "over the 16 MiB document limit", Crawler: "test"}
	})
	f.Claim(site, sampleManifest(same, "Same Reason", 1), func(r *store.Claim) {
		r.Health, r.Problem = store.ClaimInvalid, ptr("/releases/0/version: does not parse")
		r.AdvertisedSHA256 = sha([]byte("newest"))
		r.Rejected = &store.Rejected{SHA256: sha([]byte("newest")), Problem: "/releases/0/version: does not parse", Crawler: "test"}
	})
	_, out := build(t, state, Options{})
	text := page(t, out, paths.Claim(other, site))
	if want := "was refused by crawler version test: over the 16 MiB document limit."; !strings.Contains(text, want) {
		t.Errorf("the claim page does not say %q: %.900s", want, text)
	}
	if strings.Contains(text, "for the reason above") {
		t.Error("the claim page says the refusal had the reason above, which is another")
	}
	if text := page(t, out, paths.Claim(same, site)); !strings.Contains(text, "was refused by crawler version test, for the reason above.") {
		t.Errorf("the claim refused for its recorded problem does not point at it: %.900s", text)
	}
}

// TestSourcesAndSitesWording: the health page says where each source leads (a removed
// source, a resolved one with a link to its site's health, an unresolved one with why and no
// site) with its trail; the Sites page counts the claims out of the catalog and shows a site
// that gives no name by its address, saying whether its site index was ever read.
func TestSourcesAndSitesWording(t *testing.T) {
	state, ids := healthState(t)
	f := statetest.In(t, state)
	u := "https://lost.example/mods/"
	f.Write(store.SourcePath(store.SourceID(u)), store.Source{URL: u, Health: store.SourceUnresolved,
		Problem:     ptr("discovery from " + u + ": " + u + "dreamweave.json answers HTTP 404"),
		Trail:       []store.TrailStep{{URL: u, Outcome: "an HTML page with no DreamWeave <link>"}},
		LastAttempt: statetest.Time})
	nameless := f.Site("https://e.example/dreamweave.json", "")
	var o store.Origin
	f.Dir.ReadJSON(store.OriginPath(nameless), &o)
	o.SiteName = nil
	f.Write(store.OriginPath(nameless), o)
	unread := f.Site("https://unread.example/mods/dreamweave.json", "")
	o = store.Origin{}
	f.Dir.ReadJSON(store.OriginPath(unread), &o)
	o.SiteName, o.LastSuccess, o.Health, o.Problem = nil, nil, store.OriginInvalidIndex, ptr("the site index is not valid JSON")
	f.Write(store.OriginPath(unread), o)
	_, out := build(t, state, Options{})

	health := page(t, out, "health/index.html")
	for _, want := range []string{
		"No longer in this index's source list. It led to the site Site C.",
		"Leads to the site Site A (its health).",
		"not resolved Not resolved: discovery from " + u + ": " + u + "dreamweave.json answers HTTP 404. Last attempt",
		"Leads to no site.",
		u + ": an HTML page with no DreamWeave <link>",
	} {
		if !strings.Contains(health, want) {
			t.Errorf("the health page does not say %q", want)
		}
	}
	if !slices.Contains(htmlcheck.Texts(t, parsePage(t, out, "health/index.html"), "main li bdi"), "an HTML page with no DreamWeave <link>") {
		t.Error("the trail's outcome is not shown as it is, in one <bdi>")
	}
	sites := page(t, out, "origins/index.html")
	if !strings.Contains(sites, "(and 1 out of the catalog)") {
		t.Errorf("the Sites page does not count the claims out of the catalog: %.1500s", sites)
	}
	rows := map[string]string{} // site id -> its Site cell's text
	for _, td := range htmlcheck.All(t, parsePage(t, out, "origins/index.html"), "table.sites tbody td.url") {
		if c := htmlcheck.All(t, td, "code[data-pub]"); len(c) == 1 {
			rows[htmlcheck.Text(c[0])] = htmlcheck.Text(td)
		}
	}
	for site, want := range map[string]string{
		nameless: "e.example/ (it gives no name)" + nameless + "https://e.example/dreamweave.json",
		unread:   "unread.example/mods/ (no name: its site index has not been read)" + unread + "https://unread.example/mods/dreamweave.json",
	} {
		if got := rows[site]; got != want {
			t.Errorf("the Sites page shows the nameless site %s as %q, want %q", site, got, want)
		}
	}
	if !strings.Contains(page(t, out, paths.Origin(ids["c"])), "Healthno longer enrolled (on the health page)") &&
		!strings.Contains(page(t, out, paths.Origin(ids["c"])), "Health no longer enrolled (on the health page)") {
		t.Errorf("the unenrolled site's page explains a health it is not read for: %.1500s", page(t, out, paths.Origin(ids["c"])))
	}
}

// TestMovePages: a claim that moved to another site says so on its project's page, on its
// own page with the evidence, and the claim it continues as names it; the conflicts page lists
// the move with its evidence in the crawler's words.
func TestMovePages(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Old Home")
	b := f.Site("https://b.example/dreamweave.json", "New Home")
	id := uuid(7)
	f.Claim(a, sampleManifest(id, "Wanderer", 1), func(r *store.Claim) { r.MovedTo = ptr(b) })
	f.Claim(b, sampleManifest(id, "Wanderer", 1), func(r *store.Claim) { r.MovedFrom = ptr(a) })
	_, out := build(t, state, Options{})

	if text := page(t, out, paths.Project(id)); !strings.Contains(text, "Moved: continues as the claim from "+b+".") {
		t.Errorf("the project page does not say the claim moved: %.1200s", text)
	}
	links := htmlcheck.All(t, parsePage(t, out, paths.Project(id)), `main a[href="`+b+`/index.html"]`)
	if len(links) == 0 || !strings.Contains(htmlcheck.Text(links[0].Parent), "continues as the claim from") {
		t.Errorf("the project page does not link the claim the move continues as (%d links to it)", len(links))
	}
	old := page(t, out, paths.Claim(id, a))
	for _, want := range []string{"Moved. This claim continues at New Home. Evidence:", "crawler: " + store.ClaimPath(id, a) + " records moved_to " + b} {
		if !strings.Contains(old, want) {
			t.Errorf("the moved claim's page does not say %q: %.1500s", want, old)
		}
	}
	if text := page(t, out, paths.Claim(id, b)); !strings.Contains(text, "Continues the claim from Old Home; evidence: crawler: ") {
		t.Errorf("the claim a move continues as does not name the old one: %.1500s", text)
	}
	conflicts := page(t, out, "conflicts/index.html")
	for _, want := range []string{"Project " + id + ": from " + a + " to " + b + ".", "Recorded by the crawler: " + store.ClaimPath(id, a) + " records moved_to " + b} {
		if !strings.Contains(conflicts, want) {
			t.Errorf("the conflicts page does not say %q: %.1500s", want, conflicts)
		}
	}
}

// TestRelationshipOddInputs: a relationship's odd inputs and a target's unparsable
// constraint are said on the claim page, each in the index's words with the publisher's
// text quoted.
func TestRelationshipOddInputs(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	from, to := uuid(11), uuid(12)
	m := sampleManifest(from, "Asker", 1)
	m.Releases[0].Relationships = []protocol.Relationship{
		{Kind: "requires", Project: to, Version: "not a constraint"},
		{Kind: "recommends", Project: to, Capability: "lua:x"},
	}
	f.Claim(site, m)
	g := sampleManifest(to, "Giver", 1)
	g.Releases[0].Provides = []string{"lua:x"}
	f.Claim(site, g)
	_, out := build(t, state, Options{})
	text := page(t, out, paths.Claim(from, site))
	for _, want := range []string{"Odd input: names both a project and a capability; the protocol allows one; resolved by each",
		"the constraint does not parse under the target's versioning (under the target's numeric scheme: "} {
		if !strings.Contains(text, want) {
			t.Errorf("the claim page does not say %q: %.3000s", want, text)
		}
	}
}

// TestRefOutsideTheBuild: ref gives a claim the build's table does not hold the same view
// the table would, computed on the spot, so a page never fails on a claim it did not expect.
func TestRefOutsideTheBuild(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	f.Claim(site, sampleManifest(uuid(1), "Held", 1))
	n, err := network.Load(store.Open(state), &curation.Curation{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{&render.Site{Model: view.NewModel(n)}}
	b.Refs = view.ClaimRefs(n, b.Names, b.Health)
	c := n.Claims[0]
	inTable := b.Ref(c)
	b.Refs = map[*network.Claim]*view.ClaimRef{}
	outside := b.Ref(c)
	if inTable == outside || !reflect.DeepEqual(inTable, outside) {
		t.Errorf("ref outside the table = %+v, want a fresh copy of %+v", outside, inTable)
	}
	if outside.Path != paths.Claim(uuid(1), site) || outside.SiteText != "Site A" {
		t.Errorf("ref outside the table: path %q, site %q", outside.Path, outside.SiteText)
	}
}
