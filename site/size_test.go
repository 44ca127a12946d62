package site

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/lists"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// TestClaimPageSaysEachReleaseOnce: a claim page prints the current release's notes once (on
// its first screen), the note that sizes and digests are the publisher's once, and each other
// release in a line with its date, its download linked with its size, and its SHA-256, source
// tag and notes folded beneath; the channel every release shares is said once; a release with
// the current release's repository and components leaves them out, one with others shows
// them; the first-seen time every release shares is said once.
func TestClaimPageSaysEachReleaseOnce(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	m := sampleManifest(uuid(1), "Lantern", 3) // 1.0.2 (current), 1.0.1, 1.0.0
	old := &m.Releases[2]
	old.Source.Repository = "https://old.example/src"
	old.Components = append(old.Components, protocol.Component{ID: "extra", Name: "Extra", Path: "extra",
		Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}})
	d := f.Claim(site, m)
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: site, Name: m.Project.Name,
		ObservedAt: statetest.Time, After: &d, Changes: []diff.Change{}})
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Claim(uuid(1), site))

	count := func(sel, text string) int {
		n := 0
		for _, s := range htmlcheck.Texts(t, doc, sel) {
			n += strings.Count(s, text)
		}
		return n
	}
	if n := count("main", "Release 1.0.2 with"); n != 1 {
		t.Errorf("the current release's notes are on the page %d times, want once", n)
	}
	if n := count("main", "As the publisher gives them: this index never downloads files"); n != 1 {
		t.Errorf("the note on sizes and digests is on the page %d times, want once", n)
	}
	if n := count("ul.releases", "first seen"); n != 0 {
		t.Errorf("a release line gives its first-seen time %d times, want none: every release shares one", n)
	}
	if n := count(`section#releases > p`, "This index first saw every one of them when it first listed this project"); n != 1 {
		t.Errorf("the releases list does not say once when this index first saw them all")
	}
	if n := count(`section#releases > p`, "all are on its channel"); n != 1 {
		t.Errorf("the releases list does not say once that every release is on the current release's channel")
	}
	// Release 1.0.1's line gives its date, size and tag, its folded part its SHA-256 and
	// notes; it repeats neither the shared channel nor the current release's repository or
	// components.
	const mid = `ul.releases > li[id="release-1.0.1"]`
	htmlcheck.One(t, doc, mid)
	htmlcheck.Want(t, doc, mid, "2026-09-01", "12.1 KiB", "Source tag 1.0.1")
	htmlcheck.Lacks(t, doc, mid, "stable", "repository", "Components")
	htmlcheck.Want(t, doc, mid+" details", sha([]byte(uuid(1)+"1.0.1")), "Release 1.0.1 with")
	htmlcheck.One(t, doc, mid+` a[href="https://example.org/dl/1.0.1.zip"]`)
	oldest := htmlcheck.One(t, doc, `ul.releases > li[id="release-1.0.0"]`)
	htmlcheck.One(t, oldest, `a[href="https://old.example/src"]`)
	if got := htmlcheck.Texts(t, oldest, "dl dd code"); !slices.Contains(got, "extra") {
		t.Errorf("release 1.0.0's own components are not shown: %q", got)
	}
}

// TestClaimPageSaysSharedFactsOnce: runtimes every release but the current one shares, and
// that differ from the current release's, are said once above the list and not on each line;
// when the older releases differ among themselves, each line gives its own.
func TestClaimPageSaysSharedFactsOnce(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	shared := sampleManifest(uuid(1), "Shared", 3) // 1.0.2 (current), 1.0.1, 1.0.0
	shared.Releases[0].Runtimes = map[string]string{"openmw": ">=0.50"}
	f.Claim(site, shared)
	apart := sampleManifest(uuid(2), "Apart", 3)
	apart.Releases[0].Runtimes = map[string]string{"openmw": ">=0.50"}
	apart.Releases[2].Runtimes = map[string]string{"openmw": ">=0.48"}
	f.Claim(site, apart)
	_, out := build(t, state, Options{})

	doc := parsePage(t, out, paths.Claim(uuid(1), site))
	htmlcheck.One(t, doc, `section#releases > p`)
	htmlcheck.Want(t, doc, `section#releases > p`, "Every other release runs on OpenMW >=0.49")
	for _, v := range []string{"1.0.1", "1.0.0"} {
		htmlcheck.Lacks(t, doc, `li[id="release-`+v+`"]`, "Runs on")
	}

	doc = parsePage(t, out, paths.Claim(uuid(2), site))
	htmlcheck.Lacks(t, doc, `section#releases > p`, "runs on")
	for v, want := range map[string]string{"1.0.1": "Runs on OpenMW >=0.49", "1.0.0": "Runs on OpenMW >=0.48"} {
		htmlcheck.Want(t, doc, `li[id="release-`+v+`"]`, want)
	}
}

