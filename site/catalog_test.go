package site

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/feed"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// TestClaimTextAgrees: a current claim whose manifest lists no releases says exactly that and
// nothing about manifests failing checks; a claim that never held a manifest, whose recorded
// problem ends "the last good manifest is kept", never says so on its page, the health page or
// the project list, and the project list gives its real reason (the health and the problem).
func TestClaimTextAgrees(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	empty := uuid(1)
	f.Claim(site, sampleManifest(empty, "Empty Shelf", 0))
	f.Claim(site, sampleManifest(uuid(2), "Full Shelf", 1))
	never := uuid(3)
	kept := "the manifest served at https://a.example/never.json hashes to " + strings.Repeat("a", 64) +
		", but the site index advertises " + strings.Repeat("b", 64) + " (read 3 times); the last good manifest is kept"
	f.Write(store.ClaimPath(never, site), store.Claim{Project: never, Origin: site,
		Entry:            protocol.IndexEntry{ID: never, Name: "Half Deployed", Type: "mod", Status: "active", Manifest: "https://a.example/never.json", ManifestSHA256: strings.Repeat("b", 64), Channels: map[string]string{}},
		AdvertisedSHA256: strings.Repeat("b", 64), Health: store.ClaimInconsistent, Problem: ptr(kept),
		FirstObserved: statetest.Time, LastAttempt: statetest.Time})
	_, out := build(t, state, Options{})

	emptyDoc := parsePage(t, out, paths.Claim(empty, site))
	if got := htmlcheck.Texts(t, emptyDoc, "p#current, #releases > p"); !slices.Equal(got, []string{"The manifest lists no releases.", "The manifest lists no releases."}) {
		t.Errorf("the claim whose manifest lists no releases says %q, want that and nothing more", got)
	}
	htmlcheck.Lacks(t, emptyDoc, "main", "passed every check", "no channel has")

	for _, c := range []struct{ page, sel string }{
		{paths.Claim(never, site), "main"}, {"health/index.html", "main ul.list li li"}, {"projects/index.html", "main ul.list > li"},
	} {
		htmlcheck.Lacks(t, parsePage(t, out, c.page), c.sel, "last good manifest is kept", "last good data kept")
	}
	htmlcheck.Want(t, parsePage(t, out, paths.Claim(never, site)), "#staleness p", "no earlier manifest from this site passed every check, so nothing is kept")
	list := parsePage(t, out, "projects/index.html")
	var line *html.Node
	for _, li := range htmlcheck.All(t, list, "main ul.list > li") {
		if htmlcheck.Text(htmlcheck.One(t, li, "a bdi")) == "Half Deployed" {
			line = li
		}
	}
	if line == nil {
		t.Fatal("the project list does not name the claim out of the catalog")
	}
	htmlcheck.Want(t, line, "li", "no manifest from this site has passed every check yet", "Inconsistent deployment", "hashes to")
}

