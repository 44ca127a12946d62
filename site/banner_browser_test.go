package site

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserStaleBannerLeavesDownloadNear: on a 390x844 phone the staleness banner of a
// cached claim says its player sentence and folds the rest into a closed <details>, so it
// takes at most a quarter of the first screen and pushes the claim's download down by no
// more (the demo's broken claim: 756 px of banner before, the download at 1.92 screens).
func TestBrowserStaleBannerLeavesDownloadNear(t *testing.T) {
	bc := browserSite(t)
	if bc.stale == "" {
		t.Skip("the browser site has no cached claim")
	}
	s := newBrowserSession(t, bc)
	if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	s.open(s.root + bc.stale)
	if open := eval[bool](s, `document.querySelector("#staleness > details").open`); open {
		t.Error("the banner's details are open: the technical facts should wait for a tap")
	}
	banner := eval[float64](s, `document.getElementById("staleness").getBoundingClientRect().height`)
	download := eval[float64](s, `document.getElementById("download").getBoundingClientRect().top + scrollY`)
	if banner > 844/4 {
		t.Errorf("%s: the banner is %.0f px tall (the download starts at %.2f screens of 844 px), want at most a quarter screen", bc.stale, banner, download/844)
	}
}
