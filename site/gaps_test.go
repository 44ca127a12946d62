package site

import (
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"golang.org/x/net/html"
)

// TestGapsCoverEveryRelease: a requires, in a listed claim's development release only, on an
// id nobody publishes is listed among the gaps page's project ids, and the claim page's note
// links to that section; a withdrawn claim's unresolved requires says the gaps page leaves it
// out, and links nowhere.
// The note links the gap itself, by its id.
func TestGapsCoverEveryRelease(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	m := sampleManifest(uuid(1), "Lantern Lib", 1)
	dev := m.Releases[0]
	dev.Version, dev.Channel = "1.0.1-dev.1", "development"
	dev.Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(9), Name: "Nobody's Library"}}
	m.Releases = append([]protocol.Release{dev}, m.Releases...)
	f.Claim(a, m)
	gone := sampleManifest(uuid(2), "Gone Mod", 1)
	gone.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(8)}}
	f.Claim(a, gone, func(c *store.Claim) { c.Health = store.ClaimWithdrawn })
	_, out := build(t, state, Options{})

	// The list after the heading #projects.
	list := htmlcheck.One(t, parsePage(t, out, "gaps/index.html"), "#projects").NextSibling
	for list != nil && list.Type != html.ElementNode {
		list = list.NextSibling
	}
	if list == nil || list.Data != "ul" || !slices.Contains(htmlcheck.Texts(t, list, "ul > li > code"), uuid(9)) {
		t.Fatalf("the gaps page's project ids do not list %s", uuid(9))
	}
	if got := htmlcheck.Texts(t, list, "li > ul > li"); len(got) != 1 {
		t.Errorf("the gap has %d references, want the development release's: %q", len(got), got)
	}
	htmlcheck.Want(t, list, "li > ul > li", "1.0.1-dev.1")
	claim := parsePage(t, out, paths.Claim(uuid(1), a))
	notes := htmlcheck.All(t, claim, "span.note")
	var linked []string
	for _, n := range notes {
		if htmlcheck.Has(t, n, "span.note", "Nobody in this index publishes the target") {
			for _, l := range htmlcheck.All(t, n, "a") {
				linked = append(linked, htmlcheck.Attr(l, "href"))
			}
		}
	}
	gap := htmlcheck.One(t, list, "ul > li[id]")
	if want := "gaps/index.html#" + htmlcheck.Attr(gap, "id"); len(linked) != 1 || !strings.HasSuffix(linked[0], want) {
		t.Errorf("the development release's requires links %q, want %s", linked, want)
	}
	withdrawn := parsePage(t, out, paths.Claim(uuid(2), a))
	for _, n := range htmlcheck.All(t, withdrawn, "span.note") {
		if htmlcheck.Has(t, n, "span.note", "Nobody in this index publishes the target") {
			htmlcheck.Want(t, n, "span.note", "out of the catalog, so the gaps page leaves it out")
			if htmlcheck.Count(t, n, "a") != 0 {
				t.Errorf("the withdrawn claim's note links: %q", htmlcheck.Text(n))
			}
			return
		}
	}
	t.Error("the withdrawn claim's unresolved requires says nothing")
}
