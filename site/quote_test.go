package site

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// TestUpdatesAtOneTimeByName: the updates one refresh records (one observed_at) are listed by
// claim name, case-folded, not by event id; newer refreshes still come first.
func TestUpdatesAtOneTimeByName(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	names := []string{"Zeta Lamp", "alpha lamp", "Mid Lamp", "beta Lamp"}
	for i, name := range names {
		f.Claim(site, sampleManifest(uuid(i), name, 1))
		f.Event(store.Event{Kind: store.EventObserved, Project: uuid(i), Origin: site, Name: name, ObservedAt: statetest.Time,
			After: ptr(sha([]byte(name))), Changes: []diff.Change{}})
	}
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(0), Origin: site, Name: "Zeta Lamp", ObservedAt: "2026-10-11T00:00:00Z",
		Before: ptr(sha([]byte("Zeta Lamp"))), After: ptr(sha([]byte("later"))), Changes: []diff.Change{}})
	_, out := build(t, state, Options{})
	text := page(t, out, "updates/index.html")
	last := -1
	for _, want := range []string{"2026-10-11", "alpha lamp", "beta Lamp", "Mid Lamp", "Zeta Lamp"} {
		i := strings.Index(text[last+1:], want)
		if i < 0 {
			t.Fatalf("the updates page does not list %q after position %d: %q", want, last, text)
		}
		last += 1 + i
	}
}
