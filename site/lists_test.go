package site

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/feed"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
)

// conflictState is an identity conflict at its hardest: two sites that give themselves the
// same name ("Ashfall") both list project uuid(1), "Wickwork", each claim providing a
// capability, requiring a library from a third site and a project nobody publishes, and each
// first observed in the same refresh. It returns the state and the two site ids.
func conflictState(t *testing.T) (state, a, b string) {
	state = t.TempDir()
	f := statetest.In(t, state)
	a = f.Site("https://a.example/dreamweave.json", "Ashfall")
	b = f.Site("https://b.example/dreamweave.json", "Ashfall")
	l := f.Site("https://l.example/dreamweave.json", "Lanterns")
	f.Claim(l, sampleManifest(uuid(2), "Lantern Lib", 1))
	for _, s := range []string{a, b} {
		m := sampleManifest(uuid(1), "Wickwork", 1)
		m.Releases[0].Provides = []string{"wick:api"}
		m.Releases[0].Relationships = []protocol.Relationship{
			{Kind: "requires", Project: uuid(2)},
			{Kind: "requires", Project: uuid(9), Name: "Nowhere"},
		}
		d := f.Claim(s, m)
		f.Event(store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: s, Name: "Wickwork", ObservedAt: statetest.Time, After: &d, Changes: []diff.Change{}})
	}
	return state, a, b
}