// TestBrowseListLinksEachClaimInALine: a browse list shows each claim as a line (ul.brief > li): its
// name linked to its claim page, its version, its site and its summary, and not the project
// list's entry (no thumbnail, no filter attributes).
func TestBrowseListLinksEachClaimInALine(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	f.Claim(site, sampleManifest(uuid(1), "Lantern", 2))
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, "browse/tag-lua/index.html")
	li := htmlcheck.One(t, doc, "ul.results.brief > li")
	a := htmlcheck.All(t, li, "a")[0]
	if h := htmlcheck.Attr(a, "href"); h != "../../"+paths.Claim(uuid(1), site) {
		t.Errorf("the line links %q, want the claim page", h)
	}
	htmlcheck.Want(t, li, "li", "Lantern", "1.0.1", "from Site A", "A project called Lantern.")
	if n := htmlcheck.Count(t, doc, "li.entry, img, [data-key]"); n != 0 {
		t.Errorf("the browse list prints %d parts of the project list's entry", n)
	}
}

// TestBrowseListOfTheWholeCatalog: a browse list that holds every claim of the catalog, more
// than a page of them, is the project list in the same order: it is one page that counts them
// and links the project list, with no page of its own beyond it; a list of some of the claims
// still lists them.
func TestBrowseListOfTheWholeCatalog(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	for i := 0; i < 2*paths.PageSize+5; i++ { // every claim tagged Lua, one in three Theme 1
		m := sampleManifest(uuid(i), fmt.Sprintf("Project %03d", i), 1)
		m.Project.Tags = []string{"Lua"}
		if i%3 == 0 {
			m.Project.Tags = append(m.Project.Tags, "Theme 1")
		}
		f.Claim(site, m)
	}
	res, out := build(t, state, Options{})
	doc := parsePage(t, out, "browse/tag-lua/index.html")
	if n := htmlcheck.Count(t, doc, "ul.brief > li"); n != 0 {
		t.Errorf("the list of every claim prints %d lines", n)
	}
	if n := htmlcheck.Count(t, doc, `main a[href="../../projects/index.html"]`); n < 2 { // the breadcrumb and the sentence
		t.Errorf("the list of every claim links the project list %d times, want it in its sentence too", n)
	}
	htmlcheck.One(t, doc, "main p.lede")
	htmlcheck.Want(t, doc, "main p.lede", fmt.Sprintf("%d projects.", len(res.Network.Listed)))
	if _, err := os.Stat(filepath.Join(out, "browse/tag-lua/page/2/index.html")); err == nil {
		t.Error("the list of every claim has a second page")
	}
	theme := parsePage(t, out, "browse/"+lists.BrowseDir("tag-", "theme 1")+"/index.html")
	if n := htmlcheck.Count(t, theme, "ul.brief > li"); n == 0 || n >= len(res.Network.Listed) {
		t.Errorf("the list of one theme prints %d lines", n)
	}
}

