package site

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFiltersStartFolded: on the project list the filter panel starts folded at
// 1280x800 and at 390 px, so the first result's title is on the first screen at 1280x800
// and higher at 390 px than with the panel open; an address that sets a filter opens it.
func TestBrowserFiltersStartFolded(t *testing.T) {
	t.Parallel()
	bc := browserSite(t)
	s := newBrowserSession(t, bc)
	type place struct {
		Open          bool
		Top, Bottom   float64
		FormTop, View float64
	}
	at := func(w, h int64, query string) place {
		t.Helper()
		if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(w, h)); err != nil {
			t.Fatal(err)
		}
		s.open(s.root + "projects/index.html" + query)
		settled(t, s.ctx)
		return eval[place](s, `(() => { const a = document.querySelector("#results > li .result-title").getBoundingClientRect();
			return {Open: document.getElementById("more-filters").open, Top: a.top, Bottom: a.bottom, View: innerHeight,
				FormTop: document.getElementById("filters").getBoundingClientRect().top} })()`)
	}
	defer chromedp.Run(s.ctx, chromedp.EmulateViewport(1280, 900))
	desk := at(1280, 800, "")
	if desk.Open || desk.Bottom > desk.View || desk.Top <= desk.FormTop {
		t.Errorf("at 1280x800 the filters are open: %v; the first result's title spans %.0f-%.0f px of %.0f", desk.Open, desk.Top, desk.Bottom, desk.View)
	}
	phone := at(390, 844, "")
	if phone.Open {
		t.Errorf("at 390 px the filters start open")
	}
	eval[bool](s, `(document.getElementById("more-filters").open = true, true)`)
	opened := eval[float64](s, `document.querySelector("#results > li .result-title").getBoundingClientRect().top`)
	if opened <= phone.Top {
		t.Errorf("at 390 px the first result is at %.0f px folded and %.0f px open", phone.Top, opened)
	}
	if set := at(1280, 800, "?type=mod"); !set.Open {
		t.Errorf("an address setting a filter leaves the filters folded")
	}
	for _, p := range s.log.take() {
		t.Errorf("project list: %s", p)
	}
}
