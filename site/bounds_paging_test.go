package site

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/claim"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/sites"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// pagesOf reads every page of the paged list whose first page is at first by following each
// page's pager link rel=next (a[rel=next] in the pager at its foot), and checks the pager's
// own words on each: page k of len(pages). It fails when the chain is longer than max pages.
func pagesOf(t *testing.T, out, first string, max int) []*html.Node {
	t.Helper()
	var docs []*html.Node
	rel := first
	for k := 1; ; k++ {
		if k > max {
			t.Fatalf("%s: more than %d pages", first, max)
		}
		if want := paths.Page(first, k); rel != want {
			t.Fatalf("%s: page %d is at %s, want %s", first, k, rel, want)
		}
		doc := parsePage(t, out, rel)
		docs = append(docs, doc)
		next := htmlcheck.All(t, doc, "nav.pager a[rel=next]")
		if len(next) == 0 {
			break
		}
		rel = resolveFrom(rel, htmlcheck.Attr(next[0], "href"))
	}
	if len(docs) > 1 {
		for k, doc := range docs {
			cur := htmlcheck.One(t, doc, `nav.pager a[aria-current=page]`)
			if got := htmlcheck.Text(cur); got != fmt.Sprint(k+1) {
				t.Errorf("%s: page %d's pager marks page %s as the current one", first, k+1, got)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(paths.Page(first, len(docs)+1)))); err == nil {
		t.Errorf("%s: a page past the last (%d) was written", first, len(docs))
	}
	return docs
}

// resolveFrom is href, a relative link on the page at rel, as a path from the output root.
func resolveFrom(rel, href string) string {
	return filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(rel), filepath.FromSlash(href))))
}

// TestUsedByPagedPerClaim: the used-by list names, on a claim's line, its first
// sites.UsedByListed users and links, for the rest, the claim's own list of every claim that
// requires it (paths.UsedByOf), paged paths.PageSize at a time with plain links to the next
// page; the claim page's "and others" names that list too. A claim few require has no such
// list and its line links none.
func TestUsedByPagedPerClaim(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	f.Claim(a, sampleManifest(uuid(0), "Lib", 1))
	n := paths.PageSize + 3
	for i := 1; i <= n; i++ {
		m := sampleManifest(uuid(i), fmt.Sprintf("User %02d", i), 1)
		m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(0)}}
		f.Claim(a, m)
	}
	f.Claim(a, sampleManifest(uuid(100), "Few", 1))
	m := sampleManifest(uuid(101), "Needs Few", 1)
	m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(100)}}
	f.Claim(a, m)
	_, out := build(t, state, Options{})

	own := paths.UsedByOf(uuid(0), a)
	lines := htmlcheck.All(t, parsePage(t, out, paths.UsedBy), "main ul.list > li")
	if len(lines) != 2 {
		t.Fatalf("the used-by list has %d lines, want 2 (Few, Lib)", len(lines))
	}
	few, lib := lines[0], lines[1]
	if k := htmlcheck.Count(t, few, "a"); k != 2 {
		t.Errorf("Few's line has %d links, want its own and Needs Few's", k)
	}
	links := htmlcheck.All(t, lib, "a")
	if len(links) != 1+sites.UsedByListed+1 {
		t.Fatalf("Lib's line has %d links, want itself, %d users and the rest", len(links), sites.UsedByListed)
	}
	more := links[len(links)-1]
	if got, want := htmlcheck.Attr(more, "href"), (&render.Page{Path: paths.UsedBy}).Near(own); got != want {
		t.Errorf("Lib's line links %q for the rest, want %q", got, want)
	}
	if got, want := htmlcheck.Text(more), fmt.Sprintf("%d more", n-sites.UsedByListed); got != want {
		t.Errorf("Lib's line says %q for the rest, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(paths.UsedByOf(uuid(100), a)))); err == nil {
		t.Error("Few, required once, has a used-by list of its own")
	}

	docs := pagesOf(t, out, own, 3)
	if len(docs) != 2 {
		t.Fatalf("Lib's used-by list has %d pages, want 2", len(docs))
	}
	var names []string
	for _, doc := range docs {
		for _, li := range htmlcheck.All(t, doc, "main ul.list > li") {
			names = append(names, htmlcheck.Text(htmlcheck.All(t, li, "a")[0]))
		}
	}
	seen := map[string]int{}
	for _, name := range names {
		seen[name]++
	}
	for i := 1; i <= n; i++ {
		if name := fmt.Sprintf("User %02d", i); seen[name] != 1 {
			t.Errorf("Lib's used-by list names %s %d times, want once", name, seen[name])
		}
	}
	if len(names) != n {
		t.Errorf("Lib's used-by list names %d claims, want %d", len(names), n)
	}
	for i, l := range links[1 : 1+sites.UsedByListed] {
		if got := htmlcheck.Text(l); got != names[i] {
			t.Errorf("Lib's line names %q as user %d, its own list %q", got, i+1, names[i])
		}
	}
	if k := htmlcheck.Count(t, docs[0], "main ul.list > li"); k != paths.PageSize {
		t.Errorf("page 1 holds %d entries, want %d", k, paths.PageSize)
	}

	claimPage := paths.Claim(uuid(0), a)
	sec := htmlcheck.One(t, parsePage(t, out, claimPage), "section#used-by")
	if got, want := htmlcheck.Attr(htmlcheck.One(t, sec, "p > a"), "href"), (&render.Page{Path: claimPage}).Rel(own); got != want {
		t.Errorf("Lib's page links %q for the rest of its users, want %q", got, want)
	}
}

