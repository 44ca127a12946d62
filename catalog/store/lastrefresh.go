package store

// LastRefreshEvents splits the events observed at network.json's observed_at into the last
// refresh's and those an earlier refresh in the same second recorded; both nil before any
// refresh. An event is set aside when the last refresh's records contradict it (no matching
// health change, or the claim holds another digest than its after).
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
