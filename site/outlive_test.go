package site

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
)

// Events outlive their claims and sites: a refresh removes a site no enrolled source leads to,
// and the site a move left, and keeps their events. Such a state builds, and the event's page
// is there with the project's name as recorded.
func TestBuildKeepsEventsOfRemovedSites(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	f.Claim(site, sampleManifest(uuid(1), "One", 2))
	gone, moved := "gone-example-00000000", "moved-example-11111111"
	after := strings.Repeat("a", 64)
	e := store.Event{Kind: store.EventObserved, Project: uuid(7), Origin: gone, Name: "Seven", ObservedAt: statetest.Time, After: &after, Changes: []diff.Change{}}
	f.Event(e)
	m := store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: site, Name: "One", ObservedAt: statetest.Time, Before: &after, After: &after, MovedFrom: &moved, Changes: []diff.Change{}}
	f.Event(m)
	_, out := build(t, state, Options{})
	id := store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
	htmlcheck.Want(t, parsePage(t, out, "updates/"+id+"/index.html"), "h1", "Seven")
}