// TestTagOfEveryUpdate: a tag every update carries, more than a page of them, has one page
// that links the updates list (the same updates in the same order) instead of paging them a
// second time; a tag's list of a few updates lists them without printing that tag on each.
func TestTagOfEveryUpdate(t *testing.T) {
	t.Parallel()
	_, res, out := synthBuild(t, 130) // one first observation a claim
	doc := parsePage(t, out, "updates/observed/index.html")
	if n := htmlcheck.Count(t, doc, "main ul.list > li"); n != 0 {
		t.Errorf("the tag every update carries lists %d updates", n)
	}
	if n := htmlcheck.Count(t, doc, `main > p > a[href="../index.html"]`); n != 2 { // the breadcrumb and the sentence
		t.Errorf("the tag's page links the updates list %d times, want in its breadcrumb and its sentence", n)
	}
	htmlcheck.Want(t, doc, "main > p", fmt.Sprintf("list all %d, in the same order", len(res.Network.Events)))
	if _, err := os.Stat(filepath.Join(out, "updates/observed/page/2/index.html")); err == nil {
		t.Error("the tag every update carries has a second page")
	}
	state, _, _ := conflictState(t)
	fewRes, small := build(t, state, Options{})
	few := parsePage(t, small, "updates/observed/index.html")
	if n, want := htmlcheck.Count(t, few, "main ul.list > li"), len(fewRes.Network.Events); n != want || want == 0 {
		t.Errorf("the tag's list of %d updates lists %d", want, n)
	}
	if n := htmlcheck.Count(t, few, "main ul.list > li a.badge"); n != 0 {
		t.Errorf("the tag's list prints its own tag %d times", n)
	}
}

// TestListPagesStayBounded: a full page (50 entries) of each list of claims weighs about what
// its entries need, at 130 synthetic claims: the bytes each page may take.
func TestListPagesStayBounded(t *testing.T) {
	t.Parallel()
	_, _, out := synthBuild(t, 130)
	for rel, max := range map[string]int{
		"browse/recently-released/index.html": 23_500,
		"releases/index.html":                 21_500,
		"dependencies/page/2/index.html":      25_000,
		"projects/page/2/index.html":          51_000,
		"updates/page/2/index.html":           15_500,
	} {
		if n := len(readOut(t, out, rel)); n > max {
			t.Errorf("%s weighs %d bytes, more than %d", rel, n, max)
		}
	}
}

// TestEventPageInALine: an update's page says in its heading, in a player's words, what
// happened ("listed for the first time", not the headline's "first observed"), in one line
// when it was seen (a <time>) and the claim (linked to the claim page), with no tag badge
// repeating the heading; the site's file's digest is its one fact, labelled as such. The
// update list's line says it once too.
func TestEventPageInALine(t *testing.T) {
	state, site, d := lanternEvent(t, nil)
	res, out := build(t, state, Options{})
	if len(res.Network.Events) != 1 {
		t.Fatalf("%d events, want 1", len(res.Network.Events))
	}
	rel := paths.Event(res.Network.Events[0].ID)
	doc := parsePage(t, out, rel)
	var line *html.Node
	for _, p := range htmlcheck.All(t, doc, "main > p") {
		if htmlcheck.Attr(p, "class") == "" && line == nil {
			line = p
		}
	}
	if line == nil {
		t.Fatal("the event page has no line")
	}
	if got := htmlcheck.Text(line); !strings.HasPrefix(got, "Seen 2026-09-01 00:00:00 UTC in ") {
		t.Errorf("the line %q does not give the time it was seen", got)
	}
	if got := htmlcheck.Text(htmlcheck.One(t, doc, "main h1")); got != "Lantern (Site A): "+view.ListedPhrase {
		t.Errorf("the heading is %q, want the claim and %q", got, view.ListedPhrase)
	}
	// The line says when it was seen and the claim, in a player's words.
	htmlcheck.Want(t, line, "*", " in Lantern from Site A")
	htmlcheck.Lacks(t, line, "*", "observed")
	if n := htmlcheck.Count(t, line, `a[href="../../`+paths.Claim(uuid(1), site)+`"]`); n != 1 {
		t.Errorf("the line links the claim page %d times, want once", n)
	}
	if n := htmlcheck.Count(t, line, `a.badge`); n != 0 {
		t.Errorf("the line has %d tag badges, want none: the heading says it is a first listing", n)
	}
	list := parsePage(t, out, "updates/index.html")
	items := htmlcheck.All(t, list, "main ul.list > li")
	if len(items) != 1 || htmlcheck.Count(t, items[0], "a.badge") != 0 || !strings.HasSuffix(htmlcheck.Text(items[0]), ": Lantern (Site A): "+view.ListedPhrase) {
		t.Errorf("the update list's lines are %q, want one saying %q once", htmlcheck.Texts(t, list, "main ul.list > li"), view.ListedPhrase)
	}
	if n := htmlcheck.Count(t, doc, `body > header nav a[href="../../updates/index.html"][aria-current="true"]`); n != 1 {
		t.Errorf("the navigation marks the update list %d times, want once", n)
	}
	if n := htmlcheck.Count(t, doc, `main h2`); n != 0 {
		t.Errorf("a first observation's page has %d headings under its title, want none: nothing to compare", n)
	}
	terms, facts := htmlcheck.Texts(t, doc, "dl dt"), htmlcheck.Texts(t, doc, "dl dd")
	if len(facts) != 1 || terms[0] != "The site's file, SHA-256" || facts[0] != d {
		t.Errorf("the facts are %q %q, want the one manifest %s", terms, facts, d)
	}
}