// catalogState is a small catalog for the player-facing pages: five claims on two sites, with
// types, statuses, tags in two spellings ("Lua", "lua"), OpenMW constraints (one release
// without any), publisher dates, change times, a requires relationship, and events: four
// first observations at one time and a later change.
func catalogState(t *testing.T) (out, siteA string) {
	t.Helper()
	state := t.TempDir()
	f := statetest.In(t, state)
	siteA = f.Site("https://a.example/dreamweave.json", "Site A")
	siteB := f.Site("https://b.example/dreamweave.json", "Site B")
	type spec struct {
		site, name, typ, status, openmw, date, changed string
		tags                                           []string
	}
	specs := []spec{
		{siteA, "Amber Lamps", "mod", "active", ">=0.48, <0.50", "2026-09-10", "2026-09-20T00:00:00Z", []string{"Lua", "Lighting"}},
		{siteA, "Brass Gears", "library", "active", "", "2026-08-01", "2026-09-25T00:00:00Z", []string{"lua"}},
		{siteA, "Cinder Paths", "mod", "experimental", ">=0.50", "2026-09-28", "2026-09-05T00:00:00Z", []string{"Paths"}},
		{siteB, "Dusk Bells", "tool", "active", "=0.49.1", "2026-07-01", "2026-09-01T00:00:00Z", nil},
	}
	var digests []string
	for i, s := range specs {
		m := sampleManifest(uuid(i+1), s.name, 1)
		m.Project.Type, m.Project.Status, m.Project.Tags = s.typ, s.status, s.tags
		r := &m.Releases[0]
		r.Date = s.date
		r.Runtimes = map[string]string{}
		if s.openmw != "" {
			r.Runtimes["openmw"] = s.openmw
		}
		if s.name == "Amber Lamps" {
			r.Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(2), Version: ">=1.0"}}
		}
		changed := s.changed
		digests = append(digests, f.Claim(s.site, m, func(c *store.Claim) { c.LastChanged = &changed }))
	}
	for i, s := range specs {
		d := digests[i]
		f.Event(store.Event{Kind: store.EventObserved, Project: uuid(i + 1), Origin: s.site, Name: s.name, ObservedAt: "2026-09-01T00:00:00Z", After: &d, Changes: []diff.Change{}})
	}
	before := strings.Repeat("c", 64)
	f.Event(store.Event{Kind: store.EventChanged, Project: uuid(1), Origin: siteA, Name: "Amber Lamps", ObservedAt: "2026-09-20T00:00:00Z",
		Before: &before, After: &digests[0], Changes: []diff.Change{{Change: "project-field", Field: "summary", Before: json.RawMessage(`"old"`), After: json.RawMessage(`"new"`)}}})
	_, out = build(t, state, Options{})
	return out, siteA
}

// TestProjectFeed: each project has an Atom feed of its claims' events, newest first, that
// parses as Atom and holds what RFC 4287 asks (id, title, updated, a self link, an author for
// each entry, each entry's id, title, updated and alternate link: a link without rel is the
// alternate), each entry's summary the event's tags as text and nothing the entry says
// already; the feed has no XML declaration (UTF-8 is XML's default); and its project and
// claim pages link it as an alternate.
func TestProjectFeed(t *testing.T) {
	out, siteA := catalogState(t)
	type link struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
	}
	alternates := func(ls []link) (alt []string) {
		for _, l := range ls {
			if l.Rel == "" || l.Rel == "alternate" {
				alt = append(alt, l.Href)
			}
		}
		return alt
	}
	type entry struct {
		Title   string `xml:"title"`
		ID      string `xml:"id"`
		Updated string `xml:"updated"`
		Author  string `xml:"author>name"`
		Summary struct {
			Text string `xml:",chardata"`
			Type string `xml:"type,attr"`
		} `xml:"summary"`
		Links []link `xml:"link"`
	}
	var feed struct {
		XMLName xml.Name
		ID      string  `xml:"id"`
		Title   string  `xml:"title"`
		Updated string  `xml:"updated"`
		Author  string  `xml:"author>name"`
		Links   []link  `xml:"link"`
		Entries []entry `xml:"entry"`
	}
	raw := readOut(t, out, paths.ProjectFeed(uuid(1)))
	if err := xml.Unmarshal(raw, &feed); err != nil {
		t.Fatalf("the project feed does not parse: %v", err)
	}
	if tok, err := xml.NewDecoder(bytes.NewReader(raw)).Token(); err != nil {
		t.Fatal(err)
	} else if _, ok := tok.(xml.StartElement); !ok {
		t.Errorf("the project feed starts with %#v, not its feed element", tok)
	}
	if feed.XMLName.Space != "http://www.w3.org/2005/Atom" || feed.XMLName.Local != "feed" {
		t.Fatalf("the project feed's root is %v, not an Atom feed", feed.XMLName)
	}
	if len(feed.Entries) != 2 || !strings.HasPrefix(feed.Entries[0].Title, "Amber Lamps: ") || feed.Entries[1].Title != "Amber Lamps: first observed" {
		t.Errorf("the feed of Amber Lamps holds %+v, want its change, then its first observation", feed.Entries)
	}
	if feed.Updated != "2026-09-20T00:00:00Z" {
		t.Errorf("the feed's updated is %q, want the newest event's time", feed.Updated)
	}
	page := DefaultBaseURL + paths.Dir(paths.Project(uuid(1)))
	self := []link{{DefaultBaseURL + paths.ProjectFeed(uuid(1)), "self"}}
	if feed.ID != page || feed.Title == "" || !slices.Equal(alternates(feed.Links), []string{page}) || !slices.ContainsFunc(feed.Links, func(l link) bool { return l == self[0] }) {
		t.Errorf("the feed's id %q, title %q, links %v; want the project page as id and alternate, and self", feed.ID, feed.Title, feed.Links)
	}
	for _, e := range feed.Entries {
		if !strings.HasPrefix(e.ID, DefaultBaseURL+"updates/") {
			t.Errorf("entry id %q is not an update page", e.ID)
		}
		if !slices.Equal(alternates(e.Links), []string{e.ID}) || e.Updated == "" || e.Title == "" {
			t.Errorf("entry %s: links %v, updated %q, title %q; want its page as the alternate", e.ID, e.Links, e.Updated, e.Title)
		}
		want := "Tags: observed."
		if strings.HasSuffix(e.Title, ": summary changed") {
			want = "Tags: metadata."
		}
		if sum := e.Summary; e.Author != "Site A" || sum.Text != want || sum.Type != "" {
			t.Errorf("entry %s: author %q, summary %q of type %q; want the site as author, %q as text", e.ID, e.Author, sum.Text, sum.Type, want)
		}
	}
	for _, p := range []string{paths.Project(uuid(1)), paths.Claim(uuid(1), siteA)} {
		doc := parsePage(t, out, p)
		found := false
		walk(doc, func(n *html.Node) bool {
			if n.Type == html.ElementNode && n.DataAtom == atom.Link {
				rel, _ := attr(n, "rel")
				typ, _ := attr(n, "type")
				href, _ := attr(n, "href")
				if rel == "alternate" && typ == "application/atom+xml" && path.Clean(path.Join(path.Dir(p), href)) == paths.ProjectFeed(uuid(1)) {
					found = true
				}
			}
			return true
		})
		if !found {
			t.Errorf("%s does not link its project's feed as an alternate", p)
		}
	}
}

