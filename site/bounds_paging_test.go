package site

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/sites"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
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
