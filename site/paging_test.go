package site

import (
	"encoding/xml"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/lists"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// TestPagerLinks: a pager names the first and last pages, two on either side of its own and
// a gap for every run left out; page 1 stays at the list's own path.
func TestPagerLinks(t *testing.T) {
	if p := render.NewPager("projects/index.html", paths.PageSize, 1); p != nil {
		t.Errorf("a list of one page has a pager: %+v", p)
	}
	p := render.NewPager("projects/index.html", 20*paths.PageSize+1, 10)
	var got []string
	for _, l := range p.Links {
		switch {
		case l.Gap:
			got = append(got, "…")
		case l.Current:
			got = append(got, fmt.Sprintf("[%d]", l.N))
		default:
			got = append(got, fmt.Sprint(l.N))
		}
	}
	want := []string{"1", "…", "8", "9", "[10]", "11", "12", "…", "21"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links of page 10 of 21: %v, want %v", got, want)
	}
	if p.Prev != "projects/page/9/index.html" || p.Next != "projects/page/11/index.html" {
		t.Errorf("prev %q, next %q", p.Prev, p.Next)
	}
	if p.From != 9*paths.PageSize+1 || p.To != 10*paths.PageSize || p.Of != 21 {
		t.Errorf("page 10 shows %d to %d of %d pages", p.From, p.To, p.Of)
	}
	if got := paths.Page("projects/index.html", 1); got != "projects/index.html" {
		t.Errorf("page 1 is at %s", got)
	}
	last := render.NewPager("updates/observed/index.html", 2*paths.PageSize+3, 3)
	if last.Next != "" || last.From != 2*paths.PageSize+1 || last.To != 2*paths.PageSize+3 {
		t.Errorf("last page: %+v", last)
	}
}

// elements are the elements of doc for which match holds.
func elements(doc *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// hasClass reports whether n's class attribute holds c.
// depItem reports whether n is a relationship of the dependency list: an item of the list
// under the claim that states it (ul.deps > li > ul > li).
func depItem(n *html.Node) bool {
	if n.Data != "li" || n.Parent == nil || n.Parent.Data != "ul" {
		return false
	}
	head := n.Parent.Parent
	return head != nil && head.Data == "li" && head.Parent != nil && hasClass(head.Parent, "deps")
}

func hasClass(n *html.Node, c string) bool {
	v, _ := attr(n, "class")
	for _, f := range strings.Fields(v) {
		if f == c {
			return true
		}
	}
	return false
}

// headLink is the href of doc's <link rel=rel>, "" when there is none.
func headLink(doc *html.Node, rel string) string {
	for _, n := range elements(doc, func(n *html.Node) bool { return n.Data == "link" }) {
		if r, _ := attr(n, "rel"); r == rel {
			h, _ := attr(n, "href")
			return h
		}
	}
	return ""
}

// TestListsArePaged: at 130 claims every list of claims, releases and updates holds at most
// paths.PageSize entries a page; its first page stays at the list's path, the others are at
// page/N/ with rel=prev/next between them, the entries of all pages together are the list's
// in order, once each, and every page is in the sitemap.
func TestListsArePaged(t *testing.T) {
	t.Parallel()
	_, res, out := synthBuild(t, 130)
	listed := len(res.Network.Listed)
	_, locs := sitemap(t, readOut(t, out, "sitemap.xml"))
	lists := []struct {
		first string
		n     int
		entry func(*html.Node) bool
	}{
		{"projects/index.html", listed, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "entry") }},
		{"browse/recently-released/index.html", min(listed, lists.RecentShown), func(n *html.Node) bool { return n.Data == "li" && hasClass(n.Parent, "brief") }},
		{"releases/index.html", listed, func(n *html.Node) bool { return n.Data == "li" && hasClass(n.Parent, "dated") }},
		{"updates/index.html", len(res.Network.Events), func(n *html.Node) bool { return n.Data == "li" && n.Parent.Data == "ul" && hasClass(n.Parent, "list") }},
		{"dependencies/index.html", len(res.Network.Relationships), depItem},
	}
	for _, l := range lists {
		pages := render.PageCount(l.n)
		if pages < 2 {
			t.Fatalf("%s: %d entries fit one page; the test needs more", l.first, l.n)
		}
		seen := map[string]bool{}
		total := 0
		for k := 1; k <= pages; k++ {
			rel := paths.Page(l.first, k)
			doc := parsePage(t, out, rel)
			es := elements(doc, l.entry)
			want := paths.PageSize
			if k == pages {
				want = l.n - (pages-1)*paths.PageSize
			}
			if len(es) != want {
				t.Errorf("%s holds %d entries, want %d", rel, len(es), want)
			}
			for _, e := range es {
				key := textOf(e)
				if depItem(e) { // a relationship, under the claim that states it
					key = textOf(htmlcheck.All(t, e.Parent.Parent, "a")[0]) + key
				}
				if seen[key] && l.first != "updates/index.html" {
					t.Errorf("%s repeats an entry of an earlier page: %.60q", rel, key)
				}
				seen[key] = true
			}
			total += len(es)
			wantPrev, wantNext := "", ""
			if k > 1 {
				wantPrev = (&render.Page{Path: rel}).Near(paths.Page(l.first, k-1))
			}
			if k < pages {
				wantNext = (&render.Page{Path: rel}).Near(paths.Page(l.first, k+1))
			}
			if got := headLink(doc, "prev"); got != wantPrev {
				t.Errorf("%s: rel=prev %q, want %q", rel, got, wantPrev)
			}
			if got := headLink(doc, "next"); got != wantNext {
				t.Errorf("%s: rel=next %q, want %q", rel, got, wantNext)
			}
			if navs := elements(doc, func(n *html.Node) bool { return n.Data == "nav" && hasClass(n, "pager") }); len(navs) != 1 {
				t.Errorf("%s has %d page navigations, want 1", rel, len(navs))
			}
			if !slices.Contains(locs, DefaultBaseURL+paths.Dir(rel)) {
				t.Errorf("the sitemap does not name %s", rel)
			}
		}
		if total != l.n {
			t.Errorf("%s: the pages hold %d entries together, want %d", l.first, total, l.n)
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(paths.Page(l.first, pages+1)))); err == nil {
			t.Errorf("%s: a page past the last was written", l.first)
		}
	}
}