// TestProjectsOPML: the OPML lists every project's feed once, an OPML 2.0 outline of type
// rss named as the feed names the project, its xmlUrl the feed's absolute URL, and no
// htmlUrl: the feed links the project page itself.
func TestProjectsOPML(t *testing.T) {
	out, _ := catalogState(t)
	type outline struct {
		Attrs []xml.Attr `xml:",any,attr"`
	}
	type link struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
	}
	var doc struct {
		XMLName  xml.Name  `xml:"opml"`
		Version  string    `xml:"version,attr"`
		Title    string    `xml:"head>title"`
		Outlines []outline `xml:"body>outline"`
	}
	if err := xml.Unmarshal(readOut(t, out, feed.OPMLFile), &doc); err != nil {
		t.Fatalf("%s does not parse: %v", feed.OPMLFile, err)
	}
	if doc.Version != "2.0" || doc.Title == "" {
		t.Errorf("%s: version %q, title %q", feed.OPMLFile, doc.Version, doc.Title)
	}
	feeds, err := filepath.Glob(filepath.Join(out, "projects", "*", "updates.xml"))
	if err != nil || len(feeds) < 4 {
		t.Fatalf("%d project feeds (%v)", len(feeds), err)
	}
	seen := map[string]bool{}
	for _, o := range doc.Outlines {
		a := map[string]string{}
		for _, at := range o.Attrs {
			a[at.Name.Local] = at.Value
		}
		rel, ok := strings.CutPrefix(a["xmlUrl"], DefaultBaseURL)
		if len(a) != 3 || a["type"] != "rss" || !ok || seen[rel] {
			t.Errorf("an outline holds %v; want type rss, text and the xmlUrl of a feed not listed yet, nothing else", a)
			continue
		}
		seen[rel] = true
		var feed struct {
			Title string `xml:"title"`
			Links []link `xml:"link"`
		}
		if err := xml.Unmarshal(readOut(t, out, rel), &feed); err != nil {
			t.Errorf("the feed %s: %v", rel, err)
			continue
		}
		if feed.Title != IndexName+": "+a["text"] {
			t.Errorf("the outline of %s is named %q, its feed %q", rel, a["text"], feed.Title)
		}
		page := DefaultBaseURL + path.Dir(rel) + "/"
		if !slices.ContainsFunc(feed.Links, func(l link) bool { return l.Href == page && (l.Rel == "" || l.Rel == "alternate") }) {
			t.Errorf("the feed %s does not link its project page %s: %v", rel, page, feed.Links)
		}
	}
	if len(seen) != len(feeds) {
		t.Errorf("%s lists %d feeds of %d", feed.OPMLFile, len(seen), len(feeds))
	}
}