// TestCapabilitiesPaged: the capabilities list pages by capability and names, on a
// capability's line, its first sites.ProvidersListed providers and links the rest on its page;
// a capability's page lists its providers, then the releases referencing it, paged
// paths.PageSize entries at a time, and every link to its references names the page where
// they begin. A relationship naming it names its first view.TargetsShown providers, on the
// dependency list and on the claim page, and links the rest.
func TestCapabilitiesPaged(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	const shared = "x:shared"
	n := paths.PageSize + 3
	for i := 1; i <= n; i++ {
		m := sampleManifest(uuid(i), fmt.Sprintf("Provider %02d", i), 1)
		m.Releases[0].Provides = []string{shared}
		if i == 1 {
			for k := 0; k < paths.PageSize; k++ {
				m.Releases[0].Provides = append(m.Releases[0].Provides, fmt.Sprintf("x:own-%02d", k))
			}
		}
		f.Claim(a, m)
	}
	const users = 3
	for i := 1; i <= users; i++ {
		m := sampleManifest(uuid(100+i), fmt.Sprintf("User %d", i), 1)
		m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Capability: shared}}
		f.Claim(a, m)
	}
	_, out := build(t, state, Options{})

	capPage := paths.Capability(shared)
	// The list: 51 capabilities (x:own-00..49 and x:shared) on two pages.
	list := pagesOf(t, out, "capabilities/index.html", 3)
	if len(list) != 2 {
		t.Fatalf("the capabilities list has %d pages, want 2", len(list))
	}
	var line *html.Node
	var at string
	total := 0
	for k, doc := range list {
		for _, li := range htmlcheck.All(t, doc, "main ul.list > li") {
			total++
			if htmlcheck.Text(htmlcheck.One(t, li, "code")) == shared {
				line, at = li, paths.Page("capabilities/index.html", k+1)
			}
		}
	}
	if total != paths.PageSize+1 || line == nil {
		t.Fatalf("the capabilities list holds %d lines (want %d), %s among them: %v", total, paths.PageSize+1, shared, line != nil)
	}
	links := htmlcheck.All(t, line, "a")
	// The capability, ProvidersListed providers, the rest, the references.
	if len(links) != 1+sites.ProvidersListed+2 {
		t.Fatalf("%s's line has %d links, want %d", shared, len(links), 1+sites.ProvidersListed+2)
	}
	from := &render.Page{Path: at}
	if got, want := htmlcheck.Attr(links[len(links)-2], "href"), from.Near(capPage)+"#providers"; got != want {
		t.Errorf("%s's line links %q for the other providers, want %q", shared, got, want)
	}
	if got, want := htmlcheck.Text(links[len(links)-2]), fmt.Sprintf("%d more", n-sites.ProvidersListed); got != want {
		t.Errorf("%s's line says %q, want %q", shared, got, want)
	}
	refs := paths.Page(capPage, 2) + "#references"
	if got, want := htmlcheck.Attr(links[len(links)-1], "href"), from.Near(refs); got != want {
		t.Errorf("%s's line links %q for its references, want %q (the page that begins them)", shared, got, want)
	}

	// The capability's page: 53 providers, then 3 references, on two pages.
	docs := pagesOf(t, out, capPage, 3)
	if len(docs) != 2 {
		t.Fatalf("%s has %d pages, want 2", capPage, len(docs))
	}
	if htmlcheck.Count(t, docs[0], "h2#providers") != 1 || htmlcheck.Count(t, docs[0], "h2#references") != 0 {
		t.Error("page 1 does not begin the providers, or holds the references")
	}
	if htmlcheck.Count(t, docs[1], "h2#references") != 1 {
		t.Error("page 2 does not hold the references' heading")
	}
	var provs, refLines int
	for _, doc := range docs {
		for _, ul := range htmlcheck.All(t, doc, "main ul.list") {
			h := ul.PrevSibling
			for h != nil && h.Type != html.ElementNode {
				h = h.PrevSibling
			}
			switch k := htmlcheck.Count(t, ul, "ul > li"); htmlcheck.Attr(h, "id") {
			case "providers":
				provs += k
			case "references":
				refLines += k
			}
		}
	}
	if provs != n || refLines != users {
		t.Errorf("%s's pages list %d providers and %d references, want %d and %d", shared, provs, refLines, n, users)
	}

	// A relationship naming it: TargetsShown providers and the rest on the capability's page.
	deps := parsePage(t, out, "dependencies/index.html")
	checkMore := func(where, want string, rel *html.Node) {
		t.Helper()
		as := htmlcheck.All(t, rel, "a")
		last := as[len(as)-1]
		if got := htmlcheck.Attr(last, "href"); got != want {
			t.Errorf("%s links %q for the other providers, want %q", where, got, want)
		}
		if got, want := htmlcheck.Text(last), fmt.Sprintf("%d more", n-view.TargetsShown); got != want {
			t.Errorf("%s says %q for the other providers, want %q", where, got, want)
		}
		claims := 0
		for _, x := range as {
			if strings.HasPrefix(htmlcheck.Text(x), "Provider ") {
				claims++
			}
		}
		if claims != view.TargetsShown {
			t.Errorf("%s names %d providers, want %d", where, claims, view.TargetsShown)
		}
	}
	for _, rel := range htmlcheck.All(t, deps, "ul.deps > li > ul > li") {
		checkMore("the dependency list", (&render.Page{Path: "dependencies/index.html"}).Near(capPage)+"#providers", rel)
	}
	claimPage := paths.Claim(uuid(101), a)
	var requires *html.Node
	for _, dd := range htmlcheck.All(t, parsePage(t, out, claimPage), "#current dd") {
		dt := dd.PrevSibling
		for dt != nil && dt.Type != html.ElementNode {
			dt = dt.PrevSibling
		}
		if dt != nil && htmlcheck.Text(dt) == "Requires" {
			requires = dd
		}
	}
	if requires == nil {
		t.Fatal("User 1's page has no Requires")
	}
	checkMore("User 1's page", (&render.Page{Path: claimPage}).Rel(capPage)+"#providers", requires)
}

