package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// artifactDir is where screenshots go (browsertest.ArtifactDir).
func artifactDir(t *testing.T) string { return browsertest.ArtifactDir(t) }

// browserCase is what browserSite built: the output directory, a claim page, a stale claim
// page, a project name the search must find, and a site (its name and id) the search must
// find by "from <name>".
type browserCase struct {
	out, claim, stale, find string
	siteName, siteID        string
}

// browserSite is the site the browser reads, built once per test binary (makeBrowserSite)
// and only read by the tests. It skips first, under -short or with no browser.
func browserSite(t *testing.T) browserCase {
	browsertest.Path(t)
	browserOnce.Do(func() { browserBuilt, browserErr = makeBrowserSite(t) })
	if browserErr != nil {
		t.Fatalf("building the browser tests' site: %v", browserErr)
	}
	if browserBuilt.out == "" {
		t.Fatal("the browser tests' site was not built (its first build stopped)")
	}
	return browserBuilt
}

var (
	browserOnce  sync.Once
	browserBuilt browserCase
	browserErr   error
)

// makeBrowserSite builds the site the browser reads: the corpus state when ../shared is there
// (with one project featured and given a card image, and one claim cached), else a small
// synthetic state of two sites with a capability, an event and OpenMW constraints to filter by.
func makeBrowserSite(t *testing.T) (browserCase, error) {
	var bc browserCase
	dir, err := sharedTempDir("ashyams-browser-site-")
	if err != nil {
		return bc, err
	}
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o755); err != nil {
		return bc, err
	}
	var cur string
	if p, ok := corpustest.Find("state/network.json"); ok {
		root := filepath.Dir(p)
		if err := os.CopyFS(state, os.DirFS(root)); err != nil {
			t.Fatal(err)
		}
		const candlelight = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
		site := "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8"
		d := store.Open(state)
		var c store.Claim
		if err := d.ReadJSON(store.ClaimPath(candlelight, site), &c); err != nil {
			t.Fatal(err)
		}
		b := sitetest.EncodePNG(t, sitetest.Gradient(960, 540))
		rel := store.MediaDir + "/" + sha(b) + ".png"
		if err := d.WriteBytes(rel, b); err != nil {
			t.Fatal(err)
		}
		c.Media = &store.Media{URL: "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/card.png", Alt: "A test card: a blue to amber gradient", File: &rel}
		if err := d.WriteJSON(store.ClaimPath(candlelight, site), c); err != nil {
			t.Fatal(err)
		}
		// One claim cached after a failed read, so the staleness banner and the health page's
		// failures are on screen.
		const greenmote = "57ec3325-acb3-4307-9c0f-2031ab3354ef"
		gsite := "dreamweave-mp-github-io-greenmote-78b2d84b"
		var g store.Claim
		if err := d.ReadJSON(store.ClaimPath(greenmote, gsite), &g); err == nil {
			g.Health = store.ClaimOriginUnavailable
			g.Problem = ptr("the site could not be read on the last crawl: discovery from https://dreamweave-mp.github.io/greenmote/: the site index at https://dreamweave-mp.github.io/greenmote/dreamweave.json answers HTTP 503")
			g.LastAttempt = "2026-11-29T22:44:53Z"
			if err := d.WriteJSON(store.ClaimPath(greenmote, gsite), g); err != nil {
				t.Fatal(err)
			}
			bc.stale = paths.Claim(greenmote, gsite)
		}
		bc.siteName, bc.siteID = "Greenmote", gsite
		cur = writeCuration(t, fmt.Sprintf("[[featured]]\nproject = %q\nnote = \"The protocol's reference example, with every field filled in.\"\n", candlelight))
		bc.claim, bc.find = paths.Claim(candlelight, site), "Candlelight"
	} else {
		f := statetest.In(t, state)
		site := f.Site("https://dream-a.example/dreamweave.json", "Site A")
		// OpenMW constraints to filter by: none, one 0.49 is outside, one 0.50 is outside. The
		// sites' hosts hold "dream", so a search for it finds every claim, as in the corpus.
		runtimes := []map[string]string{{}, {"openmw": ">=0.50"}, {"openmw": ">=0.48, <0.50"}}
		for i := 0; i < 12; i++ {
			m := sampleManifest(uuid(i), fmt.Sprintf("Project %02d", i), 3)
			for r := range m.Releases {
				if i < len(runtimes) {
					m.Releases[r].Runtimes = runtimes[i]
				}
			}
			f.Claim(site, m)
		}
		keeper := sampleManifest(uuid(99), "Lantern Keeper", 2)
		keeper.Releases[0].Provides = []string{"synthetic:lanterns"} // a capability page
		kept := f.Claim(site, keeper)
		before := strings.Repeat("c", 64) // an event page and an update list of its tag
		f.Event(store.Event{Kind: store.EventChanged, Project: uuid(99), Origin: site, Name: "Lantern Keeper", ObservedAt: "2026-09-20T00:00:00Z",
			Before: &before, After: &kept, Changes: []diff.Change{{Change: "project-field", Field: "summary", Before: json.RawMessage(`"old"`), After: json.RawMessage(`"new"`)}}})
		other := f.Site("https://dream-b.example/dreamweave.json", "Brass Harbour")
		f.Claim(other, sampleManifest(uuid(98), "Stale Lamp", 2), func(c *store.Claim) {
			c.Health, c.Problem = store.ClaimOriginUnavailable, ptr("the site could not be read on the last crawl: HTTP 503")
		})
		f.Claim(other, sampleManifest(uuid(3), "Project 03", 3)) // an identity conflict
		bc.claim, bc.stale, bc.find = paths.Claim(uuid(99), site), paths.Claim(uuid(98), other), "Lantern Keeper"
		bc.siteName, bc.siteID = "Brass Harbour", other
	}
	out := filepath.Join(dir, "public")
	if _, err := Build(Options{State: state, Curation: cur, Out: out}); err != nil {
		return bc, err
	}
	bc.out = out
	return bc, nil
}

