package site

import (
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
)

// When the last refresh was interrupted (network.json says so), the home page and the health
// page say so, the health page naming each site not read or partly read, linked to its row;
// after a complete refresh neither says anything of it.
func TestBuildSaysTheLastRefreshWasInterrupted(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/mods/dreamweave.json", "Site A")
	b := f.Site("https://b.example/mods/dreamweave.json", "Site B")
	f.Claim(a, sampleManifest(uuid(1), "Project One", 1))
	_, out := build(t, state, Options{})
	for _, rel := range []string{"index.html", "health/index.html"} {
		doc := parsePage(t, out, rel)
		if n := htmlcheck.Count(t, doc, "#interrupted"); n != 0 {
			t.Errorf("%s after a complete refresh has %d interrupt banners", rel, n)
		}
		htmlcheck.Lacks(t, doc, "main", "interrupted")
	}
	f.Write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: statetest.Time,
		Interrupted: &store.Interrupted{At: statetest.Time, Reason: "interrupted by SIGINT", SourcesNotRead: []string{"https://b.example/mods/"},
			SitesNotRead: []string{b}, SitesPartlyRead: []store.PartlyRead{{Site: a, Projects: []string{uuid(1)}}}}})
	_, out = build(t, state, Options{})
	want := "The last refresh was interrupted at "
	for _, rel := range []string{"index.html", "health/index.html"} {
		htmlcheck.Want(t, parsePage(t, out, rel), "#interrupted > p", want, "(interrupted by SIGINT): 1 source and 1 site not read, 1 site partly read.")
	}
	healthDoc := parsePage(t, out, "health/index.html")
	for _, w := range []struct{ say, site string }{{"Not read: ", b}, {"Partly read: " + a + ", 1 claim not read", a}} {
		found := false
		for _, l := range htmlcheck.All(t, healthDoc, `main a[href="#site-`+w.site+`"]`) {
			found = found || l.Parent.Data == "li" && htmlcheck.Has(t, l.Parent, "li", w.say)
		}
		if !found {
			t.Errorf("the health page has no line %q linking #site-%s", w.say, w.site)
		}
	}
	// A refresh killed before it could record anything says that.
	f.Write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: statetest.Time,
		Interrupted: &store.Interrupted{At: statetest.Time, Unknown: true, Reason: "did not finish", SourcesNotRead: []string{}, SitesNotRead: []string{}, SitesPartlyRead: []store.PartlyRead{}}})
	_, out = build(t, state, Options{})
	htmlcheck.Want(t, parsePage(t, out, "index.html"), "#interrupted > p", "The last refresh was interrupted: it stopped before it could record why or what it read.")
}
