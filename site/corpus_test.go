package site

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/feed"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/graph"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

// corpusRoot is ../shared/corpus beside the repository (sitetest.CorpusRoot).
func corpusRoot(tb testing.TB) string { return sitetest.CorpusRoot(tb) }

// corpusBuild is the site built once from the corpus state and its curation, for the tests
// that read it (never write to it): the output directory and the build's result.
func corpusBuild(tb testing.TB) (string, *Result) {
	tb.Helper()
	root := corpusRoot(tb)
	corpusOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ashyams-corpus-site-")
		if err != nil {
			corpusErr = err
			return
		}
		corpusOut = filepath.Join(dir, "public")
		corpusRes, corpusErr = Build(Options{State: filepath.Join(root, "state"), Curation: filepath.Join(root, "network", "curation.toml"), Out: corpusOut})
	})
	if corpusErr != nil {
		tb.Fatalf("building the corpus: %v", corpusErr)
	}
	return corpusOut, corpusRes
}

var (
	corpusOnce sync.Once
	corpusOut  string // removed by TestMain
	corpusRes  *Result
	corpusErr  error
)

// TestBuildCorpus builds the site from each corpusCase's state (a generated network crawled by
// real refreshes, and the real state in ../shared/corpus/state when present) and checks the
// issue's list: every claim and origin has its page, catalog.json and events.json match our
// schema (and the published one, which the corpus holds), check-site passes, and two builds are
// byte-identical.
func TestBuildCorpus(t *testing.T) {
	t.Parallel()
	for _, c := range corpusCases(t) {
		t.Run(c.name, func(t *testing.T) { buildCorpus(t, c) })
	}
}

// corpusCounts are the claims, origins and events of each corpusCase's state.
var corpusCounts = map[string][3]int{"generated": {6, 4, 7}, "corpus": {45, 14, 15}}

func buildCorpus(t *testing.T, c corpusCase) {
	out1, res := c.out, c.res
	snap, err := store.Open(c.state).Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := [3]int{len(snap.Claims), len(snap.Origins), len(snap.Events)}; got != corpusCounts[c.name] {
		t.Fatalf("%d claims, %d origins and %d events, want %v", got[0], got[1], got[2], corpusCounts[c.name])
	}
	pages := map[string]bool{}
	for _, p := range res.Pages {
		pages[p] = true
	}
	for _, c := range snap.Claims {
		p := paths.Claim(c.Project, c.Origin)
		if !pages[p] {
			t.Errorf("claim %s/%s has no page %s", c.Project, c.Origin, p)
		}
		doc := parsePage(t, out1, p)
		if htmlcheck.Count(t, doc, `main a[href="`+c.Entry.Manifest+`"]`) == 0 {
			t.Errorf("%s does not link the claim's manifest URL %s", p, c.Entry.Manifest)
		}
		htmlcheck.Want(t, doc, "main code", c.Ingested()) // the held digest
		if !pages[paths.Project(c.Project)] {
			t.Errorf("project %s has no page", c.Project)
		}
	}
	for _, o := range snap.Origins {
		if !pages[paths.Origin(o.ID)] {
			t.Errorf("origin %s has no page", o.ID)
		}
	}
	for _, e := range snap.Events {
		if !pages[paths.Event(e.ID)] {
			t.Errorf("event %s has no page", e.ID)
		}
	}
	for _, p := range []string{"index.html", "projects/index.html", "origins/index.html", "releases/index.html",
		"updates/index.html", "conflicts/index.html", "capabilities/index.html", "dependencies/index.html",
		"gaps/index.html", "health/index.html", "about/index.html", "about/trust/index.html",
		"about/digests/index.html", "about/listing/index.html", "about/updates/index.html", "404.html"} {
		if !pages[p] {
			t.Errorf("no page %s", p)
		}
	}

	// The machine-readable files against our schema and the published one.
	for _, name := range []string{format.CatalogFile, format.EventsFile} {
		b := readOut(t, out1, name)
		if err := format.Validate(name, b); err != nil {
			t.Errorf("%s against our schema: %v", name, err)
		}
		if c.root == "" {
			continue
		}
		pub, err := format.CompileSchema(os.DirFS(filepath.Join(c.root, "schemas")), format.SchemaFile)
		if err != nil {
			t.Fatal(err)
		}
		if err := pub.Validate(name, b); err != nil {
			t.Errorf("%s against the published schema: %v", name, err)
		}
	}
	for _, f := range []string{feed.FeedFile, "sitemap.xml", "robots.txt", format.SchemaPath, graph.GraphFile} {
		if _, err := os.Stat(filepath.Join(out1, f)); err != nil && f != graph.GraphFile {
			t.Errorf("missing %s: %v", f, err)
		}
	}

	// check-site, with and without the base URL.
	for _, base := range []string{"", DefaultBaseURL} {
		probs, err := linkcheck.Check(out1, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probs {
			t.Errorf("check-site (base %q): %s", base, p)
		}
	}

	// A second build into another directory is byte-identical.
	out2 := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: c.state, Curation: c.curation, Out: out2}); err != nil {
		t.Fatal(err)
	}
	a, b := tree(t, out1), tree(t, out2)
	if len(a) != len(b) {
		t.Errorf("the builds hold %d and %d files", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds of the same state", name)
		}
	}
	// And rebuilding over the second output gives the same bytes again.
	if _, err := Build(Options{State: c.state, Curation: c.curation, Out: out2}); err != nil {
		t.Fatal(err)
	}
	again := tree(t, out2)
	for name, data := range a {
		if !bytes.Equal(data, again[name]) {
			t.Errorf("%s differs after rebuilding in place", name)
		}
	}
}