// TestProjectPageLinksEachClaim: a project page lists each site's claim as a line (ul.brief >
// li) linking the claim page beside it and the site's page, and links its own feed beside it;
// only a project several sites list says that none of them is preferred.
func TestProjectPageLinksEachClaim(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	b := f.Site("https://b.example/dreamweave.json", "Site B")
	f.Claim(a, sampleManifest(uuid(1), "Lantern", 1))
	f.Claim(b, sampleManifest(uuid(1), "Lantern", 1))
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Project(uuid(1)))
	lis := htmlcheck.All(t, doc, "main ul.brief > li")
	if len(lis) != 2 {
		t.Fatalf("%d claim lines, want 2", len(lis))
	}
	for i, s := range []string{a, b} {
		as := htmlcheck.All(t, lis[i], "a")
		if len(as) < 2 || htmlcheck.Attr(as[0], "href") != s+"/index.html" || htmlcheck.Attr(as[1], "href") != "../../"+paths.Origin(s) {
			t.Errorf("line %d links %v, want %s/index.html and the site's page", i, htmlcheck.Texts(t, lis[i], "a"), s)
		}
	}
	if n := htmlcheck.Count(t, doc, `main a.follow[href="updates.xml"]`); n != 1 {
		t.Errorf("the page links its feed %d times, want once", n)
	}
	if n := htmlcheck.Count(t, doc, `main p.lede`); n != 1 {
		t.Errorf("a project two sites list says %d times that none is preferred, want once", n)
	}
}