// TestBrowsePages: the no-script lists exist for every type, status and tag (tags folded by
// case onto one page), foundations, recently released (publisher's date, newest first) and
// recently updated (change time, newest first), and the browse index links them all.
func TestBrowsePages(t *testing.T) {
	out, _ := catalogState(t)
	names := func(p string) []string {
		var got []string
		walk(parsePage(t, out, p), func(n *html.Node) bool {
			if n.Type == html.ElementNode && n.DataAtom == atom.A {
				if n.Parent.DataAtom == atom.Li && hasClass(n.Parent.Parent, "brief") && n.Parent.FirstChild == n {
					got = append(got, strings.TrimSpace(visibleText(n)))
				}
			}
			return true
		})
		return strings.Split(strings.Join(got, ","), ",")
	}
	for p, want := range map[string]string{
		"browse/type-mod/index.html":            "Amber Lamps,Cinder Paths",
		"browse/type-library/index.html":        "Brass Gears",
		"browse/status-experimental/index.html": "Cinder Paths",
		"browse/tag-lua/index.html":             "Amber Lamps,Brass Gears",
		"browse/foundations/index.html":         "Brass Gears",
		"browse/recently-released/index.html":   "Cinder Paths,Amber Lamps,Brass Gears,Dusk Bells",
		"browse/recently-updated/index.html":    "Brass Gears,Amber Lamps,Cinder Paths,Dusk Bells",
	} {
		if got := strings.Join(names(p), ","); got != want {
			t.Errorf("%s lists %s, want %s", p, got, want)
		}
	}
	linked := map[string]bool{}
	for _, a := range htmlcheck.All(t, parsePage(t, out, paths.Browse), "main a[href]") {
		linked[path.Join(path.Dir(paths.Browse), htmlcheck.Attr(a, "href"))] = true
	}
	for _, l := range []string{"type-mod/", "type-library/", "type-tool/", "status-active/", "status-experimental/", "tag-lua/", "tag-lighting/", "tag-paths/", "foundations/", "recently-released/", "recently-updated/"} {
		if !linked["browse/"+l+"index.html"] {
			t.Errorf("browse/ does not link %s", l)
		}
	}
}

// TestNavigationAndNetworkPage: the navigation is six plain entries, and the network page
// leads to conflicts, capabilities, dependencies, gaps, health and releases.
func TestNavigationAndNetworkPage(t *testing.T) {
	out, _ := catalogState(t)
	doc := parsePage(t, out, "index.html")
	var labels []string
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.DataAtom == atom.Nav {
			walk(n, func(a *html.Node) bool {
				if a.Type == html.ElementNode && a.DataAtom == atom.A {
					labels = append(labels, visibleText(a))
				}
				return true
			})
			return false
		}
		return true
	})
	if got := strings.Join(labels, ","); got != "Projects,Updates,Sites,Plan,Your setup,About" {
		t.Errorf("the navigation is %s", got)
	}
	network := parsePage(t, out, paths.Network)
	for _, p := range []string{"conflicts/", "capabilities/", "dependencies/", "gaps/", "health/", "releases/"} {
		if htmlcheck.Count(t, network, `main a[href="../`+p+`index.html"]`) == 0 {
			t.Errorf("the network page does not link %s", p)
		}
	}
	if htmlcheck.Count(t, parsePage(t, out, "origins/index.html"), `main a[href="../network/index.html"]`) == 0 {
		t.Error("the Sites page does not link the network page")
	}
}

