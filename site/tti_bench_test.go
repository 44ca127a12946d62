package site

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// hostileOpenMW is the kept hostile constraint of TestHostileTextKeepsPagesWorking: valid,
// 200 KB, nearly all of it spaces.
var hostileOpenMW = ">=0.1" + strings.Repeat(" ", 200000) + ",<=2"

// hostileCfg is the kept 133 KB share link's file: one content= line of 100,000 spaces.
var hostileCfg = "content=a" + strings.Repeat(" ", 100000) + "b.esp\ncontent=Spaced.esp\n"

// spacedSite builds the one-claim site of the hostile browser test with openmw as its
// releases' runtimes.openmw, and returns the output directory.
func spacedSite(b *testing.B, openmw string) string {
	b.Helper()
	m := withOpenMW(sampleManifest(uuid(1), "Spaced Out", 2), []component{{id: "main", files: []string{"Spaced.esp"}}}, nil, nil)
	for i := range m.Releases {
		m.Releases[i].Runtimes["openmw"] = openmw
	}
	out := filepath.Join(b.TempDir(), "public")
	if _, err := Build(Options{State: longListState(b, m), Out: out}); err != nil {
		b.Fatal(err)
	}
	return out
}

// ttiReady is what says a page's script has done its work: the projects list is drawn and not
// busy (its filters applied), the setup page's check has answered (or it waits for a file).
const (
	ttiProjects = `!!document.querySelector("[data-source]") && !document.getElementById("results").hasAttribute("aria-busy")`
	ttiSetup    = `!!window.AshyamsSetup && !document.getElementById("setup-form").hidden && (!location.hash || !!document.getElementById("setup-summary") || document.getElementById("setup-status").textContent !== "")`
)

// timeToInteractive opens u in a fresh tab of the browser of ctx with an empty cache, and
// returns, on the page's own clock (milliseconds from the navigation's start), when the load
// event ended and when the page was interactive: the load event over, ready true, and the
// first task queued after that run (a page still busy in its script runs it late).
func timeToInteractive(b *testing.B, ctx context.Context, u, ready string) (load, tti float64) {
	b.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Do(tab, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		if _, err := cdp.Call(ctx, tg, network.ClearBrowserCache, cdp.Empty{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, tg, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
		return chromedp.Void{}, err
	}); err != nil {
		b.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate(u)); err != nil {
		b.Fatalf("load %.80s: %v", u, err)
	}
	js := `new Promise(r => { const f = () => { let ok = false; try { ok = document.readyState === "complete" &&
		performance.getEntriesByType("navigation")[0].loadEventEnd > 0 && (` + ready + `); } catch (e) {}
		ok ? setTimeout(() => r([performance.getEntriesByType("navigation")[0].loadEventEnd, performance.now()]), 0) : setTimeout(f, 5); }; f(); })`
	v, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](js, chromedp.EvalAwaitPromise))
	if err != nil || len(v) != 2 {
		b.Fatalf("%.80s: %v", u, err)
	}
	return v[0], v[1]
}

// BenchmarkHostileTimeToInteractive measures, in one headless Chromium started before the
// clock runs, the time to interactive (timeToInteractive: a fresh tab, an empty cache, the
// page's own clock) of the pages the kept hostile inputs once froze, beside the same pages
// without them: the projects page of the one-claim site whose runtimes.openmw is the 200 KB
// constraint and of the same site with ">=0.1,<=2", as built and filtered by an OpenMW
// version (?openmw=1.0, the constraint read); and the setup page opened from the 133 KB share
// link and from a short link naming the same files. Each is opened five times; it prints the
// median and the worst, and reports the hostile pages' medians (ms). A measurement, not a
// test: nothing is asserted (TestHostileTextKeepsPagesWorking asserts the answers).
//
//	ASHYAMS_BROWSER=/usr/bin/chromium go test ./site -run '^$' -bench BenchmarkHostileTimeToInteractive -benchtime 1x
func BenchmarkHostileTimeToInteractive(b *testing.B) {
	hostile, plain := spacedSite(b, hostileOpenMW), spacedSite(b, ">=0.1,<=2")
	hs, ps := httptest.NewServer(preview.Handler(hostile)), httptest.NewServer(preview.Handler(plain))
	defer hs.Close()
	defer ps.Close()
	h, p := hs.URL+BasePath(DefaultBaseURL), ps.URL+BasePath(DefaultBaseURL)
	shortCfg := "content=ab.esp\ncontent=Spaced.esp\n"
	cases := []struct {
		name, url, ready, metric string
	}{
		{"projects, plain", p + "projects/index.html", ttiProjects, ""},
		{"projects, 200 KB constraint", h + "projects/index.html", ttiProjects, "projects-ms"},
		{"projects ?openmw=1.0, plain", p + "projects/index.html?openmw=1.0", ttiProjects, ""},
		{"projects ?openmw=1.0, 200 KB constraint", h + "projects/index.html?openmw=1.0", ttiProjects, "projects-openmw-ms"},
		{"setup, short link, plain", p + plan.SetupPage + "#cfg=" + b64url(shortCfg) + "&openmw=3.0", ttiSetup, ""},
		{"setup, short link, 200 KB constraint", h + plan.SetupPage + "#cfg=" + b64url(shortCfg) + "&openmw=3.0", ttiSetup, ""},
		{"setup, 133 KB link, 200 KB constraint", h + plan.SetupPage + "#cfg=" + b64url(hostileCfg) + "&openmw=3.0", ttiSetup, "setup-link-ms"},
	}
	ctx := browsertest.Start(b, nil)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // the browser is up
		b.Fatal(err)
	}
	const runs = 5
	var rows []string
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows = rows[:0]
		for _, c := range cases {
			var loads, ttis []float64
			for r := 0; r < runs; r++ {
				l, t := timeToInteractive(b, ctx, c.url, c.ready)
				loads, ttis = append(loads, l), append(ttis, t)
			}
			sort.Float64s(loads)
			sort.Float64s(ttis)
			rows = append(rows, fmt.Sprintf("| %s | %d | %.0f | %.0f | %.0f |", c.name, len(c.url), loads[runs/2], ttis[runs/2], ttis[runs-1]))
			if c.metric != "" {
				b.ReportMetric(ttis[runs/2], c.metric)
			}
		}
	}
	b.StopTimer()
	fmt.Println("| page | address bytes | load event, median ms | interactive, median ms | interactive, worst ms |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
}
