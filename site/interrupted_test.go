package site

import (
	"strings"
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
		if p := page(t, out, rel); strings.Contains(p, "interrupted") {
			t.Errorf("%s after a complete refresh mentions an interrupt:\n%s", rel, p)
		}
	}
	f.Write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: statetest.Time,
		Interrupted: &store.Interrupted{At: statetest.Time, Reason: "interrupted by SIGINT", SourcesNotRead: []string{"https://b.example/mods/"},
			SitesNotRead: []string{b}, SitesPartlyRead: []store.PartlyRead{{Site: a, Projects: []string{uuid(1)}}}}})
	_, out = build(t, state, Options{})
	want := "The last refresh was interrupted at "
	home, health := page(t, out, "index.html"), page(t, out, "health/index.html")
	for rel, p := range map[string]string{"index.html": home, "health/index.html": health} {
		if !strings.Contains(p, want) || !strings.Contains(p, "(interrupted by SIGINT): 1 source and 1 site not read, 1 site partly read.") {
			t.Errorf("%s does not say the last refresh was interrupted:\n%s", rel, p)
		}
	}
	healthDoc := parsePage(t, out, "health/index.html")
	for _, w := range []struct{ say, site string }{{"Not read: ", b}, {"Partly read: " + a + ", 1 claim not read", a}} {
		found := false
		for _, l := range htmlcheck.All(t, healthDoc, `main a[href="#site-`+w.site+`"]`) {
			found = found || strings.Contains(htmlcheck.Text(l.Parent), w.say)
		}
		if !found {
			t.Errorf("the health page has no line %q linking #site-%s", w.say, w.site)
		}
	}
	// A refresh killed before it could record anything says that.
	f.Write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: statetest.Time,
		Interrupted: &store.Interrupted{At: statetest.Time, Unknown: true, Reason: "did not finish", SourcesNotRead: []string{}, SitesNotRead: []string{}, SitesPartlyRead: []store.PartlyRead{}}})
	_, out = build(t, state, Options{})
	if p := page(t, out, "index.html"); !strings.Contains(p, "The last refresh was interrupted: it stopped before it could record why or what it read.") {
		t.Errorf("home page:\n%s", p)
	}
}