// TestSitePagePaged: a site's page lists its projects paths.PageSize at a time, the site's
// record (its addresses, health, discovery) on the first page only, every page linking the
// next with a plain link; together the pages name every project once.
func TestSitePagePaged(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	n := paths.PageSize + 3
	for i := 1; i <= n; i++ {
		f.Claim(a, sampleManifest(uuid(i), fmt.Sprintf("Project %02d", i), 1))
	}
	_, out := build(t, state, Options{})

	docs := pagesOf(t, out, paths.Origin(a), 3)
	if len(docs) != 2 {
		t.Fatalf("the site's page has %d pages, want 2", len(docs))
	}
	seen := map[string]int{}
	for k, doc := range docs {
		lis := htmlcheck.All(t, doc, "main ul.results > li")
		if want := []int{paths.PageSize, n - paths.PageSize}[k]; len(lis) != want {
			t.Errorf("page %d lists %d projects, want %d", k+1, len(lis), want)
		}
		for _, li := range lis {
			seen[htmlcheck.Text(htmlcheck.One(t, li, "a bdi"))]++
		}
		if got, want := htmlcheck.Count(t, doc, "main dl"), []int{1, 0}[k]; got != want {
			t.Errorf("page %d holds the site's record %d times, want %d", k+1, got, want)
		}
		if htmlcheck.Count(t, doc, "h2#projects") != 1 {
			t.Errorf("page %d has no projects heading", k+1)
		}
	}
	for i := 1; i <= n; i++ {
		if name := fmt.Sprintf("Project %02d", i); seen[name] != 1 {
			t.Errorf("the site's pages name %s %d times, want once", name, seen[name])
		}
	}
}