// TestOneSiteProjectPageLeadsToItsClaim: the project page of an id one site lists is a page of
// a few hundred bytes without the frame that sends the player to the claim page beside it (a
// refresh, and a link naming the site), with a title and the project's feed, loading nothing
// (no stylesheet, no icon) under a CSP that allows nothing; a project two sites list keeps its
// whole page. No page links the short one: the claim page has no breadcrumb (the navigation
// leads to the project list), and the conflicts page's line of a move to a site not yet
// observed links the claim.
func TestOneSiteProjectPageLeadsToItsClaim(t *testing.T) {
	state, f, a, b := oneAndTwoSiteProjects(t)
	f.Claim(a, sampleManifest(uuid(3), "Wanderer", 1), func(r *store.Claim) { r.MovedTo = ptr(b) })
	res, out := build(t, state, Options{})

	raw := readOut(t, out, paths.Project(uuid(1)))
	if len(raw) > 600 {
		t.Errorf("the one-site project page is %d bytes, want at most 600", len(raw))
	}
	doc := htmlcheck.Parse(t, raw)
	to := a + "/index.html"
	if got := htmlcheck.Attr(htmlcheck.One(t, doc, `head meta[http-equiv="refresh"]`), "content"); got != "0;url="+to {
		t.Errorf("the one-site project page refreshes to %q, want 0;url=%s", got, to)
	}
	link := htmlcheck.One(t, doc, "main a[href]")
	if htmlcheck.Attr(link, "href") != to || htmlcheck.Text(link) != "Site A" || htmlcheck.Text(link.Parent) != "Published by one site: Site A" {
		t.Errorf("the one-site project page's link is %q to %q, in %q; want %q to %s", htmlcheck.Text(link), htmlcheck.Attr(link, "href"), htmlcheck.Text(link.Parent), "Site A", to)
	}
	if h := htmlcheck.Text(htmlcheck.One(t, doc, "main h1 > bdi")); h != "Lantern" {
		t.Errorf("the one-site project page's heading is %q, want the project's name", h)
	}
	if n := htmlcheck.Count(t, doc, "header, nav, footer, a.skip"); n != 0 {
		t.Errorf("the one-site project page has %d frame elements, want none", n)
	}
	if title := htmlcheck.Text(htmlcheck.One(t, doc, "head > title")); title != "Lantern · AsHyAmS" {
		t.Errorf("the one-site project page's title is %q", title)
	}
	claim := parsePage(t, out, paths.Claim(uuid(1), a))
	if got := htmlcheck.Attr(htmlcheck.One(t, doc, `head meta[http-equiv="Content-Security-Policy"]`), "content"); got != "default-src 'none';base-uri 'none';form-action 'none'" {
		t.Errorf("the one-site project page's CSP is %q, want one that allows nothing", got)
	}
	for _, sel := range []string{`head link[rel="alternate"][type="application/atom+xml"][href="updates.xml"]`, `head meta[charset="utf-8"]`} {
		if htmlcheck.Count(t, doc, sel) != 1 {
			t.Errorf("the one-site project page has no %s", sel)
		}
	}
	if n := htmlcheck.Count(t, doc, `link[rel="stylesheet"], link[rel="icon"], img, script`); n != 0 {
		t.Errorf("the one-site project page loads %d files, want none", n)
	}

	full := parsePage(t, out, paths.Project(uuid(2)))
	if n, m := htmlcheck.Count(t, full, `head meta[http-equiv="refresh"]`), htmlcheck.Count(t, full, "body > header nav a"); n != 0 || m != len(render.Nav) {
		t.Errorf("the two-site project page has %d refreshes and %d navigation entries, want none and %d", n, m, len(render.Nav))
	}
	if n := htmlcheck.Count(t, full, "main ul.brief > li"); n != 2 {
		t.Errorf("the two-site project page lists %d claims, want 2", n)
	}

	if crumbs := htmlcheck.Texts(t, claim, "main > p.muted a"); len(crumbs) != 0 {
		t.Errorf("the one-site claim page's breadcrumb links %v, want no breadcrumb: the navigation's Projects is the list", crumbs)
	}
	two := parsePage(t, out, paths.Claim(uuid(2), a))
	if n := htmlcheck.Count(t, two, `main > p.muted a[href="../index.html"]`); n != 1 {
		t.Errorf("a two-site claim page's breadcrumb links its project page %d times, want once", n)
	}
	conflicts := parsePage(t, out, "conflicts/index.html")
	if n := htmlcheck.Count(t, conflicts, `main li a[href="../`+paths.Claim(uuid(3), a)+`"] > code[data-pub]`); n != 1 {
		t.Errorf("the conflicts page links the moved one-site project's claim from its id %d times, want once", n)
	}
	for _, p := range res.Pages {
		for _, l := range htmlcheck.All(t, parsePage(t, out, p), "a[href]") {
			if h := htmlcheck.Attr(l, "href"); path.Join(path.Dir(p), h) == paths.Project(uuid(1)) || path.Join(path.Dir(p), h) == paths.Project(uuid(3)) {
				t.Errorf("%s links a one-site project page (%s), which only leads to its claim", p, h)
			}
		}
	}
}