// TestConflictedClaimsAreToldApart: every list that shows claims (the home page's recent
// changes, updates, a tag's updates, the feed, releases, capabilities, a capability,
// dependencies, gaps) and every event and claim page title names the site, and, for two
// sites of the same name, this index's id for each, so the two claims of one id never read
// alike ("every page says which site published what").
func TestConflictedClaimsAreToldApart(t *testing.T) {
	state, a, b := conflictState(t)
	_, out := build(t, state, Options{})
	for _, rel := range []string{"index.html", "updates/index.html", "updates/observed/index.html", "releases/index.html",
		"capabilities/index.html", paths.Capability("wick:api"), "dependencies/index.html", "gaps/index.html"} {
		doc := parsePage(t, out, rel)
		for _, s := range []string{a, b} {
			if !htmlcheck.Has(t, doc, "main li", "Ashfall ("+s+")") && !htmlcheck.Has(t, doc, "main li", "Ashfall "+s) {
				t.Errorf("%s does not tell the claim from %s apart: it never names the site with its id", rel, s)
			}
		}
	}
	// The feed titles an event "<name>: <headline>", as the reference does, and names the
	// site as its author and in its summary.
	var atomDoc struct {
		Entries []struct {
			Title   string `xml:"title"`
			Summary string `xml:"summary"`
			Author  string `xml:"author>name"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(readOut(t, out, feed.FeedFile), &atomDoc); err != nil {
		t.Fatal(err)
	}
	authors := map[string]bool{}
	for _, e := range atomDoc.Entries {
		authors[e.Author] = true
		htmlcheck.Want(t, htmlcheck.Parse(t, []byte(e.Summary)), "body", e.Author) // the summary (HTML) names the site
		if e.Title != "Wickwork: first observed" && e.Title != "Lantern Lib: first observed" {
			t.Errorf("feed entry title %q", e.Title)
		}
	}
	for _, s := range []string{a, b} {
		if want := "Ashfall (" + s + ")"; !authors[want] {
			t.Errorf("the feed has no entry by %q; it has %v", want, authors)
		}
		if got := pageTitle(t, out, paths.Claim(uuid(1), s)); got != "Wickwork from Ashfall ("+s+") · AsHyAmS" {
			t.Errorf("the claim page's title is %q", got)
		}
	}
	// Sites of different names need no ids: the name says it.
	state2 := t.TempDir()
	f := statetest.In(t, state2)
	x := f.Site("https://x.example/dreamweave.json", "Ashfall Collective")
	y := f.Site("https://y.example/dreamweave.json", "Lanterns Workshop")
	for _, s := range []string{x, y} {
		d := f.Claim(s, sampleManifest(uuid(1), "Wickwork", 1))
		f.Event(store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: s, Name: "Wickwork", ObservedAt: statetest.Time, After: &d, Changes: []diff.Change{}})
	}
	_, out2 := build(t, state2, Options{})
	atomDoc.Entries = nil
	if err := xml.Unmarshal(readOut(t, out2, feed.FeedFile), &atomDoc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range atomDoc.Entries {
		names = append(names, e.Author)
	}
	slices.Sort(names)
	if want := []string{"Ashfall Collective", "Lanterns Workshop"}; !slices.Equal(names, want) {
		t.Errorf("the feed's authors are %q, want %q", names, want)
	}
}

// pageTitle is a built page's <title> text.
func pageTitle(t *testing.T, out, rel string) string {
	t.Helper()
	return htmlcheck.Text(htmlcheck.One(t, parsePage(t, out, rel), "head > title"))
}

// TestFeaturedIsTheIndexsChoice: featured projects are introduced as this index's editorial
// choice, and the front page never says that nothing on it is chosen or ranked; with nothing
// featured, the section is not there at all.
func TestFeaturedIsTheIndexsChoice(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	f.Claim(a, sampleManifest(uuid(1), "Candle App", 1))
	cur := writeCuration(t, "[[featured]]\nproject = \""+uuid(1)+"\"\nnote = \"Small and well documented.\"\n")
	_, out := build(t, state, Options{Curation: cur})
	home := parsePage(t, out, "index.html")
	htmlcheck.Want(t, home, "#featured", "Featured by this index", "This index's own editorial choice", "Small and well documented.")
	htmlcheck.Lacks(t, home, "main", "Nothing on these pages is a ranking", "not a ranking")
	_, bare := build(t, state, Options{})
	doc := parsePage(t, bare, "index.html")
	if n := htmlcheck.Count(t, doc, "#featured"); n != 0 {
		t.Errorf("with nothing featured, the front page still has %d #featured", n)
	}
	htmlcheck.Lacks(t, doc, "main", "Featured", "features no projects")
}

// TestPublishersPage: the page for publishers says how often this index refreshes, that
// changes show after the next refresh, the validate command, how to be added or removed (a
// pull request to network/sources.toml in the repository, linked), the health page's anchors
// and the crawler's user agent, explaining whose name it carries; every staleness banner (a
// claim's and a site's) and the footer link to it.
func TestPublishersPage(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	f.Claim(a, sampleManifest(uuid(1), "Stale Lamp", 1), func(c *store.Claim) {
		c.Health, c.Problem = store.ClaimOriginUnavailable, ptr("the site could not be read on the last crawl: HTTP 503")
	})
	var o store.Origin
	if err := f.Dir.ReadJSON(store.OriginPath(a), &o); err != nil {
		t.Fatal(err)
	}
	o.Health, o.Problem = store.OriginUnreachable, ptr("HTTP 503")
	f.Write(store.OriginPath(a), o)
	_, out := build(t, state, Options{Repository: "https://git.example/index"})
	pub := parsePage(t, out, paths.Publishers)
	htmlcheck.Want(t, pub, "main p, main li", "about every six hours", "after the next refresh", "pull request",
		"names AsHyAmS, the project this crawler is part of")
	htmlcheck.Want(t, pub, "main code", "ashyams validate dreamweave.json projects/*.json", "network/sources.toml", "#site-<site>",
		"#claim-<project id>-<site>", product.UserAgent)
	if htmlcheck.Count(t, pub, `main a[href="https://git.example/index"]`) == 0 {
		t.Error("the publishers page does not link the repository")
	}
	for _, rel := range []string{paths.Claim(uuid(1), a), paths.Origin(a), "index.html"} {
		if htmlcheck.Count(t, parsePage(t, out, rel), `a[href$="about/publishers/index.html"]`) == 0 {
			t.Errorf("%s does not link the publishers page", rel)
		}
	}
	for _, rel := range []string{paths.Claim(uuid(1), a), paths.Origin(a)} {
		htmlcheck.Want(t, parsePage(t, out, rel), ".banner p", "If you publish this site: when changes show here")
	}
}

// TestUsedByIsRequiresOnly: a claim page's "Used by" lists exactly the claims whose current
// release requires it (SPEC section 4); every other relationship pointing at it is under
// "Referenced by", as a sentence with the kind's verb ("conflicts with", "is compatible
// with", ...) and the capability it went through.
func TestUsedByIsRequiresOnly(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	lib := sampleManifest(uuid(1), "Lantern Lib", 1)
	lib.Releases[0].Provides = []string{"light:api"}
	f.Claim(a, lib)
	rel := func(n int, name string, rs ...protocol.Relationship) {
		m := sampleManifest(uuid(n), name, 1)
		m.Releases[0].Relationships = rs
		f.Claim(a, m)
	}
	rel(2, "Needs Lib", protocol.Relationship{Kind: "requires", Project: uuid(1)})
	rel(3, "Clashes", protocol.Relationship{Kind: "conflicts", Capability: "light:api"})
	rel(4, "Suggests", protocol.Relationship{Kind: "recommends", Project: uuid(1), Version: ">=1.0"})
	rel(5, "Works With", protocol.Relationship{Kind: "compatible", Project: uuid(1)})
	rel(6, "Successor", protocol.Relationship{Kind: "replaces", Project: uuid(1)})
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Claim(uuid(1), a))
	htmlcheck.One(t, doc, "#used-by h3#referenced-by")
	lists := htmlcheck.All(t, doc, "#used-by ul.list")
	if len(lists) != 2 {
		t.Fatalf("the Used by section has %d lists, want Used by's and Referenced by's", len(lists))
	}
	used, referenced := lists[0], lists[1]
	if got := htmlcheck.Texts(t, used, "li"); len(got) != 1 || !strings.HasPrefix(got[0], "Needs Lib ") {
		t.Errorf("Used by lists %q, want only the claim that requires it", got)
	}
	got := htmlcheck.Texts(t, referenced, "li")
	want := []string{
		"Clashes from this site, release 1.0.0, conflicts with this claim through the capability light:api.",
		"Successor from this site, release 1.0.0, replaces this claim.",
		"Suggests from this site, release 1.0.0, recommends this claim (version >=1.0).",
		"Works With from this site, release 1.0.0, is compatible with this claim.",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("Referenced by says %q, want %q (no use repeated, no kind worded as a bare noun)", got, want)
	}
}

// TestConflictsPageMigrationEvidenceOnce (case 6): a reviewed migration's reason and review
// date appear once on the Conflicts page's Moves, with one full stop, as on the claim page.
func TestConflictsPageMigrationEvidenceOnce(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	from := f.Site("https://lanterns.example/dreamweave.json", "Lanterns")
	to := f.Site("https://ashfall.example/dreamweave.json", "Ashfall")
	f.Claim(from, sampleManifest(uuid(1), "One", 1))
	f.Claim(to, sampleManifest(uuid(1), "One", 2))
	cur := filepath.Join(t.TempDir(), "curation.toml")
	reason := "The old site's front page links the new one; confirmed by the author in issue #12."
	toml := "[[migration]]\nproject = \"" + uuid(1) + "\"\nfrom = \"https://lanterns.example/dreamweave.json\"\nto = \"https://ashfall.example/dreamweave.json\"\nreason = \"" + reason + "\"\nreviewed = \"2026-10-01\"\n"
	if err := os.WriteFile(cur, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := build(t, state, Options{Curation: cur})
	doc := parsePage(t, out, "conflicts/index.html")
	want := "Reviewed migration entry (this index's decision): curation [[migration]] #1, reviewed 2026-10-01: " + reason
	var says []string
	for _, li := range htmlcheck.Texts(t, doc, "main li li") {
		if strings.HasPrefix(li, "Reviewed migration entry") {
			says = append(says, li)
		}
	}
	if len(says) != 1 || says[0] != want {
		t.Errorf("the conflicts page's migration evidence is %q, want once %q (one full stop)", says, want)
	}
	text := htmlcheck.Text(htmlcheck.One(t, doc, "main"))
	for _, s := range []string{"issue #12", "2026-10-01"} {
		if n := strings.Count(text, s); n != 1 {
			t.Errorf("conflicts page says %q %d times, want once", s, n)
		}
	}
}

// TestSitesSharingANameAreToldApart (case 7): two different sites giving themselves the same
// display name (case and surrounding spaces aside) but listing different projects are named
// with their ids everywhere the site is named: project list, search index, releases, updates,
// the feed, titles and the site page; a site with a name of its own is not.
func TestSitesSharingANameAreToldApart(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	real := f.Site("https://a.example/dreamweave.json", "S3ctor's Stash")
	fake := f.Site("https://b.example/dreamweave.json", "  s3ctor's STASH ")
	other := f.Site("https://c.example/dreamweave.json", "Lanterns")
	for i, s := range []string{real, fake, other} {
		m := sampleManifest(uuid(i+1), fmt.Sprint("Proj", i), 1)
		d := f.Claim(s, m)
		f.Event(store.Event{Kind: store.EventObserved, Project: uuid(i + 1), Origin: s, Name: m.Project.Name, ObservedAt: statetest.Time, After: &d, Changes: []diff.Change{}})
	}
	_, out := build(t, state, Options{})
	named := map[string]string{real: "S3ctor's Stash (" + real + ")", fake: "  s3ctor's STASH  (" + fake + ")"} // the name as the site gives it
	for _, rel := range []string{"projects/index.html", "index.html", "releases/index.html", "updates/index.html", "updates/observed/index.html"} {
		doc := parsePage(t, out, rel)
		for s, want := range named {
			want = strings.Join(strings.Fields(want), " ")
			if !htmlcheck.Has(t, doc, "main li", want) && !htmlcheck.Has(t, doc, "main li", want[:strings.Index(want, " (")]+" "+s) {
				t.Errorf("%s does not name the site %s with its id", rel, s)
			}
		}
		htmlcheck.Want(t, doc, "main li", "Lanterns")
		htmlcheck.Lacks(t, doc, "main li", "Lanterns ("+other+")")
	}
	sites := map[string]string{} // claim key -> the site as the search index's rows name it
	for name, b := range dataParts(t, out, find.Dir) {
		if !strings.HasPrefix(name, "r") {
			continue
		}
		var part struct{ Rows [][]any }
		if err := json.Unmarshal(b, &part); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range part.Rows {
			sites[r[0].(string)] = r[3].(string)
		}
	}
	for s, want := range named {
		i := slices.Index([]string{real, fake}, s)
		if got := sites[uuid(i+1)+"/"+s]; strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " ") {
			t.Errorf("the search index names the site %s %q, want %q", s, got, want)
		}
	}
	var atomDoc struct {
		Entries []struct {
			Author string `xml:"author>name"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(readOut(t, out, feed.FeedFile), &atomDoc); err != nil {
		t.Fatal(err)
	}
	authors := map[string]bool{}
	for _, e := range atomDoc.Entries {
		authors[strings.Join(strings.Fields(e.Author), " ")] = true
	}
	for i, s := range []string{real, fake} {
		if want := strings.Join(strings.Fields(named[s]), " "); !authors[want] {
			t.Errorf("the feed has no entry by %q; it has %v", want, authors)
		}
		if got := strings.Join(strings.Fields(pageTitle(t, out, paths.Claim(uuid(i+1), s))), " "); got != strings.Join(strings.Fields(fmt.Sprint("Proj", i)+" from "+named[s]+" · AsHyAmS"), " ") {
			t.Errorf("claim page title %q", got)
		}
		if got := strings.Join(strings.Fields(pageTitle(t, out, paths.Origin(s))), " "); got != strings.Join(strings.Fields("Site "+named[s]+" · AsHyAmS"), " ") {
			t.Errorf("site page title %q", got)
		}
	}
	if got := pageTitle(t, out, paths.Claim(uuid(3), other)); got != "Proj2 from Lanterns · AsHyAmS" {
		t.Errorf("a site of its own name gets no id: title %q", got)
	}
}

// TestDependenciesPerTargetOnConflictedID (case 4): a requires on a project id that two sites
// claim, one at 1.0.0 and one at 2.0.0, with ">=1.0, <2": the Dependencies page gives the
// check for each claim (no single "yes" preferring one), and catalog.json says null.
func TestDependenciesPerTargetOnConflictedID(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	real := f.Site("https://a.example/dreamweave.json", "Broom Works")
	imp := f.Site("https://b.example/dreamweave.json", "Impostor Site")
	user := f.Site("https://c.example/dreamweave.json", "User Site")
	f.Claim(real, sampleManifest(uuid(1), "Morrobroom", 1)) // 1.0.0
	m2 := sampleManifest(uuid(1), "Impostor Broom", 1)
	m2.Releases[0].Version, m2.Channels["stable"] = "2.0.0", protocol.ChannelHead{Version: "2.0.0"}
	f.Claim(imp, m2)
	mu := sampleManifest(uuid(2), "User", 1)
	mu.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(1), Version: ">=1.0, <2"}}
	f.Claim(user, mu)
	_, out := build(t, state, Options{})
	htmlcheck.Want(t, parsePage(t, out, "dependencies/index.html"), "ul.deps li li", "wants >=1.0, <2: not the same for every claim of this id",
		"Impostor Broom (Impostor Site, 2.0.0): no", "Morrobroom (Broom Works, 1.0.0): yes")
	var cat struct {
		Relationships []struct {
			Project   *string          `json:"project"`
			Satisfied *json.RawMessage `json:"satisfied"`
			Resolved  []any            `json:"resolved"`
		} `json:"relationships"`
	}
	if err := json.Unmarshal(readOut(t, out, format.CatalogFile), &cat); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range cat.Relationships {
		if r.Project != nil && *r.Project == uuid(1) {
			found = true
			if r.Satisfied != nil || len(r.Resolved) != 2 {
				t.Errorf("catalog.json: satisfied %s over %d claims, want null over 2", *r.Satisfied, len(r.Resolved))
			}
		}
	}
	if !found {
		t.Error("catalog.json has no relationship to the conflicted id")
	}
}
