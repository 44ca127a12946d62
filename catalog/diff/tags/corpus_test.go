package tags_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// eventWant is an event's tags and headline.
type eventWant struct {
	tags     []string
	headline string
}

// TestEvents: the events a refresh of generated sites records, and with ../shared the
// reference index's 15 recorded events (recorded before this index existed), get these exact
// tags and headlines.
func TestEvents(t *testing.T) {
	gen := map[string]eventWant{}
	for _, e := range generatedEvents(t) {
		gen[e.Name+" "+e.Kind] = eventWant{tags.Tags(e), tags.Headline(e)}
	}
	wantGen := map[string]eventWant{
		"Tallow observed":      {[]string{"observed"}, "Tallow: first observed"},
		"Candlelight observed": {[]string{"observed"}, "Candlelight: first observed"},
		"Tallow changed":       {[]string{"artifacts", "development"}, "Tallow: 1.0.1-dev.0 (development) re-dated, amended"},
		"Candlelight changed": {[]string{"release", "breaking", "dependencies", "metadata"},
			"Candlelight: stable 1.1.0 -> 1.2.0; 1.2.0 (stable) notes list breaking changes; license changed"},
	}
	if !reflect.DeepEqual(gen, wantGen) {
		t.Errorf("generated events:\n got %q\nwant %q", gen, wantGen)
	}
	if root, ok := corpustest.Optional(t, "state"); ok {
		corpusEvents(t, root)
	}
}

// corpusEvents checks the tags and headlines of the reference's events in the state at root.
func corpusEvents(t *testing.T, root string) {
	snap, err := store.Open(root).Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]eventWant{
		"065dd09c24567a10fc27": {[]string{"observed"}, "Candlelight: first observed"},
		"ae74e654ced04888c55e": {[]string{"observed"}, "Tallow: first observed"},
		"069c44fd5f819054352d": {[]string{"observed"}, "Hawk3ye: first observed"},
		"08c1f6147a0d911ac3e4": {[]string{"observed"}, "CHIM Climbing: first observed"},
		"0d283cd53202ed11a7d4": {[]string{"observed"}, "Visual Soul Gems: first observed"},
		"096dd134a10ca1b30c69": {[]string{"development"}, "Starwind PVP: 0.2-dev.4 (development) re-dated, amended"},
		"11d3e334e1865ca9a24f": {[]string{"development"}, "FlexTag: 1.0.2-dev.3 (development) re-dated, amended"},
		"7f4afd9313ae6fb2330a": {[]string{"artifacts", "development"}, "S3LightFixes: 0.4.61-dev.3 (development) re-dated, amended"},
		"22bed3a15b6baddaf67c": {[]string{"release", "breaking", "metadata"},
			"Greenmote: development 0.3.1-dev.1 -> 0.4.1-dev.0; stable 0.3.0 -> 0.4.0; 0.4.0 (stable) notes list breaking changes; license changed"},
		"30519cfae1de38a39b39": {[]string{"release"}, "openmw-config: stable 3.0.1 -> 3.0.2"},
		"4c906cd0ac06060bebd9": {[]string{"release", "metadata"}, "dream_archive: stable 1.0.0 -> 1.1.0; license changed"},
		"73175697740b94ad91c4": {[]string{"release", "metadata"}, "dream_archivetool: development 1.0.1-dev.0 -> 1.1.1-dev.0; stable 1.0.0 -> 1.1.0; license changed"},
		"24dde8c981a08d975d79": {[]string{"release", "dependencies"}, "l3i: stable 1.1.0 -> 1.2.0"},
		"767d10a092ad848b703c": {[]string{"release"}, "l3i: stable 1.2.0 -> 1.3.0"},
		"5e4db1bcc78eaf6b2a3f": {[]string{"release"}, "l3i: stable 1.3.0 -> 1.3.1"},
	}
	if len(snap.Events) != len(want) {
		t.Fatalf("corpus has %d events, want %d", len(snap.Events), len(want))
	}
	for _, e := range snap.Events {
		w, ok := want[e.ID]
		if !ok {
			t.Errorf("unexpected event %s", e.ID)
			continue
		}
		if got := tags.Tags(e); !reflect.DeepEqual(got, w.tags) {
			t.Errorf("%s (%s): Tags = %q, want %q", e.ID, e.Name, got, w.tags)
		}
		if got := tags.Headline(e); got != w.headline {
			t.Errorf("%s: Headline =\n  %q\nwant\n  %q", e.ID, got, w.headline)
		}
	}
}