// oneAndTwoSiteProjects is a state where site a alone publishes Lantern (uuid(1)) and sites a
// and b both publish Wick (uuid(2)), with its fixture and the two site ids.
func oneAndTwoSiteProjects(t *testing.T) (state string, f *statetest.State, a, b string) {
	t.Helper()
	state = t.TempDir()
	f = statetest.In(t, state)
	a = f.Site("https://a.example/dreamweave.json", "Site A")
	b = f.Site("https://b.example/dreamweave.json", "Site B")
	f.Claim(a, sampleManifest(uuid(1), "Lantern", 1))
	f.Claim(a, sampleManifest(uuid(2), "Wick", 1))
	f.Claim(b, sampleManifest(uuid(2), "Wick", 1))
	return state, f, a, b
}

// TestDependencyListNamesEachClaimOnce: the dependency list names a claim once, with its
// current version, above the relationships its release states, one item each; every item
// says its kind and links the claim it resolves to, and a page of it stays small.
func TestDependencyListNamesEachClaimOnce(t *testing.T) {
	state := t.TempDir()
	synthState(t, state, 6) // claims 1 to 5 each state two relationships
	res, out := build(t, state, Options{})
	doc := parsePage(t, out, "dependencies/index.html")
	heads := htmlcheck.All(t, doc, "ul.deps > li")
	if len(heads) != 5 {
		t.Fatalf("%d claims head relationships, want the 5 that state them", len(heads))
	}
	items := 0
	for i, li := range heads {
		from := htmlcheck.All(t, li, "a")[0]
		if !strings.HasPrefix(htmlcheck.Attr(from, "href"), "../projects/") || !strings.HasPrefix(htmlcheck.Text(li), htmlcheck.Text(from)+" 1.0.4 (") {
			t.Errorf("claim %d is not named with its version and site first: %q", i, htmlcheck.Text(li))
		}
		rels := htmlcheck.All(t, li, "li > ul > li")
		if len(rels) != 2 {
			t.Errorf("claim %d heads %d relationships, want 2", i, len(rels))
		}
		for _, r := range rels {
			if text := htmlcheck.Text(r); !strings.HasPrefix(text, "requires ") && !strings.HasPrefix(text, "recommends ") {
				t.Errorf("a relationship does not start with its kind: %q", text)
			}
			if htmlcheck.Count(t, r, `a[href^="../projects/"]`) == 0 {
				t.Errorf("a relationship links no claim it resolves to: %q", htmlcheck.Text(r))
			}
		}
		items += len(rels)
	}
	if items != len(res.Network.Relationships) {
		t.Errorf("%d relationships listed, want %d", items, len(res.Network.Relationships))
	}
}

// TestClaimPageDownloadFirst: the current release's section gives what it runs on and what it
// requires, then the download, before its other facts (source, components, OpenMW data), so a
// player finds the download near the top of the page.
func TestClaimPageDownloadFirst(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	f.Claim(site, sampleManifest(uuid(1), "Lantern", 2))
	_, out := build(t, state, Options{})
	sec := htmlcheck.One(t, parsePage(t, out, paths.Claim(uuid(1), site)), "section.current")
	var order []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "dt":
				order = append(order, htmlcheck.Text(n))
			case "h3":
				order = append(order, "#"+htmlcheck.Attr(n, "id"))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(sec)
	at := func(s string) int {
		for i, o := range order {
			if o == s {
				return i
			}
		}
		t.Fatalf("the current release's section has no %q: %q", s, order)
		return -1
	}
	if !(at("Runs on") < at("#download") && at("Requires") < at("#download") &&
		at("#download") < at("#details") && at("#details") < at("Source")) {
		t.Errorf("the current release's section is not in the order runs on, requires, download, other facts: %q", order)
	}
}