// liveDoc is the page as the browser of ctx holds it now, parsed, for a test to read by
// selector.
func liveDoc(t testing.TB, ctx context.Context) *html.Node {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`"<!DOCTYPE html>" + document.documentElement.outerHTML`))
	if err != nil {
		t.Fatal(err)
	}
	return htmlcheck.Parse(t, []byte(s))
}

// browserLog records what must not happen while the pages load.
type browserLog struct {
	mu   sync.Mutex
	host string
	// files is the built site's directory as a file:// path ending in "/public/"): pages opened
	// from files may load what is under it.
	files    string
	problems []string
}

func (l *browserLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.problems = append(l.problems, fmt.Sprintf(format, args...))
}

func (l *browserLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.problems
	l.problems = nil
	return p
}

func (l *browserLog) listen(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			l.add("console.%s: %s", ev.Type, strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		l.add("uncaught exception: %s", ev.ExceptionDetails.Text)
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError || ev.Entry.Level == cdplog.EntryLevelWarning {
			l.add("browser log %s: %s (%s)", ev.Entry.Level, ev.Entry.Text, ev.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		u, err := url.Parse(ev.Request.URL)
		if err == nil && u.Scheme == "file" && l.files != "" && strings.HasPrefix(u.Path, l.files) {
			break
		}
		if err != nil || (u.Host != l.host && u.Scheme != "data") {
			l.add("request outside the site: %s", ev.Request.URL)
		}
	case *network.EventLoadingFailed:
		l.add("request failed: %s %s", ev.ErrorText, ev.BlockedReason)
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			l.add("HTTP %d for %s", ev.Response.Status, ev.Response.URL)
		}
	}
}

// TestBrowser loads the home page, a claim page, a stale claim page, the health and sites
// pages, the project list and the 404 page in headless Chromium from a loopback server of the
// built site, mounted under the base URL's path as its host serves it: no console errors or
// warnings, no failed or outside requests, the search box finds a project by name, the pages
// fit 320 px, the 404 page is styled and links inside the site, and a screenshot of each is
// written to $ASHYAMS_ARTIFACTS (else a temp dir), its path logged and listed in
// screenshots.txt there.
func TestBrowser(t *testing.T) {
	t.Parallel()
	browsertest.Path(t) // skip before building the site when there is no browser
	bc := browserSite(t)
	out, claim, stale, find := bc.out, bc.claim, bc.stale, bc.find
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	su, _ := url.Parse(srv.URL)
	art := artifactDir(t)
	root := srv.URL + BasePath(DefaultBaseURL) // where Handler mounts a site built for the default
	var shots []string
	defer func() {
		index := filepath.Join(art, "screenshots.txt")
		if err := os.WriteFile(index, []byte(strings.Join(shots, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
		t.Logf("screenshots listed in %s", index)
	}()

	bl := &browserLog{host: su.Host, files: filepath.ToSlash(out) + "/"}
	ctx := browsertest.Start(t, bl.listen)

	shot := func(name string) {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		p := filepath.Join(art, name+".png")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		shots = append(shots, p)
		t.Logf("screenshot: %s", p)
	}
	load := func(rel string) {
		t.Helper()
		navigate(t, ctx, root+rel, "body > footer")
	}
	settle := func(rel string) {
		t.Helper()
		// Let late requests and console messages arrive, then take them.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => setTimeout(() => r(true), 300))`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		for _, p := range bl.take() {
			t.Errorf("%s: %s", rel, p)
		}
	}
	fits := func(rel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(320, 800)); err != nil {
			t.Fatal(err)
		}
		w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
		if err != nil {
			t.Fatal(err)
		}
		if w > 320 {
			t.Errorf("%s: %d px wide at a 320 px viewport", rel, w)
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
	}

	// Home.
	load("index.html")
	settle("index.html")
	fits("index.html")
	shot("home")

	// A claim page, also narrow and in the dark scheme.
	load(claim)
	settle(claim)
	fits(claim)
	shot("claim")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(320, 900)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return chromedp.Void{}, err
	}); err != nil {
		t.Fatal(err)
	}
	shot("claim-320px-dark")
	if err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
		return chromedp.Void{}, err
	}, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}

	// The project list: type a name, and only matching entries stay visible.
	load("projects/index.html")
	total, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#results > li").length`))
	if err != nil {
		t.Fatal(err)
	}
	typeInto(t, ctx, "#q", find)
	settled(t, ctx)
	visible, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#results > li")).filter(li => !li.hidden).map(li => li.querySelector(".result-title").textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(visible) == 0 || len(visible) >= total {
		t.Errorf("searching %q shows %d of %d entries: %v", find, len(visible), total, visible)
	}
	for _, v := range visible {
		if !strings.Contains(strings.ToLower(v), strings.ToLower(find)) {
			t.Errorf("searching %q shows %q", find, v)
		}
	}
	found := false
	for _, v := range visible {
		found = found || v == find
	}
	if !found {
		t.Errorf("searching %q does not show it: %v", find, visible)
	}
	htmlcheck.Want(t, liveDoc(t, ctx), "#filter-status", fmt.Sprintf("Showing %d of %d", len(visible), total))
	settle("projects/index.html")
	fits("projects/index.html")
	shot("projects-search")
	// A typo still finds it: one letter left out ("Candelight" for Candlelight).
	typo := strings.ToLower(find[:4] + find[5:])
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("q").value = "", true`)); err != nil {
		t.Fatal(err)
	}
	typeInto(t, ctx, "#q", typo)
	settled(t, ctx)
	if got := visibleKeys(t, ctx); len(got) == 0 || len(got) >= total {
		t.Errorf("searching %q (a typo of %q) shows %d of %d entries", typo, find, len(got), total)
	} else if title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#results > li .result-title").textContent`)); err != nil || title != find {
		t.Errorf("searching %q shows %q first (%v), want %q", typo, title, err, find)
	}
	served := projectSearches(t, ctx, bc, func(query string) {
		t.Helper()
		load("projects/index.html" + query)
		if query != "" {
			waitFor(t, ctx, `#filters[data-source="index"]`)
		}
		settled(t, ctx)
	})
	settle("projects/index.html (searches)")
	// Back from a claim to a filtered list: the address holds the search, and the list
	// shows it again.
	// The list is read and clicked once its script has applied the search: before that an
	// entry can move or go under the pointer, and the click opens nothing.
	load("projects/index.html?q=" + url.QueryEscape("from "+bc.siteName))
	settled(t, ctx)
	before := visibleKeys(t, ctx)
	clickOn(t, ctx, `#results > li:not([hidden]) a.result-title`)
	browsertest.Until(t, ctx, `document.readyState === "complete" && !!document.getElementById("facts")`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`history.back(), true`)); err != nil {
		t.Fatalf("back to the list: %v", err)
	}
	// The browser may restore the page from memory (no load event): wait for the list itself.
	browsertest.Until(t, ctx, `/\/projects\/(index\.html)?$/.test(location.pathname) && document.readyState === "complete" && !!document.getElementById("filters") && !document.getElementById("filters").hidden`)
	q, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("q").value`))
	if err != nil || q != "from "+bc.siteName {
		t.Errorf("after Back the search box holds %q (%v), want %q", q, err, "from "+bc.siteName)
	}
	if after := visibleKeys(t, ctx); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("after Back the list shows %v, before it showed %v", after, before)
	}
	settle("projects/index.html (back)")
	// Opened from a file: the index's parts are scripts of the site, which a page opened from
	// a file loads too, so every search answers as it did served.
	fileURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/projects/index.html"}).String()
	fromFile := projectSearches(t, ctx, bc, func(query string) {
		t.Helper()
		navigate(t, ctx, fileURL+query, "body > footer")
		if query != "" {
			waitFor(t, ctx, `#filters[data-source="index"]`)
		}
		settled(t, ctx)
	})
	for k, v := range served {
		if fromFile[k] != v {
			t.Errorf("search %s: served it shows %s; opened from a file %s", k, v, fromFile[k])
		}
	}
	settle(fileURL)

	// A claim cached after a failed read: the staleness banner is there.
	if stale != "" {
		load(stale)
		settle(stale)
		fits(stale)
		htmlcheck.Want(t, liveDoc(t, ctx), "#staleness", "This page may be out of date.")
		shot("claim-stale")
	}
	for _, p := range []struct{ rel, name string }{{"health/index.html", "health"}, {"origins/index.html", "sites"}} {
		load(p.rel)
		settle(p.rel)
		fits(p.rel)
		shot(p.name)
	}

	// The 404 page, at a depth the site does not have: styled (its stylesheet passes the
	// 'self' CSP) and its links stay inside the site.
	missing := root + "no/such/page/"
	navigate(t, ctx, missing, "body > footer")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => setTimeout(() => r(true), 300))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	for _, p := range bl.take() {
		if !strings.Contains(p, missing) { // the page itself answers 404, as it must
			t.Errorf("404 page: %s", p)
		}
	}
	styled, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`Array.from(document.styleSheets).some(s => s.cssRules.length > 0)`))
	if err != nil || !styled {
		t.Errorf("the 404 page has no stylesheet applied (%v)", err)
	}
	home, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("a.brand").href`))
	if err != nil || home != root+"index.html" {
		t.Errorf("the 404 page's home link is %q (%v), want %q", home, err, root+"index.html")
	}
	shot("404")
}

// settled waits until the project list shows what its search and filters choose: the script
// marks the list aria-busy from a keystroke until the (debounced) results are in.
func settled(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => { const f = () => document.getElementById("results").hasAttribute("aria-busy") ? setTimeout(f, 10) : r(true); setTimeout(f, 0) })`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
}

