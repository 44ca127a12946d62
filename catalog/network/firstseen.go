package network

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// firstSeen sets Release.FirstSeen and FirstSeenEvent from the claim's events while the
// history connects (each replacement starts from the digest the one before ended at and
// records its differences). A release-added gives its event's time; a release removed before
// any add, or one no event mentions when the history reaches the held manifest, was there at
// the first observation. Otherwise FirstSeen stays "": never a guess.
func (c *Claim) firstSeen() {
	if len(c.Releases) == 0 {
		return
	}
	start := -1
	for i, e := range c.Events {
		if e.Kind == store.EventObserved && e.After != nil {
			start = i
			break
		}
	}
	if start < 0 {
		return
	}
	observed := c.Events[start]
	seen := map[string]*store.Event{}
	at := *observed.After // the digest the recorded history has reached
	connected := true
	for _, e := range c.Events[start+1:] {
		if e.After == nil {
			continue // withdrawn: the held manifest stays
		}
		if *e.After == at && (e.Before == nil || *e.Before == at) {
			continue // restored without a new manifest
		}
		if e.Before == nil || *e.Before != at || len(e.Changes) == 0 {
			connected = false
			break
		}
		at = *e.After
		for _, ch := range e.Changes {
			if ch.Version == "" || seen[ch.Version] != nil {
				continue
			}
			switch ch.Change {
			case diff.ChangeReleaseAdded:
				seen[ch.Version] = e
			case diff.ChangeReleaseRemoved:
				seen[ch.Version] = observed // removed before any add: it was there at first
			}
		}
	}
	whole := connected && at == c.HeldSHA256
	for _, r := range c.Releases {
		e := seen[r.Version]
		if e == nil && whole {
			e = observed
		}
		if e != nil {
			r.FirstSeen, r.FirstSeenEvent = e.ObservedAt, e
		}
	}
}