// TestLongPublisherTextIsBounded: a 100 KB summary costs a list row and a search row at most
// view.SummaryShown characters; the claim page still gives the whole summary, folded.
func TestLongPublisherTextIsBounded(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	m := sampleManifest(uuid(1), "Long", 2)
	m.Project.Summary = strings.Repeat("word ", 20_000) + "END"
	f.Claim(site, m)
	_, out := build(t, state, Options{})
	for _, p := range []string{"projects/index.html", "origins/" + site + "/index.html"} {
		if b := readOut(t, out, p); bytes.Count(b, []byte("word ")) > view.SummaryShown/5 {
			t.Errorf("%s holds %d words of the summary, want at most %d", p, bytes.Count(b, []byte("word ")), view.SummaryShown/5)
		}
	}
	for name, b := range dataParts(t, out, find.Dir) {
		if n := bytes.Count(b, []byte("word ")); n > 2*view.SummaryShown/5 {
			t.Errorf("search part %s holds %d words of the summary", name, n)
		}
	}
	page := parsePage(t, out, paths.Claim(uuid(1), site))
	if s := htmlcheck.Text(htmlcheck.One(t, page, "#summary details p[data-pub]")); !strings.HasSuffix(s, "END") || len(s) < 100_000 {
		t.Errorf("the claim page's folded summary is %d bytes, ending %q: want the whole summary", len(s), s[max(0, len(s)-10):])
	}
}

// TestLongNameKeepsTitlesShort: a 3,000-character project name (words a trust check would
// flag among them) gives its claim page and project page a <title> of at most pubtext.MaxTitle
// characters and " · AsHyAmS", cut at a space and ended with "…", the heading still says the
// whole name, and check-site (build runs it) takes the cut quotation for the publisher's,
// not the index's words.
func TestLongNameKeepsTitlesShort(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	name := strings.TrimSpace(strings.Repeat("Trusted Safe Verified ", 140))
	f.Claim(site, sampleManifest(uuid(1), name, 1))
	_, out := build(t, state, Options{})
	for _, p := range []string{paths.Claim(uuid(1), site), "projects/" + uuid(1) + "/index.html"} {
		doc := parsePage(t, out, p)
		title := strings.TrimSuffix(htmlcheck.Text(htmlcheck.One(t, doc, "title")), " · AsHyAmS")
		if n := utf8.RuneCountInString(title); n > pubtext.MaxTitle || !strings.HasSuffix(title, "…") || !strings.HasPrefix(name, strings.TrimSuffix(title, "…")) {
			t.Errorf("%s: the title is %d characters, %q, want at most %d, a start of the name ended with …", p, n, title[:min(len(title), 60)], pubtext.MaxTitle)
		}
		if h := htmlcheck.Text(htmlcheck.One(t, doc, "h1")); h != name {
			t.Errorf("%s: the heading is %d bytes, want the whole name (%d)", p, len(h), len(name))
		}
	}
}