// jsEntryKey is a JavaScript function of a project list entry (an <li>): its key,
// "project/site", which its link's address ends in, as the list's script reads it.
const jsEntryKey = `(li => { const p = li.querySelector(".result-title").getAttribute("href").split("/"); return p[p.length - 3] + "/" + p[p.length - 2]; })`

// visibleKeys are the project list's visible entries (project/site), in order.
func visibleKeys(t *testing.T, ctx context.Context) []string {
	t.Helper()
	keys, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#results > li")).filter(li => !li.hidden).map(`+jsEntryKey+`)`))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// projectSearches runs the project list's searches on the page open(query) loads, and
// returns what each showed (visible keys and the status line), by search, so the same
// searches can be compared between a served page and one opened from a file. It asserts: a
// site's name after "from" finds exactly that site's claims; the badge word "cached" finds
// exactly the claims that are not current; typing puts the search in the address; and an
// address with ?q= and &health= loads with the box and the filter set and the list filtered.
func projectSearches(t *testing.T, ctx context.Context, bc browserCase, open func(query string)) map[string]string {
	t.Helper()
	results := map[string]string{}
	open("")
	all, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#results > li")).map(`+jsEntryKey+`)`))
	if err != nil {
		t.Fatal(err)
	}
	// An entry says it is not current by its badge (the list prints no filter attributes).
	stale, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#results > li:has(> .entry-body > .badge.stale)')).map(`+jsEntryKey+`)`))
	if err != nil {
		t.Fatal(err)
	}
	var ofSite []string
	for _, k := range all {
		if strings.HasSuffix(k, "/"+bc.siteID) {
			ofSite = append(ofSite, k)
		}
	}
	if len(ofSite) == 0 || len(ofSite) == len(all) || len(stale) == 0 {
		t.Fatalf("the browser site has %d claims, %d of them from %s and %d not current: the searches below would prove nothing", len(all), len(ofSite), bc.siteID, len(stale))
	}
	status := func() string {
		return shownText(t, ctx, "#filter-status")
	}
	search := func(q string, want []string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const q = document.getElementById("q"); q.value = ""; q.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)); err != nil {
			t.Fatal(err)
		}
		typeInto(t, ctx, "#q", q)
		settled(t, ctx)
		got := visibleKeys(t, ctx)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("searching %q shows %v, want %v", q, got, want)
		}
		st := status()
		if !strings.HasPrefix(st, fmt.Sprintf("Showing %d of %d listings (", len(want), len(all))) {
			t.Errorf("searching %q: the status line says %q", q, st)
		}
		results["q="+q] = strings.Join(got, " ") + " | " + st
	}
	search("from "+bc.siteName, ofSite)
	search("cached", stale)
	if u, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`)); err == nil && u != "?q=cached" {
		t.Errorf("after typing, the address's query is %q, want ?q=cached", u)
	}

	// An address with the state: the page opens filtered.
	query := "?q=" + url.QueryEscape("from "+bc.siteName) + "&health=not-current"
	open(query)
	var want []string
	for _, k := range ofSite {
		for _, s := range stale {
			if k == s {
				want = append(want, k)
			}
		}
	}
	got := visibleKeys(t, ctx)
	if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s shows %v, want %v", query, got, want)
	}
	for id, v := range map[string]string{"q": "from " + bc.siteName, "f-health": "not-current"} {
		if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById(%q).value`, id))); err != nil || got != v {
			t.Errorf("%s: #%s holds %q (%v), want %q", query, id, got, err, v)
		}
	}
	results[query] = strings.Join(got, " ") + " | " + status()
	return results
}
