package network

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// firstSeen sets Release.FirstSeen and FirstSeenEvent for every release of the held manifest,
// from the claim's recorded events (SPEC section 4: a release's publisher date and the time
// this index first saw it are different facts). Only the recorded history counts, and only
// while it connects:
//
//   - it starts at the claim's first observed event with a digest after;
//   - each later event that replaces the manifest must start from the digest the one before
//     it ended at (withdrawn and restored events that keep the manifest are passed over), and
//     must record its differences: a replacement recorded with none (the earlier manifest
//     could not be read) may have added releases unseen, so the history stops connecting there.
//
// Within the connected history, a top-level release-added gives the time of its event; a
// release-removed of a version not added before shows the version was there at the first
// observation. A release no event mentions was there at the first observation only if the
// history connects all the way to the held manifest (HeldSHA256); otherwise FirstSeen stays
// "", meaning "not recorded", never a guess. Versions are matched as published strings.
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