// tree reads every file under root, by slash path.
func tree(tb testing.TB, root string) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestCorpusPublishesAtReferencePaths builds the corpus state and reads the machine files
// where the reference index publishes them and its readers fetch them: catalog.json and
// events.json valid against the reference's own published schema
// (../shared/corpus/schemas/dreamweave-network-catalog-1.schema.json), all three JSON files
// without indentation, the Atom feed's ids and links, and the feed link of the home page and
// the update lists. Nothing is left at the old root paths, search.json is at the reference's
// path, and setup.json is not published. Each corpusCase is read; the reference's schema is
// the corpus's, so it is read for the real corpus only.
func TestCorpusPublishesAtReferencePaths(t *testing.T) {
	for _, c := range corpusCases(t) {
		t.Run(c.name, func(t *testing.T) { publishesAtReferencePaths(t, c) })
	}
}

func publishesAtReferencePaths(t *testing.T, c corpusCase) {
	out := c.out
	for _, f := range []string{"network-data/catalog.json", "network-data/events.json", "network-data/search.json",
		"network-data/updates.xml", "schemas/dreamweave-network-catalog-1.schema.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("not published at the reference's path: %v", err)
		}
	}
	for _, f := range []string{"catalog.json", "events.json", "search.json", "updates.xml", "dreamweave-network-catalog-1.schema.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s is still at the site's root", f)
		}
	}
	for _, f := range []string{"network-data/setup.json", "schemas/ashyams-setup-1.schema.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s is published", f)
		}
	}
	if b := readOut(t, out, format.SchemaPath); !bytes.Equal(b, mustEmbedded(t, format.SchemaFile)) {
		t.Error("the published schema is not our schema file as written")
	}

	// catalog.json and events.json against the reference's schema, both unindented.
	for _, f := range []string{format.CatalogFile, format.EventsFile} {
		b := readOut(t, out, f)
		if c.root != "" {
			ref, err := format.CompileSchema(os.DirFS(filepath.Join(c.root, "schemas")), format.SchemaFile)
			if err != nil {
				t.Fatal(err)
			}
			if err := ref.Validate(f, b); err != nil {
				t.Errorf("%s against the reference's schema: %v", f, err)
			}
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, b); err != nil || !bytes.Equal(append(compact.Bytes(), '\n'), b) {
			t.Errorf("%s is not written without indentation with one final newline (%v)", f, err)
		}
	}
	var cat struct {
		Index   map[string]string
		Origins []map[string]any
		Claims  []map[string]any
	}
	if err := json.Unmarshal(readOut(t, out, format.CatalogFile), &cat); err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSuffix(DefaultBaseURL, "/"); cat.Index["url"] != want || cat.Index["name"] != IndexName || cat.Index["repository"] != DefaultRepository {
		t.Errorf("index = %v, want url %s (no final slash), name %s, repository %s", cat.Index, want, IndexName, DefaultRepository)
	}
	counts := corpusCounts[c.name]
	if len(cat.Origins) != counts[1] || len(cat.Claims) != counts[0] {
		t.Fatalf("%d origins and %d claims, want %d and %d", len(cat.Origins), len(cat.Claims), counts[1], counts[0])
	}
	originKeys := "id index_url site_name site_url sources health problem first_observed last_attempt last_success projects"
	if got := objectKeys(cat.Origins[0]); got != sortedWords(originKeys) {
		t.Errorf("an origin has the keys %s, want %s", got, sortedWords(originKeys))
	}
	claimKeys := "project origin name summary type status versioning game license tags page manifest_url manifest_sha256 advertised_sha256 health cached problem first_observed last_changed last_attempt last_success channels current runtimes lua_api provides conflict superseded_by network_page"
	for _, cl := range cat.Claims {
		if got := objectKeys(cl); got != sortedWords(claimKeys) {
			t.Fatalf("a claim has the keys %s, want %s", got, sortedWords(claimKeys))
		}
		if want := DefaultBaseURL + "projects/" + cl["project"].(string) + "/" + cl["origin"].(string) + "/"; cl["network_page"] != want {
			t.Errorf("network_page %v, want %s", cl["network_page"], want)
		}
	}
	var evs struct {
		Events []struct {
			ID, Name, Headline, ObservedAt string
			Tags                           []string
		}
	}
	if err := json.Unmarshal(readOut(t, out, format.EventsFile), &evs); err != nil {
		t.Fatal(err)
	}
	if len(evs.Events) != counts[2] {
		t.Fatalf("%d events, want %d", len(evs.Events), counts[2])
	}
	headlines := map[string]string{}
	for _, e := range evs.Events {
		if e.Headline == "" || strings.HasPrefix(e.Headline, e.Name+":") || len(e.Tags) == 0 {
			t.Errorf("event %s: headline %q (the name is its own field) tags %v", e.ID, e.Headline, e.Tags)
		}
		headlines[e.ID] = e.Name + ": " + e.Headline
	}

	checkFeed(t, out, DefaultBaseURL, c.observed, headlines)

	// Every link of the site resolves.
	res, err := linkcheck.Check(out, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res {
		t.Errorf("check-site: %s", p)
	}
	// The network's feed is the alternate of the pages it is the feed of (home, the update
	// lists), and not of every page.
	want := `head > link[rel=alternate][type="application/atom+xml"][title="AsHyAmS updates"]`
	for p, n := range map[string]int{"index.html": 1, "updates/index.html": 1, "updates/release/index.html": 1, "projects/index.html": 0, "about/index.html": 0,
		paths.Claim(c.project, c.site): 0} {
		doc := parsePage(t, out, p)
		if got := htmlcheck.Count(t, doc, want); got != n {
			t.Errorf("%s has %d %s, want %d", p, got, want, n)
		}
		if n == 1 {
			if h := htmlcheck.Attr(htmlcheck.One(t, doc, want), "href"); h != paths.Root(p)+feed.FeedFile {
				t.Errorf("%s links the feed at %q, want %q", p, h, paths.Root(p)+feed.FeedFile)
			}
		}
	}
}

