package site

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
)

// The site's browser tests read and drive pages with JavaScript and input events only.
// chromedp's selector actions (WaitReady, WaitVisible, Click, SendKeys, Text) look nodes up in
// a copy of the DOM that the page's events keep; when one page replaces another (a click that
// opens a link, Back, a load) that copy can miss the new document, and the action retries
// forever. JavaScript reads the page the tab shows, whichever it is.

// navigate loads u in the tab, then waits until it has an element matching the CSS selector
// sel.
func navigate(t testing.TB, ctx context.Context, u, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("load %s: %v", u, err)
	}
	waitFor(t, ctx, sel)
}

// waitFor waits until the page has an element matching the CSS selector sel.
func waitFor(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	browsertest.Until(t, ctx, `!!document.querySelector(`+jsString(sel)+`)`)
}

// waitShown waits until sel's element is displayed: it has a box on the page.
func waitShown(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	browsertest.Until(t, ctx, `(e => !!e && e.getClientRects().length > 0)(document.querySelector(`+jsString(sel)+`))`)
}

// typeInto focuses sel's element, once displayed, and types text with key events, as a
// player's keyboard does.
func typeInto(t testing.TB, ctx context.Context, sel, text string) {
	t.Helper()
	waitShown(t, ctx, sel)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector(`+jsString(sel)+`).focus(), true)`)); err != nil {
		t.Fatalf("focus %s: %v", sel, err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(text)); err != nil {
		t.Fatalf("type %q into %s: %v", text, sel, err)
	}
}

// clickOn scrolls sel's element, once displayed, to the middle of the window and clicks its
// middle with the mouse, as a player does.
func clickOn(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	waitShown(t, ctx, sel)
	at, err := chromedp.Run(ctx, chromedp.Evaluate[[2]float64](`(e => { e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })(document.querySelector(`+jsString(sel)+`))`))
	if err != nil {
		t.Fatalf("find %s: %v", sel, err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(at[0], at[1])); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// shownText is the text sel's element shows (innerText).
func shownText(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+jsString(sel)+`).innerText`))
	if err != nil {
		t.Fatalf("the text of %s: %v", sel, err)
	}
	return s
}