// TestLinesOfEvent: a moved head's event reads as before -> after lines, nested facts indented
// under the moved head: Candlelight's generated one, and with ../shared the reference's l3i 1.2.0.
func TestLinesOfEvent(t *testing.T) {
	var got []string
	for _, e := range generatedEvents(t) {
		if e.Name == "Candlelight" && e.Kind == store.EventChanged {
			got = diff.Lines(e.Changes)
		}
	}
	want := []string{
		"license (none) -> MIT",
		"stable 1.1.0 -> 1.2.0",
		"  requires Tallow >=1.0 -> >=1.1",
		"  artifact flat size 1001 -> 2048 bytes",
		"+ release 1.2.0 (stable, 2026-10-01)",
		"  breaking: The flames group is exactly-one.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	root, ok := corpustest.Optional(t, "state")
	if !ok {
		return
	}
	snap, err := store.Open(root).Load()
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, e := range snap.Events {
		if e.ID == "24dde8c981a08d975d79" {
			got = diff.Lines(e.Changes)
		}
	}
	want = []string{
		"stable 1.1.0 -> 1.2.0",
		"  requires dream-net =1.0.0 -> =1.1.0",
		"  artifact crate size 1771181 -> 1803998 bytes",
		"+ release 1.2.0 (stable, 2026-09-30)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func ptr(s string) *string { return &s }

// TestEventKinds: tags and headlines that come from the event's kind and moved_from.
func TestEventKinds(t *testing.T) {
	cases := []struct {
		e        store.Event
		tags     []string
		headline string
	}{
		{store.Event{Kind: store.EventWithdrawn, Name: "Tallow", Changes: []diff.Change{}}, []string{"listing"},
			"Tallow: withdrawn: no longer listed by its site's index, or the site is no longer read"},
		{store.Event{Kind: store.EventRestored, Name: "Tallow", Changes: []diff.Change{}}, []string{"listing"},
			"Tallow: restored: back in the catalog, listed by its site's index"},
		{store.Event{Kind: store.EventObserved, Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", MovedFrom: ptr("old-site-12345678"), Changes: []diff.Change{}},
			[]string{"observed", "moved"}, "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14 (moved from old-site-12345678): first observed"},
		{store.Event{Kind: store.EventChanged, Name: "Tallow", Changes: []diff.Change{}}, []string{},
			"Tallow: manifest changed, no structural difference"},
	}
	for _, c := range cases {
		if got := tags.Tags(c.e); !reflect.DeepEqual(got, c.tags) {
			t.Errorf("%s: Tags = %q, want %q", c.e.Kind, got, c.tags)
		}
		if got := tags.Headline(c.e); got != c.headline {
			t.Errorf("%s: Headline = %q, want %q", c.e.Kind, got, c.headline)
		}
	}
}

// TestAnomalyRecomputed: events store no unusual flag (the reference's vocabulary has none);
// the unusual facts are recognised from the changes, tagged anomaly and headlined first.
func TestAnomalyRecomputed(t *testing.T) {
	raw := func(s string) []byte { return []byte(s) }
	cases := []struct {
		name     string
		changes  []diff.Change
		headline string
	}{
		{"stable release vanished", []diff.Change{
			{Change: diff.ChangeReleaseAdded, Version: "1.1.0", Channel: "stable", Notes: raw("null")},
			{Change: diff.ChangeReleaseRemoved, Version: "1.0.0", Channel: "stable"}},
			"X: unusual: release 1.0.0 (stable) vanished; 1.1.0 (stable) added"},
		{"stable digest amended", []diff.Change{{Change: diff.ChangeReleaseAmended, Version: "1.0.0", Channel: "stable",
			Changes: []diff.Change{{Change: diff.ChangeArtifactDigest, Artifact: "flat", Before: raw(`"aa"`), After: raw(`"bb"`)}}}},
			"X: unusual: artifact digest changed under 1.0.0 (stable); 1.0.0 (stable) amended"},
		{"scheme changed", []diff.Change{{Change: diff.ChangeProjectField, Field: "versioning", Before: raw(`"numeric"`), After: raw(`"decimal"`)}},
			"X: unusual: versioning numeric -> decimal"},
	}
	for _, c := range cases {
		e := store.Event{Kind: store.EventChanged, Name: "X", Changes: c.changes}
		got := tags.Tags(e)
		if !contains(got, tags.Anomaly) {
			t.Errorf("%s: Tags = %q, want anomaly among them", c.name, got)
		}
		if h := tags.Headline(e); h != c.headline {
			t.Errorf("%s: Headline = %q, want %q", c.name, h, c.headline)
		}
	}
	// the same facts inside development are routine: a build replaced by the next, and new
	// bytes under a development version
	dev := store.Event{Kind: store.EventChanged, Changes: []diff.Change{
		{Change: diff.ChangeReleaseAdded, Version: "1.0.1-dev.1", Channel: "development", Status: "available", Notes: raw("null")},
		{Change: diff.ChangeReleaseRemoved, Version: "1.0.1-dev.0", Channel: "development"},
		{Change: diff.ChangeReleaseAmended, Version: "1.0.2-dev.0", Channel: "development",
			Changes: []diff.Change{{Change: diff.ChangeArtifactDigest, Artifact: "flat", Before: raw(`"aa"`), After: raw(`"bb"`)}}}}}
	if got := tags.Tags(dev); contains(got, tags.Anomaly) || !contains(got, tags.Development) {
		t.Errorf("development rebuild: Tags = %q, want development and no anomaly", got)
	}
	// a development build vanishing with nothing in its place is not
	dev.Changes = dev.Changes[1:]
	if got := tags.Tags(dev); !contains(got, tags.Anomaly) {
		t.Errorf("development build vanished: Tags = %q, want anomaly", got)
	}
}

func TestHeadlineCapsPhrases(t *testing.T) {
	var cs []diff.Change
	for _, v := range []string{"1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.0.5", "1.0.6"} {
		cs = append(cs, diff.Change{Change: diff.ChangeReleaseAdded, Version: v, Channel: "stable", Notes: []byte("null")})
	}
	got := tags.Headline(store.Event{Kind: store.EventChanged, Name: "X", Changes: cs})
	want := "X: 1.0.1 (stable) added; 1.0.2 (stable) added; 1.0.3 (stable) added; 1.0.4 (stable) added; and 2 more"
	if got != want {
		t.Errorf("Headline = %q, want %q", got, want)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// TestEventIDsStable: an event's id is a hash of fixed facts (store.EventID: kind, project,
// site, digests), so it is the same on every run and machine, and it is the reference index's
// formula, so every event a refresh records, and with ../shared every corpus event, recomputes
// to its own id (two spelled out here on fixed facts and two corpus ones, each pair one with
// both digests and one with before null).
func TestEventIDsStable(t *testing.T) {
	eventIDs(t, generatedEvents(t), nil)
	// the formula on fixed facts, pinned where the corpus's events are absent
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	for _, c := range []struct {
		kind   string
		before *string
		want   string
	}{{store.EventChanged, &a, "53a380dadb8a5de4f62e"}, {store.EventObserved, nil, "cf5d4f9f5e547ade34c5"}} {
		if id := store.EventID(c.kind, corpustest.TallowID, "mods-12345678", c.before, &b); id != c.want {
			t.Errorf("%s: EventID = %s, want %s", c.kind, id, c.want)
		}
	}
	if root, ok := corpustest.Optional(t, "state"); ok {
		snap, err := store.Open(root).Load()
		if err != nil {
			t.Fatal(err)
		}
		eventIDs(t, snap.Events, map[string]string{
			"22bed3a15b6baddaf67c": "22bed3a15b6baddaf67c", // changed, both digests
			"065dd09c24567a10fc27": "065dd09c24567a10fc27", // observed, before null
		})
	}
}

// eventIDs checks that each event's id recomputes from its facts, twice alike, as want says
// where it names the event, and that no two events share one.
func eventIDs(t *testing.T, events []store.Event, want map[string]string) {
	t.Helper()
	seen := map[string]string{}
	for _, e := range events {
		id := store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
		if again := store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After); again != id {
			t.Errorf("%s: EventID not stable: %s then %s", e.ID, id, again)
		}
		if w, ok := want[e.ID]; (ok && id != w) || id != e.ID {
			t.Errorf("%s: EventID = %s", e.ID, id)
		}
		if other, dup := seen[id]; dup {
			t.Errorf("events %s and %s get the same id %s", other, e.ID, id)
		}
		seen[id] = e.ID
	}
}

// TestWithdrawnHeadlineStatesNoCause: the refresh withdraws a claim both when
// its site's index stops listing the project and when this index stops reading the site (its
// [[source]] left sources.toml, or now leads to a site that does not list the project). The two
// events are identical, so the headline must be true of both: it names both causes and never
// says only that the site's index stopped listing the project.
func TestWithdrawnHeadlineStatesNoCause(t *testing.T) {
	after := strings.Repeat("b", 64)
	for _, e := range []store.Event{
		// the site's index stopped listing Tallow
		{Kind: store.EventWithdrawn, Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Origin: "site-a-12345678", Name: "Tallow", Before: &after, Changes: []diff.Change{}},
		// the [[source]] leading to site-b left sources.toml: the same event
		{Kind: store.EventWithdrawn, Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Origin: "site-b-87654321", Name: "Tallow", Before: &after, Changes: []diff.Change{}},
	} {
		h := tags.Headline(e)
		rest := strings.TrimPrefix(h, "Tallow: ")
		if rest == "no longer listed by its site's index" || !strings.Contains(rest, "withdrawn") {
			t.Errorf("%s: headline %q states a cause the event does not record", e.Origin, h)
		}
		for _, cause := range []string{"no longer listed by its site's index", "the site is no longer read"} {
			if !strings.Contains(rest, cause) {
				t.Errorf("%s: headline %q leaves out the cause %q", e.Origin, h, cause)
			}
		}
	}
	r := tags.Headline(store.Event{Kind: store.EventRestored, Name: "Tallow", Changes: []diff.Change{}})
	if strings.Contains(r, "again by") || strings.Contains(r, "listed again") {
		t.Errorf("restored headline %q says the site's index had stopped listing the project", r)
	}
}

// TestSummaryIsHeadlineWithoutName: Summary says what Headline says after "<name>: ", and a
// moved claim's summary starts with where it moved from (Headline puts that beside the name).
func TestSummaryIsHeadlineWithoutName(t *testing.T) {
	from := "old-example-org-12345678"
	for _, c := range []struct {
		e    store.Event
		want string
	}{
		{store.Event{Kind: store.EventObserved, Name: "Candlelight"}, "first observed"},
		{store.Event{Kind: store.EventObserved, Project: "p"}, "first observed"},
		{store.Event{Kind: store.EventObserved, Name: "Tallow", MovedFrom: &from}, "moved from " + from + "; first observed"},
		{store.Event{Kind: store.EventWithdrawn, Name: "Tallow"}, tags.WithdrawnPhrase},
	} {
		if got := tags.Summary(c.e); got != c.want {
			t.Errorf("Summary(%+v) = %q, want %q", c.e, got, c.want)
		}
		if c.e.MovedFrom == nil {
			name := c.e.Name
			if name == "" {
				name = c.e.Project
			}
			if h := tags.Headline(c.e); h != name+": "+tags.Summary(c.e) {
				t.Errorf("Headline %q is not %q: Summary %q", h, name, tags.Summary(c.e))
			}
		}
	}
}
