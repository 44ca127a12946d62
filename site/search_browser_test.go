package site

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// TestBrowserSearchWholeCatalog: on a list of 130 claims, paged at 50, the project list's
// search, OpenMW and tag filters and sort answer over the whole catalog, not the page it is
// on: a name on the last page is found from the first, with a typo too, by a prefix and by
// its project id; the filters count every matching claim; the results are paged, their page
// in the address; sorting by recently updated puts the newest of all claims first. When the
// index does not load, the search answers from the entries the page shows, and says so.
func TestBrowserSearchWholeCatalog(t *testing.T) {
	browsertest.Path(t) // skips with -short or without a browser, before the build
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	synthState(t, state, 130)
	res, out := build(t, state, Options{})
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	root := srv.URL + BasePath(DefaultBaseURL)

	ctx := browsertest.Start(t, nil)

	listed := view.ByName(res.Network.Listed)
	open := func(query string) {
		t.Helper()
		navigate(t, ctx, root+"projects/index.html"+query, "body > footer")
		settled(t, ctx)
	}
	titles := func() []string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#results > li .result-title")).map(a => a.textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	status := func() string {
		t.Helper()
		return shownText(t, ctx, "#filter-status")
	}

	open("")
	if n := len(titles()); n != paths.PageSize {
		t.Fatalf("the first page shows %d entries, want %d", n, paths.PageSize)
	}
	target := listed[len(listed)-3].Name // on the last page
	for _, q := range []string{target, strings.Replace(target, "Synthetic", "Synthetik", 1), strings.ToLower(target[:len(target)-1])} {
		open("")
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("q").value = "", true`)); err != nil {
			t.Fatal(err)
		}
		typeInto(t, ctx, "#q", q)
		settled(t, ctx)
		got := titles()
		found := false
		for _, g := range got {
			found = found || g == target
		}
		if !found {
			t.Errorf("searching %q from the first page does not find %q: %v", q, target, got)
		}
		if len(got) > paths.PageSize {
			t.Errorf("searching %q shows %d entries at once", q, len(got))
		}
	}

	// A project id, as a player pastes it, finds its claim from the first page, and the
	// claims whose current release names it (synthState: each requires the one before).
	idOf := listed[len(listed)-3].Key.Project
	var naming []string
	for _, c := range listed {
		found := c.Key.Project == idOf
		for _, rel := range c.Current.Relationships {
			found = found || rel.Project == idOf
		}
		if found {
			naming = append(naming, c.Name)
		}
	}
	open("?q=" + url.QueryEscape(strings.ToUpper(idOf)))
	if got := titles(); len(naming) < 2 || strings.Join(got, "|") != strings.Join(naming, "|") {
		t.Errorf("searching the project id %s shows %v, want %v", idOf, got, naming)
	}

	// The tag filter, in any case, counts the whole catalog: a tag some claims have and
	// others not, the last page's among them.
	holding := func(tag string) int {
		n := 0
		for _, c := range listed {
			if slices.ContainsFunc(c.Manifest.Project.Tags, func(tg string) bool { return strings.EqualFold(tg, tag) }) {
				n++
			}
		}
		return n
	}
	tag, withTag := "", 0
	for _, tg := range listed[len(listed)-1].Manifest.Project.Tags {
		if n := holding(tg); n < len(listed) {
			tag, withTag = tg, n
			break
		}
	}
	open("?tag=" + url.QueryEscape(strings.ToUpper(tag)))
	if st := status(); withTag == len(listed) || !strings.HasPrefix(st, fmt.Sprintf("Showing %d of %d listings", withTag, len(listed))) {
		t.Errorf("?tag=%s: the status line says %q, want %d of %d", strings.ToUpper(tag), st, withTag, len(listed))
	}

	// The OpenMW filter counts the whole catalog: every claim whose constraint is not >=0.49
	// works with 0.48.5.
	want := 0
	for _, c := range listed {
		if c.Current != nil && c.Current.Runtimes["openmw"] != ">=0.49" {
			want++
		}
	}
	open("?openmw=0.48.5")
	if st := status(); !strings.HasPrefix(st, fmt.Sprintf("Showing %d of %d listings", want, len(listed))) {
		t.Errorf("?openmw=0.48.5: the status line says %q, want %d of %d", st, want, len(listed))
	}
	open("?openmw=0.48.5&page=2")
	if got, wantN := len(titles()), want-paths.PageSize; got != wantN {
		t.Errorf("page 2 of the filtered list shows %d entries, want %d", got, wantN)
	}
	cur, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('#results-pager a[aria-current="page"]') || {}).textContent || ""`))
	if err != nil || cur != "2" {
		t.Errorf("the results' pager marks page %q as current (%v), want 2", cur, err)
	}
	// The click is dispatched on the link itself, not at its coordinates: the entries above the
	// pager are laid out only as they scroll into view (content-visibility), so the pager can
	// move between measuring it and a mouse press, and a press at the old place hits nothing.
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const a = document.querySelector('#results-pager a[rel="prev"]'); if (!a) return false; a.click(); return true })()`)); err != nil || !ok {
		t.Fatalf("the results' pager has no Previous link to click on page 2 (%v)", err)
	}
	// The click's handler may run after the evaluation returns: wait until the address leaves
	// page 2 (a page that never does is stopped by go test's -timeout), then until the results
	// settle.
	browsertest.Until(t, ctx, `!location.search.includes("page=2")`)
	settled(t, ctx)
	if u, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`)); err != nil || u != "?openmw="+url.QueryEscape("0.48.5") {
		t.Errorf("after Previous the address's query is %q (%v)", u, err)
	}

	// Sorting by recently updated: the newest of every claim first, equal times in name order.
	updated := func(i int) string {
		r := listed[i].Record
		if r.LastChanged != nil && *r.LastChanged != "" {
			return *r.LastChanged
		}
		return r.FirstObserved
	}
	idx := make([]int, len(listed))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return updated(idx[a]) > updated(idx[b]) })
	open("?sort=updated")
	got := titles()
	if len(got) != paths.PageSize {
		t.Fatalf("?sort=updated shows %d entries, want %d", len(got), paths.PageSize)
	}
	for i := 0; i < 3; i++ {
		if got[i] != listed[idx[i]].Name {
			t.Errorf("?sort=updated: entry %d is %q, want %q", i+1, got[i], listed[idx[i]].Name)
		}
	}

	// Without the index's words, a search reads the entries of the page: a name on the first
	// page is found, one on the last is not, and the status line says why.
	// (The browser's cache is turned off first: it may hold the part from the loads above.)
	if err := os.Remove(filepath.Join(out, filepath.FromSlash(find.Dir), "terms.js")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, tg, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
		return chromedp.Void{}, err
	}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{listed[1].Name: 1, target: 0} {
		open("?q=" + url.QueryEscape(q))
		browsertest.Until(t, ctx, `document.getElementById("filters").getAttribute("data-source") === "page"`)
		settled(t, ctx)
		n := 0
		for _, g := range titles() {
			if g == q {
				n++
			}
		}
		if n != want {
			t.Errorf("without terms.js, searching %q shows it %d times (want %d)", q, n, want)
		}
		htmlcheck.Want(t, liveDoc(t, ctx), "#filter-status", "this searches the entries of this page only")
	}
	// An entry is found by its site id too, which the page's entries give only in the address
	// of their link.
	var fromSite []string
	for _, c := range listed[:paths.PageSize] {
		if c.Site == listed[1].Site {
			fromSite = append(fromSite, c.Name)
		}
	}
	open("?q=" + url.QueryEscape(listed[1].Site))
	browsertest.Until(t, ctx, `document.getElementById("filters").getAttribute("data-source") === "page"`)
	settled(t, ctx)
	if got := titles(); !slices.Equal(got, fromSite) {
		t.Errorf("without terms.js, searching the site id %s shows %q, want its claims on the page, %q", listed[1].Site, got, fromSite)
	}
	// The filters then read what the page's entries show: their tags and health badges.
	var tagged, stale []string
	for _, c := range listed[:paths.PageSize] {
		if slices.Contains(c.Manifest.Project.Tags, "Theme 1") {
			tagged = append(tagged, c.Name)
		}
		if health.StalenessOf(c) != health.StaleNone {
			stale = append(stale, c.Name)
		}
	}
	if len(tagged) == 0 || len(stale) == 0 {
		t.Fatalf("the first page has %d claims tagged Theme 1 and %d not current: the filters below would prove nothing", len(tagged), len(stale))
	}
	for q, want := range map[string][]string{"?tag=" + url.QueryEscape("theme 1"): tagged, "?health=not-current": stale} {
		open(q)
		browsertest.Until(t, ctx, `document.getElementById("filters").getAttribute("data-source") === "page"`)
		settled(t, ctx)
		if got := titles(); !slices.Equal(got, want) {
			t.Errorf("without terms.js, %s shows %q, want %q", q, got, want)
		}
	}
}
