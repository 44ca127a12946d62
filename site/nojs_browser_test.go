package site

import (
	"context"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserWithoutScripts opens the pages a player browses with scripts turned off: nothing
// the page marks hidden for its scripts to show (the project list's search and filters) is
// drawn, and the project list still links the browse lists that work without them.
func TestBrowserWithoutScripts(t *testing.T) {
	t.Parallel()
	bc := browserSite(t)
	s := newBrowserSession(t, bc)
	if err := chromedp.Do(s.ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return chromedp.Void{}, err
	}); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"projects/index.html", "index.html", "updates/index.html", plan.PlanPage, plan.SetupPage} {
		s.open(s.root + rel)
		if drawn := eval[[]string](s, `Array.from(document.querySelectorAll("[hidden]")).filter(e => getComputedStyle(e).display !== "none").map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : ""))`); len(drawn) > 0 {
			t.Errorf("%s without scripts draws what it marks hidden: %v", rel, drawn)
		}
		if rel == "projects/index.html" && eval[int](s, `document.querySelectorAll('main a[href*="browse/"]').length`) == 0 {
			t.Errorf("%s without scripts links no browse list", rel)
		}
	}
}

// TestBrowserLongNameKeepsTheDownloadNear: on a 390x844 phone, a claim whose project name is
// 3,000 characters shows its download within two screens: the heading and the breadcrumb
// show a few lines of the name, and the whole name is still the heading's text.
func TestBrowserLongNameKeepsTheDownloadNear(t *testing.T) {
	t.Parallel()
	browsertest.Path(t)
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	name := strings.TrimSpace(strings.Repeat("Lantern Light ", 215))
	f.Claim(site, sampleManifest(uuid(1), name, 1))
	_, out := build(t, state, Options{})
	s := newBrowserSession(t, browserCase{out: out})
	if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	s.open(s.root + paths.Claim(uuid(1), site))
	if top := eval[float64](s, `document.getElementById("download").getBoundingClientRect().top + scrollY`); top > 2*844 {
		t.Errorf("the download starts at %.0f px, more than two screens of 844 px down", top)
	}
	if h := eval[string](s, `document.querySelector("h1").textContent`); h != name {
		t.Errorf("the heading's text is %d characters, want the whole name (%d)", len(h), len(name))
	}
}