// TestRecentListsAreCapped: the browse lists by date show their newest lists.RecentShown entries,
// newest first, on two pages and no more, and send the player on to the list each restates:
// recently released to the releases by date, recently updated to the updates and the project
// list sorted by its last change; the foundations show the used-by list's first lists.RecentShown
// claims and link it.
func TestRecentListsAreCapped(t *testing.T) {
	t.Parallel()
	_, res, out := synthBuild(t, 130)
	if len(res.Network.Listed) <= lists.RecentShown {
		t.Fatalf("%d claims fit the cap; the test needs more", len(res.Network.Listed))
	}
	for first, links := range map[string][]string{
		"browse/recently-released/index.html": {"releases/index.html"},
		"browse/recently-updated/index.html":  {"updates/index.html", "projects/index.html?sort=updated"},
	} {
		var dates []string
		for k := 1; k <= lists.RecentShown/paths.PageSize; k++ {
			rel := paths.Page(first, k)
			doc := parsePage(t, out, rel)
			lis := htmlcheck.All(t, doc, "ul.brief > li")
			if len(lis) != paths.PageSize {
				t.Errorf("%s holds %d entries, want %d", rel, len(lis), paths.PageSize)
			}
			for _, li := range lis {
				if first == "browse/recently-updated/index.html" {
					text := htmlcheck.Text(li)
					dates = append(dates, text[strings.LastIndex(text, " · updated ")+len(" · updated "):][:len("2026-09-15 00:00:00 UTC")])
				} else {
					ds := htmlcheck.Texts(t, li, "bdi")
					dates = append(dates, ds[len(ds)-2]) // the date, before the summary
				}
			}
			for _, l := range links {
				if n := htmlcheck.Count(t, doc, `main a[href="`+paths.Rel(rel, "")+l+`"]`); n != 1 {
					t.Errorf("%s links %s %d times, want once", rel, l, n)
				}
			}
		}
		if !sort.SliceIsSorted(dates, func(i, j int) bool { return dates[i] > dates[j] }) {
			t.Errorf("%s is not newest first: %q", first, dates)
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(paths.Page(first, lists.RecentShown/paths.PageSize+1)))); err == nil {
			t.Errorf("%s: a page past the cap was written", first)
		}
	}
	// The foundations are the claims others require, in name order: the used-by list's.
	var found, used []string
	for k := 1; k <= lists.RecentShown/paths.PageSize; k++ {
		rel := paths.Page("browse/foundations/index.html", k)
		doc := parsePage(t, out, rel)
		for _, li := range htmlcheck.All(t, doc, "ul.brief > li") {
			found = append(found, htmlcheck.Text(htmlcheck.All(t, li, "a")[0]))
		}
		if n := htmlcheck.Count(t, doc, `main a[href="`+paths.Rel(rel, paths.UsedBy)+`"]`); n != 1 {
			t.Errorf("%s links the used-by list %d times, want once", rel, n)
		}
		for _, li := range htmlcheck.All(t, parsePage(t, out, paths.Page(paths.UsedBy, k)), "main ul.list > li") {
			used = append(used, htmlcheck.Text(htmlcheck.All(t, li, "a")[0]))
		}
	}
	if len(found) != lists.RecentShown || !reflect.DeepEqual(found, used) {
		t.Errorf("the foundations' %d lines are not the used-by list's first %d: %q", len(found), lists.RecentShown, found)
	}
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(paths.Page("browse/foundations/index.html", lists.RecentShown/paths.PageSize+1)))); err == nil {
		t.Error("browse/foundations: a page past the cap was written")
	}
}