// TestHomeGroupsFirstObservations: the home page's "What changed lately" shows a first
// crawl's first observations as one line, and other events one by one.
func TestHomeGroupsFirstObservations(t *testing.T) {
	out, _ := catalogState(t)
	doc := parsePage(t, out, "index.html")
	lines := htmlcheck.Texts(t, doc, "section#lately ul.list > li")
	if n := strings.Count(strings.Join(lines, "\n"), "listed for the first time"); n != 1 {
		t.Errorf("the first observations take %d lines, want 1: %q", n, lines)
	}
	htmlcheck.Want(t, doc, "section#lately ul.list > li", "4 projects listed for the first time", "Amber Lamps (Site A)", "Dusk Bells (Site B)", "Amber Lamps (Site A): summary")
}

// TestJoinPage: the join page tells how to publish, validate, inspect and ask, and what
// review does not mean; every page's frame links it from the home page.
func TestJoinPage(t *testing.T) {
	out, _ := catalogState(t)
	join := parsePage(t, out, paths.Join)
	htmlcheck.Want(t, join, "main code, main pre", "ashyams validate dreamweave.json", "ashyams inspect", "ashyams add", "network/sources.toml")
	htmlcheck.Want(t, join, "main p, main li", "Review does not test your mods", "not an endorsement")
	if htmlcheck.Count(t, parsePage(t, out, "index.html"), `a[href="join/index.html"]`) == 0 {
		t.Error("the home page does not link the join page")
	}
}

// TestClaimReleaseOrder: the claim page lists the current release first, then the other
// channels' heads, then development builds, older releases and yanked or deprecated ones in
// the manifest's order, each in its line, a yanked or deprecated one with its status marked
// and its reason; the first screen's download buttons are the current release's.
func TestClaimReleaseOrder(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	m := sampleManifest(uuid(1), "Layered", 5) // 1.0.4 .. 1.0.0, newest first, stable
	for i := range m.Releases {
		r := &m.Releases[i]
		switch r.Version {
		case "1.0.4": // first in the manifest, as real manifests put their rolling build
			r.Channel, r.Version = "development", "1.1.0-dev.1"
		case "1.0.3":
			r.Channel = "beta"
		case "1.0.2":
			r.Status, r.Yanked = "yanked", &protocol.Notice{Reason: "corrupts saves", Replacement: "1.0.1"}
		case "1.0.0":
			r.Status, r.Deprecated = "deprecated", &protocol.Notice{Reason: "old format"}
		}
		r.Artifacts[0].Sources[0].URL = "https://example.org/dl/" + r.Version + ".zip"
		r.Source.Tag = r.Version
	}
	f.Claim(site, m)
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Claim(uuid(1), site))
	var order []string
	for _, li := range htmlcheck.All(t, doc, `ul.releases > li[id^="release-"]`) {
		order = append(order, strings.TrimPrefix(htmlcheck.Attr(li, "id"), "release-"))
	}
	if got := strings.Join(order, " "); got != "1.0.1 1.0.3 1.1.0-dev.1 1.0.2 1.0.0" {
		t.Errorf("the releases are in the order %s, want the current 1.0.1, the beta head 1.0.3, then the rest in manifest order", got)
	}
	for v, w := range map[string]string{"1.0.2": "corrupts saves", "1.0.0": "old format", "1.0.1": "current"} {
		htmlcheck.Want(t, doc, `li[id="release-`+v+`"]`, w)
	}
	for _, v := range []string{"1.0.2", "1.0.0"} {
		htmlcheck.One(t, doc, `li[id="release-`+v+`"] > span.badge.bad[data-pub]`)
	}
	var downloads []string
	for _, a := range htmlcheck.All(t, doc, "a.download") {
		downloads = append(downloads, htmlcheck.Attr(a, "href"))
	}
	if len(downloads) == 0 || downloads[0] != "https://example.org/dl/1.0.1.zip" {
		t.Errorf("the download buttons are %v, want the current release's first", downloads)
	}
}
