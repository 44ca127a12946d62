package refresh

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// putClaim writes a claim's final record and notes its health.
func (r *run) putClaim(c store.Claim) error {
	c.Media = r.mediaHeld(c.Media)
	if c.Problem == nil {
		c.Findings = nil
	}
	if err := r.st.WriteJSON(store.ClaimPath(c.Project, c.Origin), c); err != nil {
		return err
	}
	r.mu.Lock()
	k := healthKey{c.Origin, c.Project}
	r.health[k], r.problems[k] = c.Health, c.Problem
	r.mu.Unlock()
	return nil
}

// mediaHeld is m, or m without its file and with a problem when the file is missing.
func (r *run) mediaHeld(m *store.Media) *store.Media {
	if m == nil || m.File == nil || r.st.Exists(*m.File) {
		return m
	}
	problem := "not cached: the image file " + *m.File + " is missing from the state; it is fetched again when the claim is next read"
	return &store.Media{URL: m.URL, Alt: m.Alt, Problem: &problem}
}

// repairMedia rewrites held claims not written now whose cached image is missing.
func (r *run) repairMedia() error {
	for _, site := range sortedKeys(r.prevClaims) {
		for _, project := range sortedKeys(r.prevClaims[site]) {
			c := r.prevClaims[site][project]
			r.mu.Lock()
			_, written := r.health[healthKey{site, project}]
			r.mu.Unlock()
			if written || c.Media == nil || c.Media.File == nil || r.st.Exists(*c.Media.File) || !r.st.Exists(store.ClaimPath(project, site)) {
				continue
			}
			if err := r.putClaim(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// putOrigin writes an origin's record and notes its health.
func (r *run) putOrigin(o store.Origin) error {
	if o.Problem == nil {
		o.Findings = nil
	}
	if err := r.st.WriteJSON(store.OriginPath(o.ID), o); err != nil {
		return err
	}
	r.mu.Lock()
	k := healthKey{o.ID, ""}
	r.health[k], r.problems[k] = o.Health, o.Problem
	r.mu.Unlock()
	return nil
}

// removeSite deletes a held site no source leads to (FORMATS section 1.11), events aside; each
// record stops vouching for a file before it goes. line is the summary's line.
func (r *run) removeSite(site, line string) error {
	for _, project := range sortedKeys(r.prevClaims[site]) {
		c := r.prevClaims[site][project]
		if c.IngestedSHA256 != nil {
			c.PendingSHA256, c.IngestedSHA256 = c.IngestedSHA256, nil
			if err := r.st.WriteJSON(store.ClaimPath(project, site), c); err != nil {
				return err
			}
		}
		if err := r.st.Remove(store.ManifestPath(project, site)); err != nil {
			return err
		}
		if err := r.st.Remove(store.ClaimPath(project, site)); err != nil {
			return err
		}
	}
	o := r.prevOrigins[site]
	if o.IndexSHA256 != nil || len(o.Sources) > 0 {
		o.PendingSHA256, o.IndexSHA256, o.Sources = o.IndexSHA256, nil, []string{}
		if err := r.st.WriteJSON(store.OriginPath(site), o); err != nil {
			return err
		}
	}
	if err := r.st.Remove(store.OriginIndexPath(site)); err != nil {
		return err
	}
	if err := r.st.Remove(store.OriginPath(site)); err != nil {
		return err
	}
	r.mu.Lock()
	r.sum.Removed = append(r.sum.Removed, line)
	r.mu.Unlock()
	return nil
}

// releaseSite rewrites a site moved away from without its sources, before their records name
// the new site.
func (r *run) releaseSite(old string) error {
	o, ok := r.prevOrigins[old]
	if !ok || len(o.Sources) == 0 {
		return nil
	}
	o.Sources = []string{}
	return r.st.WriteJSON(store.OriginPath(old), o)
}

// movePending keeps the stale claims of a site moved from while the new site cannot be read.
func (r *run) movePending(old, newIndexURL, problem string) error {
	o, ok := r.prevOrigins[old]
	if !ok {
		return nil
	}
	msg := "the enrolled source now leads to the site index " + newIndexURL + ", which could not be read (" + problem + "); the move is recorded once it reads, and until then this site's last good data stays"
	o.Health, o.Problem, o.LastAttempt, o.Findings = store.OriginUnreachable, &msg, r.now, nil
	o.Sources = []string{}
	if err := r.putOrigin(o); err != nil {
		return err
	}
	r.fact(siteFact(old, o.Health, msg, nil))
	for _, project := range sortedKeys(r.prevClaims[old]) {
		c := r.prevClaims[old][project]
		if c.Health == store.ClaimWithdrawn {
			continue
		}
		c.Health, c.Problem, c.LastAttempt, c.Findings = store.ClaimOriginUnavailable, &msg, r.now, nil
		if err := r.putClaim(c); err != nil {
			return err
		}
		r.coveredClaim(old, store.ClaimOriginUnavailable)
	}
	return nil
}

// withdraw marks a claim withdrawn (FORMATS section 1.4), with an event if it ever held a
// manifest; why is the summary's words.
func (r *run) withdraw(site string, c store.Claim, why string) error {
	if c.Health == store.ClaimWithdrawn {
		return nil
	}
	c.Health, c.Problem = store.ClaimWithdrawn, nil
	c.LastAttempt = r.now
	if err := r.putClaim(c); err != nil {
		return err
	}
	if c.IngestedSHA256 != nil {
		e := store.Event{Kind: store.EventWithdrawn, Project: c.Project, Origin: site, Name: c.Entry.Name,
			ObservedAt: r.now, Before: c.IngestedSHA256, Changes: noChanges()}
		e.ID = store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
		if err := r.event(e); err != nil {
			return err
		}
	}
	r.fact(claimFact(site, c.Project, store.ClaimWithdrawn, store.HealthLabel(store.ClaimWithdrawn), why))
	return nil
}

// event writes e unless its id (store.EventID, SPEC section 3) exists.
func (r *run) event(e store.Event) error {
	written, err := r.st.WriteEvent(e)
	if err != nil {
		return err
	}
	r.mu.Lock()
	if written {
		r.sum.Events++
	} else {
		r.sum.EventsKnown++
	}
	r.mu.Unlock()
	return nil
}
