package store

import (
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// A small sound state built in the test, so that the layout, leftover and reference tests run
// without ../shared: one source leading to one site with one claim and its observed event.
const (
	tinySourceURL = "https://mods.example/site/"
	tinyIndexURL  = "https://mods.example/site/dreamweave.json"
	tinyProject   = "11111111-2222-4333-8444-555555555555"
	tinyNow       = "2026-10-10T12:00:00Z"
)

var (
	tinySite   = SiteID(tinyIndexURL)
	tinySource = SourceID(tinySourceURL)
	tinyIndex  = []byte(`{"schema_version":2,"document":"index","projects":[]}` + "\n")
	// tinyMan is a valid project manifest (Check holds it to the protocol's schema).
	tinyMan = []byte(`{"schema_version":"2","document":"project","generator":"test","project":{"id":"` + tinyProject + `","name":"Tiny","summary":"A tiny project.","type":"mod","status":"active","versioning":"numeric","game":"morrowind","license":"MIT","tags":[],"maintainers":[],"links":{"page":"https://mods.example/site/tiny/","source":"https://mods.example/src/tiny","issues":"https://mods.example/src/tiny/issues"},"integrations":{},"media":[],"credits":[]},"channels":{"stable":{"version":"1.0.0"}},"releases":[{"version":"1.0.0","channel":"stable","date":"2026-09-01","status":"available","source":{"repository":"https://mods.example/src/tiny"},"runtimes":{},"platforms":[],"provides":[],"relationships":[],"components":[{"id":"main","name":"Main","path":".","required":true,"default":true,"requires":[],"conflicts":[],"suggested_with":[]}],"groups":[],"extensions":{},"critical_extensions":[],"artifacts":[{"id":"main","format":"flat","filename":"tiny-1.0.0.zip","media_type":"application/zip","size":1,"digests":{"sha256":"0000000000000000000000000000000000000000000000000000000000000000"},"sources":[{"url":"https://mods.example/dl/tiny.zip","kind":"publisher"}],"signatures":[]}]}]}` + "\n")
)

func tinyState(t testing.TB) *Dir {
	t.Helper()
	d := Open(t.TempDir())
	now := tinyNow
	site, idxSum, manSum := tinySite, Digest(tinyIndex), Digest(tinyMan)
	mustTB(t, d.WriteBytes(OriginIndexPath(site), tinyIndex))
	mustTB(t, d.WriteBytes(ManifestPath(tinyProject, site), tinyMan))
	mustTB(t, d.WriteJSON(NetworkFile, Network{Format: Format, Crawler: "AsHyAmS/0.1.0", ObservedAt: now}))
	method := "walked up to dreamweave.json"
	mustTB(t, d.WriteJSON(SourcePath(tinySource), Source{
		URL: tinySourceURL, Origin: &site, Health: SourceResolved, Method: &method,
		Trail: []TrailStep{
			{URL: tinySourceURL, Outcome: "an HTML page with no DreamWeave <link>"},
			{URL: tinyIndexURL, Outcome: "a DreamWeave site index"},
		},
		LastAttempt: now, LastSuccess: &now,
	}))
	mustTB(t, d.WriteJSON(OriginPath(site), Origin{
		ID: site, IndexURL: tinyIndexURL, Sources: []string{tinySourceURL}, Redirects: []string{},
		IndexSHA256: &idxSum, Health: OriginHealthy, Issues: []string{}, Previous: []Move{},
		FirstObserved: now, LastAttempt: now, LastSuccess: &now,
	}))
	mustTB(t, d.WriteJSON(ClaimPath(tinyProject, site), Claim{
		Project: tinyProject, Origin: site,
		Entry: protocol.IndexEntry{ID: tinyProject, Name: "Tiny", ManifestSHA256: manSum,
			Page: "https://mods.example/site/tiny/", Manifest: "https://mods.example/site/tiny.json"},
		AdvertisedSHA256: manSum, IngestedSHA256: &manSum, Health: ClaimCurrent,
		FirstObserved: now, LastChanged: &now, LastAttempt: now, LastSuccess: &now,
	}))
	e := Event{Kind: EventObserved, Project: tinyProject, Origin: site, Name: "Tiny", ObservedAt: now, After: &manSum}
	e.ID = EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
	if _, err := d.WriteEvent(e); err != nil {
		t.Fatal(err)
	}
	if ps := d.Check(); len(ps) != 0 {
		t.Fatalf("the tiny state is not sound: %v", ps)
	}
	return d
}

func mustTB(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
