package store

// LastRefreshEvents splits the events observed at network.json's observed_at into those of the
// last refresh and those an earlier refresh that started in the same second recorded (times
// have one-second resolution, state.txt; an event names no refresh); both are nil when no
// refresh has run. An event is set aside when the last refresh's records contradict it:
//   - observed or restored: its claim became current, so network.json's health_changes lists
//     the claim with after "current" (its previous health was another, or none);
//   - withdrawn: health_changes lists the claim with after "withdrawn";
//   - changed: the refresh held its after digest, so a claim record holding another digest
//     contradicts it (a claim changes at most once per refresh).
//
// A changed event whose claim still holds its after digest cannot be told apart and is kept.
func (s *Snapshot) LastRefreshEvents() (last, earlier []Event) {
	if s.Network == nil {
		return nil, nil
	}
	type key struct{ project, origin string }
	became := map[key]string{}
	for _, h := range s.Network.HealthChanges {
		if h.Project != "" {
			became[key{h.Project, h.Origin}] = h.After
		}
	}
	held := map[key]string{}
	for _, c := range s.Claims {
		held[key{c.Project, c.Origin}] = c.Ingested()
	}
	for _, ev := range s.Events {
		if ev.ObservedAt != s.Network.ObservedAt {
			continue
		}
		k := key{ev.Project, ev.Origin}
		ok := true
		switch ev.Kind {
		case EventObserved, EventRestored:
			ok = became[k] == ClaimCurrent
		case EventWithdrawn:
			ok = became[k] == ClaimWithdrawn
		case EventChanged:
			if h, has := held[k]; has && ev.After != nil {
				ok = h == *ev.After
			}
		}
		if ok {
			last = append(last, ev)
		} else {
			earlier = append(earlier, ev)
		}
	}
	return last, earlier
}
