package refresh

import (
	"context"
	"fmt"
	"sort"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// collisionError is a site index whose site id another index URL already has.
type collisionError struct {
	site, owner, indexURL string
}

func (e *collisionError) Error() string {
	return fmt.Sprintf("site id %s is already used by %s; this source leads to the site index %s, which cannot be recorded under the same id", e.site, e.owner, e.indexURL)
}

// plan is what phase 1 found: which sites are reached, by whom, which moved, which are gone.
type plan struct {
	runs      []*sourceRun
	reached   map[string][]*sourceRun // site -> sources that reached it (source URL order)
	failed    map[string][]*sourceRun // held site -> failed sources whose record names it
	unreached []*sourceRun            // failed sources that never reached a site
	moves     map[string]string       // old site -> new site
	previous  map[string][]string     // new site -> old sites (moves into it)
	movedBy   map[string]*sourceRun   // old site -> the source now leading elsewhere
	pending   map[string][]string     // failed site -> old sites whose move into it waits
	abandoned []string                // held sites no enrolled source leads to
	removed   []store.Source          // held source records no longer enrolled
}

// plan sorts phase 1's discoveries into phase 2's work.
func (r *run) plan(runs []*sourceRun) *plan {
	p := &plan{
		runs:     runs,
		reached:  map[string][]*sourceRun{},
		failed:   map[string][]*sourceRun{},
		moves:    map[string]string{},
		previous: map[string][]string{},
		movedBy:  map[string]*sourceRun{},
		pending:  map[string][]string{},
	}
	r.collisions(runs)
	r.placeSources(p, runs)
	r.findMoves(p, runs)
	waiting := r.resumeMoves(p)
	for id := range r.prevOrigins {
		if !p.live(id) && !waiting[id] {
			p.abandoned = append(p.abandoned, id)
		}
	}
	sort.Strings(p.abandoned)
	enrolled := map[string]bool{}
	for _, sr := range runs {
		enrolled[sr.src.URL] = true
	}
	for u, s := range r.prevSources {
		if !enrolled[u] {
			p.removed = append(p.removed, s)
		}
	}
	sort.Slice(p.removed, func(i, j int) bool { return p.removed[i].URL < p.removed[j].URL })
	return p
}

// placeSources puts each source under the site it reached, or failed, under the held site its
// record names when no other source reached it, or among the unreached.
func (r *run) placeSources(p *plan, runs []*sourceRun) {
	for _, sr := range runs {
		switch {
		case sr.err == nil:
			p.reached[sr.site] = append(p.reached[sr.site], sr)
		case sr.prev != nil && sr.prev.Origin != nil && r.hasOrigin(*sr.prev.Origin):
			p.failed[*sr.prev.Origin] = append(p.failed[*sr.prev.Origin], sr)
		default:
			p.unreached = append(p.unreached, sr)
		}
	}
	for _, site := range sortedKeys(p.failed) {
		if _, ok := p.reached[site]; ok {
			p.unreached = append(p.unreached, p.failed[site]...)
			delete(p.failed, site)
		}
	}
}

// findMoves records the moves seen now: a source that led to a site not live leads elsewhere.
func (r *run) findMoves(p *plan, runs []*sourceRun) {
	listing := r.listing()
	for _, sr := range runs {
		if sr.err != nil {
			continue
		}
		for _, old := range r.previousSites(sr, listing) {
			if old == sr.site || p.live(old) {
				continue
			}
			if _, dup := p.moves[old]; dup {
				continue
			}
			p.moves[old] = sr.site
			p.previous[sr.site] = append(p.previous[sr.site], old)
			p.movedBy[old] = sr
		}
	}
}

// resumeMoves resumes pending moves: each moves now if its new site is reached, else waits. It
// returns the old sites so kept, which are not abandoned.
func (r *run) resumeMoves(p *plan) map[string]bool {
	waiting := map[string]bool{}
	for _, site := range sortedKeys(r.prevOrigins) {
		if !p.live(site) {
			continue
		}
		for _, old := range r.prevOrigins[site].PreviousIDs() {
			if p.live(old) || !r.hasOrigin(old) || waiting[old] {
				continue
			}
			if _, dup := p.moves[old]; dup {
				continue
			}
			waiting[old] = true
			if _, ok := p.reached[site]; ok {
				p.moves[old] = site
				p.previous[site] = append(p.previous[site], old)
			} else {
				p.pending[site] = append(p.pending[site], old)
			}
		}
	}
	return waiting
}

// collisions turns a site id clash into a failure of its source, never an overwrite: the held
// origin keeps its id; among new ones, the lowest URL.
func (r *run) collisions(runs []*sourceRun) {
	owner := map[string]string{}
	for id, o := range r.prevOrigins {
		owner[id] = o.IndexURL
	}
	var ok []*sourceRun
	for _, sr := range runs {
		if sr.err == nil {
			ok = append(ok, sr)
		}
	}
	sort.SliceStable(ok, func(i, j int) bool { return ok[i].d.IndexURL < ok[j].d.IndexURL })
	for _, sr := range ok {
		u, held := owner[sr.site]
		if !held {
			owner[sr.site] = sr.d.IndexURL
			continue
		}
		if u != sr.d.IndexURL {
			sr.err = &collisionError{site: sr.site, owner: u, indexURL: sr.d.IndexURL}
			sr.site = ""
		}
	}
}

// live reports whether an enrolled source leads to site this time.
func (p *plan) live(site string) bool {
	_, a := p.reached[site]
	_, b := p.failed[site]
	return a || b
}

// hasOrigin reports whether site id is held; a site a finished move left is not.
func (r *run) hasOrigin(id string) bool { _, ok := r.prevOrigins[id]; return ok }

// listing maps each source URL to the held origins whose sources list it, in id order.
func (r *run) listing() map[string][]string {
	out := map[string][]string{}
	for _, id := range sortedKeys(r.prevOrigins) {
		for _, u := range r.prevOrigins[id].Sources {
			if l := out[u]; len(l) == 0 || l[len(l)-1] != id {
				out[u] = append(l, id)
			}
		}
	}
	return out
}

// previousSites are the held sites this source led to: its record's origin and any origin
// listing it.
func (r *run) previousSites(sr *sourceRun, listing map[string][]string) []string {
	seen := map[string]bool{}
	var out []string
	if sr.prev != nil && sr.prev.Origin != nil && r.hasOrigin(*sr.prev.Origin) {
		seen[*sr.prev.Origin] = true
		out = append(out, *sr.prev.Origin)
	}
	for _, id := range listing[sr.src.URL] {
		if !seen[id] {
			out = append(out, id)
		}
	}
	return out
}

// tasks are phase 2's units of work, each touching one site's records.
func (p *plan) tasks() []task {
	var out []task
	for _, id := range p.abandoned {
		if _, moved := p.moves[id]; moved {
			continue // handled with the site it moved to
		}
		out = append(out, task{site: id, run: func(ctx context.Context, r *run) error { return r.removeSite(id, "no longer enrolled: "+id) }})
	}
	for _, site := range sortedKeys(p.reached) {
		out = append(out, task{site: site, sources: sourceURLs(p.reached[site]),
			run: func(ctx context.Context, r *run) error { return r.readSite(ctx, p, site) }})
	}
	for _, site := range sortedKeys(p.failed) {
		out = append(out, task{site: site, sources: sourceURLs(p.failed[site]),
			run: func(ctx context.Context, r *run) error { return r.siteFailed(ctx, p, site) }})
	}
	if len(p.unreached) > 0 {
		out = append(out, task{sources: sourceURLs(p.unreached), run: func(ctx context.Context, r *run) error {
			for _, sr := range p.unreached {
				if err := r.writeSource(sr, nil, ""); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	return out
}
