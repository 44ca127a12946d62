package store

import (
	"fmt"
	"strings"
	"testing"
)

// TestLastRefreshEvents: each event kind at network.json's time is set aside exactly when the
// last refresh's records contradict it.
func TestLastRefreshEvents(t *testing.T) {
	d1, d2 := strings.Repeat("1", 64), strings.Repeat("2", 64)
	at := "2026-10-11T06:00:00Z"
	s := &Snapshot{
		Network: &Network{ObservedAt: at, HealthChanges: []HealthChange{
			{Project: "p-obs", Origin: "s", After: ClaimCurrent},
			{Project: "p-wd", Origin: "s", Before: ClaimCurrent, After: ClaimWithdrawn},
			{Project: "p-rs", Origin: "s", Before: ClaimWithdrawn, After: ClaimCurrent},
		}},
		Claims: []ClaimRecord{{Claim: Claim{Project: "p-ch", Origin: "s", IngestedSHA256: &d2}}, {Claim: Claim{Project: "p-old", Origin: "s", IngestedSHA256: &d2}}},
	}
	ev := func(kind, project string, before, after *string) Event {
		return Event{Kind: kind, Project: project, Origin: "s", ObservedAt: at, Before: before, After: after}
	}
	keep := []Event{
		ev(EventObserved, "p-obs", nil, &d1),
		ev(EventWithdrawn, "p-wd", &d1, nil),
		ev(EventRestored, "p-rs", &d1, &d1),
		ev(EventChanged, "p-ch", &d1, &d2),   // the claim holds its after digest
		ev(EventChanged, "p-gone", &d1, &d2), // no claim record contradicts it
	}
	drop := []Event{
		ev(EventObserved, "p-wd", nil, &d1),   // health changed to withdrawn, not current
		ev(EventWithdrawn, "p-obs", &d1, nil), // health changed to current
		ev(EventRestored, "p-none", &d1, &d1), // no health change at all
		ev(EventChanged, "p-old", &d2, &d1),   // the claim holds another digest
	}
	s.Events = append(append([]Event{}, keep...), drop...)
	s.Events = append(s.Events, Event{Kind: EventObserved, Project: "p-obs", Origin: "s", ObservedAt: "2026-10-11T05:59:59Z", After: &d1})
	last, earlier := s.LastRefreshEvents()
	if fmt.Sprint(last) != fmt.Sprint(keep) || fmt.Sprint(earlier) != fmt.Sprint(drop) {
		t.Errorf("last:\n%v\nwant:\n%v\nearlier:\n%v\nwant:\n%v", last, keep, earlier, drop)
	}
}

// Without network.json no refresh has run: no event is the last refresh's.
func TestLastRefreshEventsWithoutARefresh(t *testing.T) {
	s := &Snapshot{Events: []Event{{Kind: EventObserved, Project: "p", Origin: "s", ObservedAt: "2026-10-11T06:00:00Z"}}}
	if last, earlier := s.LastRefreshEvents(); last != nil || earlier != nil {
		t.Errorf("LastRefreshEvents = %v, %v; want none", last, earlier)
	}
}