// TestSitemapIndex: a site of more pages than one sitemap may hold gets numbered sitemaps of
// at most sitemapLimit URLs, which together name every page once, and sitemap.xml becomes
// their index; below the limit sitemap.xml is the one sitemap.
func TestSitemapIndex(t *testing.T) {
	state, _, out := synthBuild(t, 20)
	root, one := sitemap(t, readOut(t, out, "sitemap.xml"))
	if root != "urlset" {
		t.Fatalf("below the limit sitemap.xml is a %s, not a urlset", root)
	}
	want := len(one)
	defer func(n int) { sitemapLimit = n }(sitemapLimit)
	sitemapLimit = 40
	_, out = build(t, state, Options{})
	root, idx := sitemap(t, readOut(t, out, "sitemap.xml"))
	if root != "sitemapindex" {
		t.Fatalf("above the limit sitemap.xml is a %s, not a sitemap index", root)
	}
	got, files := 0, 0
	for k := 1; ; k++ {
		name := fmt.Sprintf("sitemap-%d.xml", k)
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			break
		}
		files++
		if !slices.Contains(idx, DefaultBaseURL+name) {
			t.Errorf("the sitemap index does not name %s", name)
		}
		_, locs := sitemap(t, data)
		n := len(locs)
		if n > sitemapLimit {
			t.Errorf("%s holds %d URLs, more than %d", name, n, sitemapLimit)
		}
		got += n
	}
	if files < 2 || got != want {
		t.Errorf("%d sitemaps hold %d URLs together, want %d in two or more", files, got, want)
	}
}

// TestRecentItemsNameAHandful: a first crawl's observations become one line that names
// lists.MaxNamed claims and counts the rest, however many there are.
func TestRecentItemsNameAHandful(t *testing.T) {
	var evs []*view.EventView
	for i := 0; i < 1000; i++ {
		evs = append(evs, &view.EventView{Event: &store.Event{Kind: store.EventObserved, ObservedAt: statetest.Time}})
	}
	items, more := lists.RecentItems(evs, lists.RecentHome)
	if len(items) != 1 || more {
		t.Fatalf("1000 observations at one time make %d lines (more: %v), want 1", len(items), more)
	}
	if it := items[0]; len(it.Named) != lists.MaxNamed || it.Unnamed != 1000-lists.MaxNamed || len(it.Observed) != 1000 {
		t.Errorf("the line names %d and counts %d more of %d", len(it.Named), it.Unnamed, len(it.Observed))
	}
}

// TestSitemapFindsEveryPage: the sitemap leaves out the event pages and the project pages of
// an id one site lists, and names every other page; each event page is linked from a page it
// names, so a crawler reading it still finds every page, and a one-site project page, which
// only leads to its claim's page, is linked from no page and its claim page is named.
func TestSitemapFindsEveryPage(t *testing.T) {
	_, res, out := synthBuild(t, 20)
	var urlset struct {
		Locs []string `xml:"url>loc"`
	}
	if err := xml.Unmarshal(readOut(t, out, "sitemap.xml"), &urlset); err != nil {
		t.Fatal(err)
	}
	mapped := map[string]bool{}
	for _, l := range urlset.Locs {
		mapped[strings.TrimPrefix(l, DefaultBaseURL)] = true
	}
	scheme := regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`)
	linked, linkedAtAll := map[string]bool{}, map[string]bool{}
	for _, p := range res.Pages {
		for _, a := range htmlcheck.All(t, parsePage(t, out, p), "a[href]") {
			if h := htmlcheck.Attr(a, "href"); !scheme.MatchString(h) { // a link within the site
				to := path.Join(path.Dir(p), strings.SplitN(h, "#", 2)[0])
				linked[to] = linked[to] || mapped[paths.Dir(p)]
				linkedAtAll[to] = true
			}
		}
	}
	singles := map[string]bool{}
	for _, pr := range res.Network.Projects {
		if len(pr.Claims) == 1 {
			singles[paths.Project(pr.ID)] = true
			if !mapped[paths.Dir(paths.ClaimKey(pr.Claims[0]))] {
				t.Errorf("the sitemap does not name %s, the claim page of a one-site project", paths.ClaimKey(pr.Claims[0]))
			}
		}
	}
	events := 0
	for _, p := range res.Pages {
		parts := strings.Split(p, "/")
		event := len(parts) == 3 && parts[0] == "updates" && store.IsEventID(parts[1])
		if event {
			events++
		}
		switch unmapped := event || singles[p]; {
		case p == notFoundPage:
		case unmapped && mapped[paths.Dir(p)]:
			t.Errorf("the sitemap names %s, one of the thin pages it leaves out", p)
		case !unmapped && !mapped[paths.Dir(p)]:
			t.Errorf("the sitemap does not name %s", p)
		case singles[p] && linkedAtAll[p]:
			t.Errorf("a page links %s, a one-site project page, which only leads to its claim's page", p)
		case event && !linked[p]:
			t.Errorf("%s is neither in the sitemap nor linked from a page in it", p)
		}
	}
	if events == 0 || len(urlset.Locs) == 0 {
		t.Fatalf("%d event pages, %d URLs in the sitemap: nothing checked", events, len(urlset.Locs))
	}
}