// TestBrowseIndexPaged: the browse index lists its lists by type, status and tag one section
// after the other, paths.PageSize links a page, the dated lists on the first page only; every
// page links the next with a plain link, and together they link every list once.
func TestBrowseIndexPaged(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	const claims, tagsEach = 10, 6
	for i := 1; i <= claims; i++ {
		m := sampleManifest(uuid(i), fmt.Sprintf("Project %02d", i), 1)
		m.Project.Tags = nil
		for k := 0; k < tagsEach; k++ {
			m.Project.Tags = append(m.Project.Tags, fmt.Sprintf("tag%02d%d", i, k))
		}
		f.Claim(a, m)
	}
	_, out := build(t, state, Options{})

	// One type, one status and claims*tagsEach tags.
	lists := 2 + claims*tagsEach
	docs := pagesOf(t, out, paths.Browse, 3)
	if want := render.PageCount(lists); len(docs) != want {
		t.Fatalf("the browse index has %d pages, want %d", len(docs), want)
	}
	seen := map[string]int{}
	for k, doc := range docs {
		if got, want := htmlcheck.Count(t, doc, "h2#dated"), []int{1, 0}[k]; got != want {
			t.Errorf("page %d has the dated lists %d times, want %d", k+1, got, want)
		}
		lis := htmlcheck.All(t, doc, "main ul.tag-list > li")
		if want := []int{paths.PageSize, lists - paths.PageSize}[k]; len(lis) != want {
			t.Errorf("page %d links %d lists, want %d", k+1, len(lis), want)
		}
		for _, li := range lis {
			seen[resolveFrom(paths.Page(paths.Browse, k+1), htmlcheck.Attr(htmlcheck.One(t, li, "a"), "href"))]++
		}
	}
	if htmlcheck.Count(t, docs[0], "h2#types") != 1 || htmlcheck.Count(t, docs[1], "h2#types") != 0 || htmlcheck.Count(t, docs[1], "h2#tags") != 1 {
		t.Error("the sections by type and by tag are not where the list's order puts them")
	}
	for i := 1; i <= claims; i++ {
		for k := 0; k < tagsEach; k++ {
			if p := fmt.Sprintf("browse/tag-tag%02d%d/index.html", i, k); seen[p] != 1 {
				t.Errorf("the browse index links %s %d times, want once", p, seen[p])
			}
		}
	}
}

