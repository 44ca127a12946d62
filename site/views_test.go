package site

import (
	"reflect"
	"slices"
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
	doc := parsePage(t, out, paths.Claim(other, site))
	htmlcheck.Want(t, doc, "#staleness p", "was refused by crawler version test: over the 16 MiB document limit.")
	// The refusal's reason is another than the one above, so it does not point at it.
	htmlcheck.Lacks(t, doc, "#staleness p", "for the reason above")
	htmlcheck.Want(t, parsePage(t, out, paths.Claim(same, site)), "#staleness p", "was refused by crawler version test, for the reason above.")
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

	health := parsePage(t, out, "health/index.html")
	htmlcheck.Want(t, health, "main section.entry",
		"No longer in this index's source list. It led to the site Site C.",
		"Leads to the site Site A (its health).",
		"not resolved Not resolved: discovery from "+u+": "+u+"dreamweave.json answers HTTP 404. Last attempt",
		"Leads to no site.")
	htmlcheck.Want(t, health, "main section.entry li", u+": an HTML page with no DreamWeave <link>")
	if !slices.Contains(htmlcheck.Texts(t, health, "main li bdi"), "an HTML page with no DreamWeave <link>") {
		t.Error("the trail's outcome is not shown as it is, in one <bdi>")
	}
	sites := parsePage(t, out, "origins/index.html")
	htmlcheck.Want(t, sites, "table.sites td", "(and 1 out of the catalog)")
	rows := map[string]string{} // site id -> its Site cell's text
	for _, td := range htmlcheck.All(t, sites, "table.sites tbody td.url") {
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
	// The unenrolled site's page does not explain a health it is not read for.
	if got := htmlcheck.Texts(t, parsePage(t, out, paths.Origin(ids["c"])), "main dd"); !slices.Contains(got, "no longer enrolled (on the health page)") {
		t.Errorf("the unenrolled site's page gives its health as %q", got)
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

	project := parsePage(t, out, paths.Project(id))
	if got := htmlcheck.Texts(t, project, `main p.note`); !slices.Contains(got, "Moved: continues as the claim from "+b+".") {
		t.Errorf("the project page does not say the claim moved: %q", got)
	}
	htmlcheck.One(t, project, `main p.note a[href="`+b+`/index.html"]`)
	old := parsePage(t, out, paths.Claim(id, a))
	htmlcheck.Want(t, old, "#moved p", "Moved. This claim continues at New Home. Evidence:")
	htmlcheck.Want(t, old, "#moved li", "crawler: "+store.ClaimPath(id, a)+" records moved_to "+b)
	htmlcheck.Want(t, parsePage(t, out, paths.Claim(id, b)), "main p.note", "Continues the claim from Old Home; evidence: crawler: ")
	conflicts := parsePage(t, out, "conflicts/index.html")
	htmlcheck.Want(t, conflicts, "main li", "Project "+id+": from "+a+" to "+b+".")
	htmlcheck.Want(t, conflicts, "main li li", "Recorded by the crawler: "+store.ClaimPath(id, a)+" records moved_to "+b)
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
	doc := parsePage(t, out, paths.Claim(from, site))
	htmlcheck.Want(t, doc, "#current dd span.note", "Odd input: names both a project and a capability; the protocol allows one; resolved by each")
	htmlcheck.Want(t, doc, "#current dd", "the constraint does not parse under the target's versioning (under the target's numeric scheme: ")
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
