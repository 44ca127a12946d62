package network_test

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	nt "github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// digest is a made-up manifest digest for a manifest the test does not need on disk.
func digest(c byte) *string { d := strings.Repeat(string(c), 64); return &d }

func added(v string) diff.Change {
	date := "2019-01-01"
	return diff.Change{Change: diff.ChangeReleaseAdded, Version: v, Channel: "stable", Date: &date, Status: "available"}
}
func removed(v string) diff.Change {
	return diff.Change{Change: diff.ChangeReleaseRemoved, Version: v, Channel: "stable"}
}

// firstSeen returns each held release's FirstSeen by version, checking FirstSeenEvent agrees.
func firstSeen(t *testing.T, c *network.Claim) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range c.Releases {
		if (r.FirstSeen == "") != (r.FirstSeenEvent == nil) || (r.FirstSeenEvent != nil && r.FirstSeenEvent.ObservedAt != r.FirstSeen) {
			t.Fatalf("release %s: FirstSeen %q and FirstSeenEvent %+v disagree", r.Version, r.FirstSeen, r.FirstSeenEvent)
		}
		out[r.Version] = r.FirstSeen
	}
	return out
}

const (
	t1 = "2026-01-01T00:00:00Z"
	t2 = "2026-02-01T00:00:00Z"
	t3 = "2026-03-01T00:00:00Z"
	t4 = "2026-04-01T00:00:00Z"
)

// TestFirstSeen: when this index first saw each release of a claim, from the claim's events,
// kept apart from the publisher's date; "" whenever the recorded history does not connect far
// enough to tell.
func TestFirstSeen(t *testing.T) {
	held := nt.Manifest(idA, "A", "", stable("1.0.0", nil), stable("1.1.0", nil), stable("1.2.0", nil))
	type ev struct {
		kind          string
		at            string
		before, after *string
		changes       []diff.Change
	}
	for _, tc := range []struct {
		name   string
		events func(final *string) []ev
		want   map[string]string
	}{
		{"observed, then each later release added", func(final *string) []ev {
			return []ev{
				{store.EventObserved, t1, nil, digest('1'), nil},
				{store.EventChanged, t2, digest('1'), digest('2'), []diff.Change{added("1.1.0")}},
				{store.EventChanged, t3, digest('2'), final, []diff.Change{added("1.2.0")}},
			}
		}, map[string]string{"1.0.0": t1, "1.1.0": t2, "1.2.0": t3}},
		{"everything there at the first observation", func(final *string) []ev {
			return []ev{{store.EventObserved, t1, nil, final, nil}}
		}, map[string]string{"1.0.0": t1, "1.1.0": t1, "1.2.0": t1}},
		{"withdrawn and restored without a new manifest do not break the history", func(final *string) []ev {
			return []ev{
				{store.EventObserved, t1, nil, digest('1'), nil},
				{store.EventWithdrawn, t2, digest('1'), nil, nil},
				{store.EventRestored, t3, digest('1'), digest('1'), nil},
				{store.EventChanged, t4, digest('1'), final, []diff.Change{added("1.2.0")}},
			}
		}, map[string]string{"1.0.0": t1, "1.1.0": t1, "1.2.0": t4}},
		{"removed then added again: first seen at the first observation", func(final *string) []ev {
			return []ev{
				{store.EventObserved, t1, nil, digest('1'), nil},
				{store.EventChanged, t2, digest('1'), digest('2'), []diff.Change{removed("1.1.0")}},
				{store.EventChanged, t3, digest('2'), final, []diff.Change{added("1.1.0"), added("1.2.0")}},
			}
		}, map[string]string{"1.0.0": t1, "1.1.0": t1, "1.2.0": t3}},
		{"a gap in the digests: additions before it stand, the rest is not recorded", func(final *string) []ev {
			return []ev{
				{store.EventObserved, t1, nil, digest('1'), nil},
				{store.EventChanged, t2, digest('1'), digest('2'), []diff.Change{added("1.1.0")}},
				{store.EventChanged, t3, digest('9'), final, []diff.Change{added("1.2.0")}}, // starts from an unrecorded manifest
			}
		}, map[string]string{"1.0.0": "", "1.1.0": t2, "1.2.0": ""}},
		{"the history ends before the held manifest", func(final *string) []ev {
			return []ev{
				{store.EventObserved, t1, nil, digest('1'), nil},
				{store.EventChanged, t2, digest('1'), digest('2'), []diff.Change{added("1.2.0")}},
			}
		}, map[string]string{"1.0.0": "", "1.1.0": "", "1.2.0": t2}},
		{"a replacement recorded without differences stops the history", func(final *string) []ev {
			return []ev{
				{store.EventObserved, t1, nil, digest('1'), nil},
				{store.EventChanged, t2, digest('1'), digest('2'), nil},
				{store.EventChanged, t3, digest('2'), final, []diff.Change{added("1.2.0")}},
			}
		}, map[string]string{"1.0.0": "", "1.1.0": "", "1.2.0": ""}},
		{"no observed event: nothing recorded", func(final *string) []ev {
			return []ev{{store.EventChanged, t2, digest('1'), final, []diff.Change{added("1.2.0")}}}
		}, map[string]string{"1.0.0": "", "1.1.0": "", "1.2.0": ""}},
		{"no events at all", func(*string) []ev { return nil }, map[string]string{"1.0.0": "", "1.1.0": "", "1.2.0": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := nt.New(t)
			one := s.Origin(urlOne)
			final := s.Claim(one, held)
			for _, e := range tc.events(&final) {
				ch := e.changes
				if ch == nil {
					ch = []diff.Change{}
				}
				s.Event(store.Event{Kind: e.kind, Project: idA, Origin: one, Name: "A", ObservedAt: e.at, Before: e.before, After: e.after, Changes: ch})
			}
			c := build(t, s, nil).Claim(idA, one)
			got := firstSeen(t, c)
			for v, w := range tc.want {
				if got[v] != w {
					t.Errorf("release %s first seen %q, want %q", v, got[v], w)
				}
			}
			for _, r := range c.Releases {
				if r.FirstSeen == r.Date {
					t.Errorf("release %s: first seen equals the publisher's date %q", r.Version, r.Date)
				}
			}
		})
	}
}

// TestFirstSeenEventIsTheClaims: FirstSeenEvent points at the claim's own event (one of
// Claim.Events), so a page can link to it; another claim's events never count.
func TestFirstSeenEventIsTheClaims(t *testing.T) {
	s := nt.New(t)
	one, two := s.Origin(urlOne), s.Origin(urlTwo)
	d1 := s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil)))
	d2 := s.Claim(two, nt.Manifest(idA, "A", "", stable("1.0.0", nil)))
	s.Event(store.Event{Kind: store.EventObserved, Project: idA, Origin: one, Name: "A", ObservedAt: t1, After: &d1, Changes: []diff.Change{}})
	s.Event(store.Event{Kind: store.EventObserved, Project: idA, Origin: two, Name: "A", ObservedAt: t3, After: &d2, Changes: []diff.Change{}})
	n := build(t, s, nil)
	for site, at := range map[string]string{one: t1, two: t3} {
		c := n.Claim(idA, site)
		r := c.Releases[0]
		if r.FirstSeen != at || len(c.Events) != 1 || r.FirstSeenEvent != c.Events[0] {
			t.Errorf("%s: first seen %q (event %p), want %q (event %p)", site, r.FirstSeen, r.FirstSeenEvent, at, c.Events[0])
		}
	}
}
