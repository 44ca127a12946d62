package site

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// TestClaimTextAgrees: a current claim whose manifest lists no releases says exactly that and
// nothing about manifests failing checks; a claim that never held a manifest, whose recorded
// problem ends "the last good manifest is kept", never says so on its page, the health page or
// the project list, and the project list gives its real reason (the health and the problem).
func TestClaimTextAgrees(t *testing.T) {
	state := t.TempDir()
	f := newFakeState(t, state)
	site := f.origin("https://a.example/dreamweave.json", "Site A")
	empty := uuid(1)
	f.claim(site, sampleManifest(empty, "Empty Shelf", 0), nil)
	f.claim(site, sampleManifest(uuid(2), "Full Shelf", 1), nil)
	never := uuid(3)
	kept := "the manifest served at https://a.example/never.json hashes to " + strings.Repeat("a", 64) +
		", but the site index advertises " + strings.Repeat("b", 64) + " (read 3 times); the last good manifest is kept"
	f.write(store.ClaimPath(never, site), store.Claim{Project: never, Origin: site,
		Entry:            protocol.IndexEntry{ID: never, Name: "Half Deployed", Type: "mod", Status: "active", Manifest: "https://a.example/never.json", ManifestSHA256: strings.Repeat("b", 64), Channels: map[string]string{}},
		AdvertisedSHA256: strings.Repeat("b", 64), Health: store.ClaimInconsistent, Problem: ptr(kept),
		FirstObserved: fakeTime, LastAttempt: fakeTime})
	_, out := build(t, state, Options{})

	emptyText := page(t, out, claimPath(empty, site))
	if !strings.Contains(emptyText, "The manifest lists no releases.") {
		t.Errorf("the claim whose manifest lists no releases does not say so: %q", emptyText)
	}
	for _, w := range []string{"passed every check", "no channel has"} {
		if strings.Contains(emptyText, w) {
			t.Errorf("the current claim with no releases says %q", w)
		}
	}

	neverText := page(t, out, claimPath(never, site))
	for _, p := range []string{claimPath(never, site), "health/index.html", "projects/index.html"} {
		text := page(t, out, p)
		for _, w := range []string{"last good manifest is kept", "last good data kept"} {
			if strings.Contains(text, w) {
				t.Errorf("%s says %q of a claim that never held a manifest", p, w)
			}
		}
	}
	if !strings.Contains(neverText, "no earlier manifest from this site passed every check, so nothing is kept") {
		t.Errorf("the never-accepted claim's page does not say nothing is kept: %q", neverText)
	}
	list := page(t, out, "projects/index.html")
	i := strings.Index(list, "Half Deployed")
	if i < 0 {
		t.Fatal("the project list does not name the claim out of the catalog")
	}
	line := list[i:]
	if j := strings.Index(line, "\n"); j >= 0 {
		line = line[:j]
	}
	for _, w := range []string{"no manifest from this site has passed every check yet", "Inconsistent deployment", "hashes to"} {
		if !strings.Contains(line, w) {
			t.Errorf("the project list's line for the claim does not say %q: %q", w, line)
		}
	}
}