// mustEmbedded is a file of schemas.FS.
func mustEmbedded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(schemas.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func objectKeys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

func sortedWords(s string) string {
	w := strings.Fields(s)
	sort.Strings(w)
	return strings.Join(w, " ")
}

// checkFeed reads the Atom feed as the reference writes it: id <base>updates/, self link
// <base>network-data/updates.xml, alternate <base>updates/, updated the last refresh's start;
// each entry's id and link <base>updates/<event-id>/ and its title "<name>: <headline>" of
// events.json (titles, by event id).
func checkFeed(t *testing.T, out, base, observed string, titles map[string]string) {
	t.Helper()
	type link struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
	}
	var atomDoc struct {
		ID      string `xml:"id"`
		Updated string `xml:"updated"`
		Links   []link `xml:"link"`
		Entries []struct {
			ID      string `xml:"id"`
			Title   string `xml:"title"`
			Updated string `xml:"updated"`
			Author  string `xml:"author>name"`
			Summary string `xml:"summary"`
			Links   []link `xml:"link"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(readOut(t, out, feed.FeedFile), &atomDoc); err != nil {
		t.Fatal(err)
	}
	if atomDoc.ID != base+"updates/" || atomDoc.Updated != observed {
		t.Errorf("feed id %q updated %q, want %supdates/ and %s", atomDoc.ID, atomDoc.Updated, base, observed)
	}
	rels := map[string]string{}
	for _, l := range atomDoc.Links {
		rels[l.Rel] = l.Href
	}
	if rels["self"] != base+"network-data/updates.xml" || rels["alternate"] != base+"updates/" || len(rels) != 2 {
		t.Errorf("feed links %v, want self %snetwork-data/updates.xml and alternate %supdates/", rels, base, base)
	}
	if len(atomDoc.Entries) != min(len(titles), feed.FeedSize) {
		t.Errorf("%d entries for %d events", len(atomDoc.Entries), len(titles))
	}
	for _, e := range atomDoc.Entries {
		id := strings.TrimSuffix(strings.TrimPrefix(e.ID, base+"updates/"), "/")
		if e.ID != base+"updates/"+id+"/" || titles[id] == "" {
			t.Errorf("entry id %q is not <base>updates/<event-id>/ of a recorded event", e.ID)
			continue
		}
		if len(e.Links) != 1 || e.Links[0].Href != e.ID {
			t.Errorf("entry %s links %v, want its id", id, e.Links)
		}
		if e.Title != titles[id] {
			t.Errorf("entry %s title %q, want %q", id, e.Title, titles[id])
		}
		if e.Author == "" {
			t.Errorf("entry %s has no author", id)
		}
		// The summary (HTML) gives the tags, the time and the site.
		htmlcheck.Want(t, htmlcheck.Parse(t, []byte(e.Summary)), "body", e.Author, e.Updated, "Tags: ")
	}
}