// TestFrameStaysSmall: the frame (everything of a page outside its <main>) of a claim, a
// project and an event page stays within its byte budget, and still holds what every page
// needs: the CSP, the six navigation entries, the footer's link to what listing means, and a
// time: the last refresh's in the footer, or, on a claim or an event page (a Leaf), the page's
// own in its <main>, with none in the footer. The footer of any other page also links the
// publishers' page and the source; a leaf's does not. No description or canonical link on
// these pages, of which a network has thousands each.
func TestFrameStaysSmall(t *testing.T) {
	state := t.TempDir()
	synthState(t, state, 3)
	f := statetest.In(t, state) // a second site's claim: a one-site project's page has no frame
	f.Claim(f.Site("https://b.example/dreamweave.json", "Site B"), sampleManifest(uuid(0), "Synthetic project 00000", 5))
	res, out := build(t, state, Options{})
	c := res.Network.ByProject[uuid(0)].Claims[0]
	for rel, want := range map[string]struct {
		budget int
		leaf   bool
	}{
		paths.ClaimKey(c):                     {1150, true},
		paths.Project(c.Project):              {1300, false},
		paths.Event(res.Network.Events[0].ID): {1000, true},
	} {
		page := readOut(t, out, rel)
		i, j := bytes.Index(page, []byte("<main")), bytes.Index(page, []byte("</main>"))
		if i < 0 || j < i {
			t.Fatalf("%s: no <main>...</main>", rel)
		}
		if n := i + len(page) - j - len("</main>"); n > want.budget {
			t.Errorf("%s: the frame is %d bytes, budget %d", rel, n, want.budget)
		}
		doc := htmlcheck.Parse(t, page)
		if n := htmlcheck.Count(t, doc, `head meta[http-equiv="Content-Security-Policy"][content^="default-src 'none';"]`); n != 1 {
			t.Errorf("%s: %d CSP meta elements, want 1", rel, n)
		}
		if n := htmlcheck.Count(t, doc, `head meta[name="description"], head link[rel="canonical"]`); n != 0 {
			t.Errorf("%s: %d description or canonical elements, want none", rel, n)
		}
		if n := htmlcheck.Count(t, doc, "body > header nav a"); n != len(render.Nav) {
			t.Errorf("%s: %d navigation entries, want %d", rel, n, len(render.Nav))
		}
		if htmlcheck.Count(t, doc, `body > footer a[href$="about/listing/index.html"]`) != 1 {
			t.Errorf("%s: the footer does not link what listing means", rel)
		}
		for _, sel := range []string{`body > footer a[href$="about/publishers/index.html"]`, `body > footer a[href="` + DefaultRepository + `"]`} {
			if n := htmlcheck.Count(t, doc, sel); want.leaf && n != 0 || !want.leaf && n != 1 {
				t.Errorf("%s: the footer has %d of %s (a leaf: %v)", rel, n, sel, want.leaf)
			}
		}
		footer, own := strings.Count(htmlcheck.Text(htmlcheck.One(t, doc, "body > footer")), " UTC"), strings.Count(htmlcheck.Text(htmlcheck.One(t, doc, "main")), " UTC")
		if want.leaf && (footer != 0 || own == 0) {
			t.Errorf("%s: %d times in the footer and %d in <main>, want none and some", rel, footer, own)
		}
		if !want.leaf && footer != 1 {
			t.Errorf("%s: %d times in the footer, want the last refresh's", rel, footer)
		}
	}
}

// TestChangedEventPageGivesBothManifests: an event that changed a claim names the manifest
// before and after and lists its differences under a heading.
func TestChangedEventPageGivesBothManifests(t *testing.T) {
	before := strings.Repeat("a", 64)
	state, _, d := lanternEvent(t, func(e *store.Event) {
		e.Kind, e.Before = store.EventChanged, &before
		e.Changes = []diff.Change{{Change: "project-field", Field: "name", Before: []byte(`"Lamp"`), After: []byte(`"Lantern"`)}}
	})
	res, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Event(res.Network.Events[0].ID))
	terms, facts := htmlcheck.Texts(t, doc, "dl dt"), htmlcheck.Texts(t, doc, "dl dd")
	if !slices.Equal(terms, []string{"The site's file before, SHA-256", "The site's file after, SHA-256"}) || !slices.Equal(facts, []string{before, d}) {
		t.Errorf("the facts are %q %q, want the manifest before and after", terms, facts)
	}
	if got := htmlcheck.Texts(t, doc, "main h2"); !slices.Equal(got, []string{"Differences"}) {
		t.Errorf("the headings are %q, want Differences", got)
	}
	if n := htmlcheck.Count(t, doc, "main pre.changes[data-pub]"); n != 1 {
		t.Errorf("%d lists of changes, want 1", n)
	}
}

// lanternEvent writes a state of one claim, "Lantern" (project uuid(1)) at Site A, and the
// event that first observed it, edited by edit when not nil; it returns the state, the site
// and the held manifest's digest.
func lanternEvent(t *testing.T, edit func(*store.Event)) (state, site, digest string) {
	t.Helper()
	state = t.TempDir()
	f := statetest.In(t, state)
	site = f.Site("https://a.example/dreamweave.json", "Site A")
	digest = f.Claim(site, sampleManifest(uuid(1), "Lantern", 1))
	e := store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: site, Name: "Lantern",
		ObservedAt: "2026-09-01T00:00:00Z", After: &digest, Changes: []diff.Change{}}
	if edit != nil {
		edit(&e)
	}
	f.Event(e)
	return state, site, digest
}