// TestConflictsPaged: the conflicts list pages its identity conflicts, then the moves,
// paths.PageSize entries at a time with a plain link to the next page; together the pages
// name every conflicting project id once, and the moves follow the last conflict.
func TestConflictsPaged(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	b := f.Site("https://b.example/dreamweave.json", "Site B")
	n := paths.PageSize + 1
	for i := 1; i <= n; i++ {
		f.Claim(a, sampleManifest(uuid(i), fmt.Sprintf("Twin %02d", i), 1))
		f.Claim(b, sampleManifest(uuid(i), fmt.Sprintf("Twin %02d", i), 1))
	}
	_, out := build(t, state, Options{})

	docs := pagesOf(t, out, "conflicts/index.html", 3)
	if len(docs) != 2 {
		t.Fatalf("the conflicts list has %d pages, want 2", len(docs))
	}
	seen := map[string]int{}
	for k, doc := range docs {
		lis := htmlcheck.All(t, doc, "main > ul.list > li")
		if want := []int{paths.PageSize, 1}[k]; len(lis) != want {
			t.Errorf("page %d lists %d conflicts, want %d", k+1, len(lis), want)
		}
		for _, li := range lis {
			seen[htmlcheck.Text(htmlcheck.One(t, li, "code"))]++
			if c := htmlcheck.Count(t, li, "ul > li > small"); c != 2 {
				t.Errorf("page %d: a conflict names %d claims, want 2", k+1, c)
			}
		}
		if got, want := htmlcheck.Count(t, doc, "h2#moves"), []int{0, 1}[k]; got != want {
			t.Errorf("page %d has the moves' heading %d times, want %d", k+1, got, want)
		}
	}
	for i := 1; i <= n; i++ {
		if seen[uuid(i)] != 1 {
			t.Errorf("the conflicts list names %s %d times, want once", uuid(i), seen[uuid(i)])
		}
	}
}

// TestBoundsKind: the guard benchmark names a page's kind with what varies from page to
// page of it replaced, paged lists' pages included: the capabilities list's own pages are
// not taken for a capability.
func TestBoundsKind(t *testing.T) {
	for rel, want := range map[string]string{
		"capabilities/index.html":                                    "capabilities/",
		"capabilities/page/3/index.html":                             "capabilities/page/<n>/",
		"capabilities/x-shared-1a2b3c4d/index.html":                  "capabilities/<capability>/",
		"capabilities/x-shared-1a2b3c4d/page/2/index.html":           "capabilities/<capability>/page/<n>/",
		"origins/site-a-1a2b3c4d/page/2/index.html":                  "origins/<site>/page/<n>/",
		"dependencies/used-by/" + uuid(1) + "/a-1a2b3c4d/index.html": "dependencies/used-by/<project>/<site>/",
		"browse/page/7/index.html":                                   "browse/page/<n>/",
	} {
		if got := boundsKind(rel); got != want {
			t.Errorf("boundsKind(%q) = %q, want %q", rel, got, want)
		}
	}
}

// TestClaimPageLinksCapabilityReferencesPage: a claim page that names the first
// claim.UsedByShown releases referring to it links the others through a capability on that
// capability's page, at the page of it where its references begin: after a page of
// providers, its second.
func TestClaimPageLinksCapabilityReferencesPage(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	const lights = "x:lights"
	for i := 1; i <= paths.PageSize; i++ {
		m := sampleManifest(uuid(i), fmt.Sprintf("Provider %02d", i), 1)
		m.Releases[0].Provides = []string{lights}
		f.Claim(a, m)
	}
	for i := 1; i <= claim.UsedByShown+2; i++ {
		m := sampleManifest(uuid(100+i), fmt.Sprintf("Fan %02d", i), 1)
		m.Releases[0].Relationships = []protocol.Relationship{{Kind: "recommends", Capability: lights}}
		f.Claim(a, m)
	}
	_, out := build(t, state, Options{})

	rel := paths.Claim(uuid(1), a)
	refs := htmlcheck.One(t, parsePage(t, out, rel), "section#used-by")
	var link *html.Node
	for _, x := range htmlcheck.All(t, refs, "p > a") {
		if htmlcheck.Text(x) == lights {
			link = x
		}
	}
	if link == nil {
		t.Fatal("Provider 01's page does not link the other references through the capability")
	}
	first := paths.Page(paths.Capability(lights), 2)
	if got, want := htmlcheck.Attr(link, "href"), (&render.Page{Path: rel}).Rel(first)+"#references"; got != want {
		t.Errorf("the link to the other references is %q, want %q", got, want)
	}
	if htmlcheck.Count(t, parsePage(t, out, first), "h2#references") != 1 {
		t.Errorf("%s does not begin the references", first)
	}
}
