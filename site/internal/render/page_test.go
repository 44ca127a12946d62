package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// TestEntryRenderedOncePerPrefixAndDate: the function entry prints what {{template "entry"}}
// prints, renders a claim's entry once for each link prefix and date, and hands the same
// HTML to every list at that depth.
func TestEntryRenderedOncePerPrefixAndDate(t *testing.T) {
	b := boundBuilder(t, "Site <A> & \u202eB", "Held <b>", 2)
	s := b.Summarize(b.N.Claims[0])
	list := &Page{Path: "projects/index.html"}
	browse := &Page{Path: "browse/tag-x/index.html"}
	other := &Page{Path: "browse/type-y/index.html"}
	direct := func(p *Page, date string) string {
		var buf strings.Builder
		err := b.tmpl.pages["projects"].ExecuteTemplate(&buf, "entry", map[string]any{"Page": p, "Entry": s, "Date": date})
		if err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, c := range []struct {
		p    *Page
		date string
	}{{list, ""}, {browse, ""}, {browse, "released"}, {browse, "updated"}, {other, ""}, {list, ""}} {
		got, err := b.entry(c.p, s, c.date)
		if err != nil {
			t.Fatal(err)
		}
		if want := direct(c.p, c.date); string(got) != want {
			t.Errorf("entry(%s, %q) =\n%s\nwant what the template prints:\n%s", c.p.Path, c.date, got, want)
		}
	}
	if len(b.frags.m) != 4 {
		t.Errorf("%d entries rendered, want 4 (two depths, three dates at one of them)", len(b.frags.m))
	}
	a, _ := b.entry(browse, s, "")
	o, _ := b.entry(other, s, "")
	if a != o {
		t.Errorf("two lists at one depth got different entries:\n%s\n%s", a, o)
	}
	l, _ := b.entry(list, s, "")
	if htmlcheck.Count(t, htmlcheck.Parse(t, []byte(l)), `a[href^="../projects/"]`) == 0 || htmlcheck.Count(t, htmlcheck.Parse(t, []byte(a)), `a[href^="../../projects/"]`) == 0 {
		t.Errorf("an entry does not link from its own list's depth:\n%s\n%s", l, a)
	}
}

// TestWholeNetworkKindsArePageKinds: every kind that renders on the list buffer sets is a
// page template, so a renamed template cannot silently move its pages back to the small sets.
func TestWholeNetworkKindsArePageKinds(t *testing.T) {
	ts, err := loadTemplates(nil)
	if err != nil {
		t.Fatal(err)
	}
	for kind := range wholeNetwork {
		if ts.pages[kind] == nil {
			t.Errorf("wholeNetwork names %q, which is not a page template", kind)
		}
	}
}

// TestFrameRenderedOncePerDepthAndSection: frame prints what {{template "siteheader"}} and
// {{template "sitefooter"}} print for the page, and renders each once for pages that share
// the link prefix, the section and the navigation match.
func TestFrameRenderedOncePerDepthAndSection(t *testing.T) {
	b := boundBuilder(t, "", "", 0)
	meta := &siteMeta{ObservedAt: "2026-09-02T13:01:00Z", Repository: "https://example.org/r"}
	page := func(path, section string) *Page {
		return &Page{Path: path, Section: section, Meta: meta}
	}
	pages := []*Page{
		page("projects/a/s/index.html", "projects"), page("projects/b/s/index.html", "projects"),
		page("projects/index.html", "projects"), page("updates/x/index.html", "updates"),
		page("origins/o/index.html", "origins"), page("browse/t/index.html", "projects"),
	}
	for _, p := range pages {
		for _, part := range []string{"sitelinks", "siteheader", "sitefooter"} {
			got, err := b.frame(part, p)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := b.tmpl.pages["claim"].ExecuteTemplate(&want, part, p); err != nil {
				t.Fatal(err)
			}
			if string(got) != want.String() {
				t.Errorf("frame(%s, %s) =\n%s\nwant\n%s", part, p.Path, got, want.String())
			}
		}
	}
	// Headers: depth 3 projects; depth 1 projects/index.html (a navigation page); depth 2
	// updates, origins and projects. Links and footers: one per depth.
	if n := len(b.frags.m); n != 5+3+3 {
		t.Errorf("%d frame parts rendered, want 11", n)
	}
	h, _ := b.frame("siteheader", pages[2])
	if htmlcheck.Count(t, htmlcheck.Parse(t, []byte(h)), `a[aria-current="page"]`) != 1 {
		t.Errorf("the project list's header does not mark its own entry as the page:\n%s", h)
	}
}

// TestClaimLinkRenderedOncePerPrefix: claimlink prints what {{template "claimlink"}} prints
// and renders a claim's link once for each link prefix.
func TestClaimLinkRenderedOncePerPrefix(t *testing.T) {
	b := boundBuilder(t, "Site <A>", "Held <b>", 1)
	c := b.N.Claims[0]
	for _, path := range []string{"projects/a/s/index.html", "projects/b/s/index.html", "releases/index.html", "projects/a/s/index.html"} {
		p := &Page{Path: path}
		got, err := b.claimlink(p, c)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		if err := b.tmpl.pages["claim"].ExecuteTemplate(&want, "claimlink", map[string]any{"Page": p, "Claim": c}); err != nil {
			t.Fatal(err)
		}
		if string(got) != want.String() {
			t.Errorf("claimlink on %s =\n%s\nwant\n%s", path, got, want.String())
		}
	}
	if len(b.frags.m) != 2 {
		t.Errorf("%d claim links rendered, want 2 (one per depth)", len(b.frags.m))
	}
}

// boundBuilder is a Site with the embedded templates and this build's functions bound,
// over a state with one site named siteName holding one claim named name with releases
// releases (no site when siteName is "").
func boundBuilder(t *testing.T, siteName, name string, releases int) *Site {
	t.Helper()
	state := t.TempDir()
	f := statetest.In(t, state)
	if siteName != "" {
		site := f.Site("https://a.example/dreamweave.json", siteName)
		var rs []protocol.Release
		for i := 0; i < releases; i++ {
			rs = append(rs, statetest.Release(fmt.Sprintf("1.0.%d", i), "stable", nil))
		}
		f.Claim(site, statetest.Manifest(statetest.ID(1), name, "numeric", rs...))
	}
	n, err := network.Load(store.Open(state), &curation.Curation{})
	if err != nil {
		t.Fatal(err)
	}
	b := &Site{Model: view.NewModel(n)}
	if b.tmpl, err = loadTemplates(nil); err != nil {
		t.Fatal(err)
	}
	b.bindFuncs()
	return b
}
