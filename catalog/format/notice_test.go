package format_test

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	nt "github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

var timeValue = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)?$`)

// timeKeys collects the keys whose values look like dates or times, outside and inside event
// changes separately.
func timeKeys(v any, inChanges bool, own, publisher map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && timeValue.MatchString(s) {
				if inChanges {
					publisher[k] = true
				} else {
					own[k] = true
				}
			}
			timeKeys(e, inChanges || k == "changes", own, publisher)
		}
	case []any:
		for _, e := range x {
			timeKeys(e, inChanges, own, publisher)
		}
	}
}

// TestNoticeKeepsTimesApart: the notice both files carry names every time field this index
// writes (each one found in real output of a state with an event), and says the dates inside an
// event's changes are the publisher's: a release-added change carries the release's date as
// published, which is not when this index looked (SPEC section 4).
func TestNoticeKeepsTimesApart(t *testing.T) {
	s := nt.New(t)
	site := s.Origin("https://one.example.org/dreamweave.json", "https://one.example.org/")
	a := nt.ID(1)
	r1 := nt.Release("1.0.0", "stable", nil)
	r2 := nt.Release("1.1.0", "stable", nil)
	r2.Date = "2019-05-04" // the publisher's date, years before this index looked
	before := s.Claim(site, nt.Manifest(a, "A", "", r1))
	after := s.Claim(site, nt.Manifest(a, "A", "", r1, r2))
	s.Event(store.Event{Kind: store.EventObserved, Project: a, Origin: site, Name: "A", ObservedAt: "2026-10-01T00:00:00Z", After: &before, Changes: []diff.Change{}})
	s.Event(store.Event{Kind: store.EventChanged, Project: a, Origin: site, Name: "A", ObservedAt: nt.Time, Before: &before, After: &after,
		Changes: []diff.Change{{Change: diff.ChangeReleaseAdded, Version: "1.1.0", Channel: "stable", Date: &r2.Date, Status: "available"}}})
	n, err := network.Load(s.Dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	cat, ev := generate(t, n)
	own, publisher := map[string]bool{}, map[string]bool{}
	for _, b := range [][]byte{cat, ev} {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		timeKeys(v, false, own, publisher)
		if notice := v.(map[string]any)["notice"]; notice != format.Notice {
			t.Errorf("notice = %v, want format.Notice", notice)
		}
	}
	if !publisher["date"] || !strings.Contains(string(ev), `"date": "2019-05-04"`) {
		t.Fatalf("the events file should carry the publisher's release date inside changes:\n%s", ev)
	}
	var keys []string
	for k := range own {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("time fields this index writes: %v", keys)
	if len(keys) < 4 {
		t.Fatalf("too few time fields found to check the notice: %v", keys)
	}
	for _, k := range keys {
		if !strings.Contains(format.Notice, k) {
			t.Errorf("the notice does not name the time field %q this index writes", k)
		}
	}
	for _, words := range []string{"when it looked", "values inside an event's changes, such as a release's date, are the publisher's"} {
		if !strings.Contains(format.Notice, words) {
			t.Errorf("the notice does not say %q", words)
		}
	}
	if strings.Contains(format.Notice, "never a publisher's date") {
		t.Error("the notice claims no publisher date appears, but release dates do inside changes")
	}
}

// TestSchemaIDIsWherePublished: the catalog schema's $id is the URL the site publishes it at:
// the output root of the default site (site.DefaultBaseURL) plus format.SchemaPath, the
// reference index's path for it.
func TestSchemaIDIsWherePublished(t *testing.T) {
	b, err := schemas.FS.ReadFile(format.SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		t.Fatal(err)
	}
	const defaultBaseURL = "https://dreamweave-mp.github.io/ashyams-go/" // site.DefaultBaseURL
	if want := defaultBaseURL + format.SchemaPath; head.ID != want {
		t.Errorf("$id = %q, want %q (where the site publishes it)", head.ID, want)
	}
}
