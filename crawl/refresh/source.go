package refresh

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/discover"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// sourceNames refuses, before any request, two sources sharing one record name (SourceID).
func sourceNames(srcs []sources.Source) error {
	seen := map[string]string{}
	for _, s := range srcs {
		id := store.SourceID(s.URL)
		if u, ok := seen[id]; ok && u != s.URL {
			return fmt.Errorf("the enrolled sources %s and %s would share the record %s: enroll one of them by another URL", u, s.URL, store.SourcePath(id))
		}
		seen[id] = s.URL
	}
	return nil
}

// sourceRun is one enrolled source after discovery.
type sourceRun struct {
	src  sources.Source
	prev *store.Source
	d    *discovery // what discovery found; its trail is kept even when it failed
	err  error      // why discovery failed (nil: d.IndexURL is the site index)
	site string     // the site discovery ended at ("" when it failed)
	// unusable is the source's verdict when the index reached could not be used (FORMATS 1.2).
	unusable *verdict
}

func (r *run) discoverSource(ctx context.Context, src sources.Source) *sourceRun {
	sr := &sourceRun{src: src}
	if p, ok := r.prevSources[src.URL]; ok {
		sr.prev = &p
	}
	d, err := r.discov(ctx, src.URL, r.held(src.URL, sr.prev))
	sr.d, sr.err = d, err
	if err == nil {
		sr.site = store.SiteID(d.IndexURL)
	}
	r.mu.Lock()
	r.srcDone++
	n := r.srcDone
	r.mu.Unlock()
	if err != nil {
		r.progress("refresh: source %d/%d %s: no site index (recorded below)", n, len(r.o.Sources), src.URL)
	} else {
		r.progress("refresh: source %d/%d %s: %s: %s", n, len(r.o.Sources), src.URL, d.Method, d.IndexURL)
	}
	return sr
}

// held is what discovery may ask conditionally and must not move away from without evidence:
// validators only where held bytes hash to their digest, and the previous conclusion.
func (r *run) held(enrolled string, prev *store.Source) discover.Held {
	h := discover.Held{Validators: map[string]store.Validators{}, Subject: r.o.subject}
	for u, v := range r.hostValidators[hostOf(enrolled)] {
		h.Validators[u] = v
	}
	if prev == nil || prev.Origin == nil {
		return h
	}
	o, ok := r.prevOrigins[*prev.Origin]
	if !ok {
		return h
	}
	if v, ok := r.indexValidators[o.IndexURL]; ok {
		h.Validators[o.IndexURL] = v
	}
	h.IndexURL = o.IndexURL
	if prev.Health != store.SourceResolved || prev.Method == nil {
		return h // no conclusion to stand on a 304: the page is read in full
	}
	h.Method = *prev.Method
	if _, indexHeld := h.Validators[o.IndexURL]; !indexHeld {
		return h // a 304 for the page would lead to a 304 for index bytes we cannot use
	}
	if prev.Validators != (store.Validators{}) {
		if _, dup := h.Validators[prev.URL]; !dup {
			h.Validators[prev.URL] = prev.Validators
		}
	}
	return h
}

// removeSources deletes the records of sources no longer enrolled (FORMATS section 1.11),
// rewriting each origin listing one first.
func (r *run) removeSources(p *plan) error {
	if len(p.removed) == 0 {
		return nil
	}
	gone := map[string]bool{}
	for _, s := range p.removed {
		gone[s.URL] = true
	}
	for _, id := range sortedKeys(r.prevOrigins) {
		o := r.prevOrigins[id]
		kept := []string{}
		for _, u := range o.Sources {
			if !gone[u] {
				kept = append(kept, u)
			}
		}
		if len(kept) == len(o.Sources) {
			continue
		}
		o.Sources = kept
		if err := r.st.WriteJSON(store.OriginPath(id), o); err != nil {
			return err
		}
		r.prevOrigins[id] = o
	}
	for _, s := range p.removed {
		if err := r.st.Remove(store.SourcePath(store.SourceID(s.URL))); err != nil {
			return err
		}
		r.mu.Lock()
		r.srcWritten[s.URL] = true
		r.mu.Unlock()
	}
	return nil
}

// writeSource records one source after discovery: site is the origin it leads to (nil: it
// failed); covered is the site whose failure line says why.
func (r *run) writeSource(sr *sourceRun, site *string, covered string) error {
	s := store.Source{URL: sr.src.URL, LastAttempt: r.now, Trail: []store.TrailStep{}}
	if sr.prev != nil {
		s.Origin, s.LastSuccess, s.Validators = sr.prev.Origin, sr.prev.LastSuccess, sr.prev.Validators
	}
	if sr.d != nil && sr.d.Trail != nil {
		s.Trail = sr.d.Trail
	}
	if site != nil && sr.err == nil {
		s.Origin = site
		s.Health = store.SourceResolved
		s.Method = new(sr.d.Method)
		s.Validators = sr.d.PageValidators
		if sr.unusable == nil {
			s.LastSuccess = new(r.now)
		} else {
			// Reached but unusable; the site's line says why.
			s.Health, s.Problem, s.Findings = sr.unusable.health, new(sr.unusable.problem), sr.unusable.findings
			if s.Health != store.SourceResolved {
				r.fact(sourceFact(sr.src.URL, "source "+s.Health, s.Health, "its site "+*site+" could not be read (the site's line says why)"))
			}
		}
	} else {
		s.Health = sourceHealth(sr.err)
		s.Problem = new(sr.err.Error())
		urls := []string{sr.src.URL}
		var de *discover.Error
		if errors.As(sr.err, &de) {
			urls = append(urls, discoveryURLs(de, "")...)
		}
		s.Findings = []store.Finding{store.Quoting(s.Health, *s.Problem, urls...)}
		if s.Origin != nil && !r.hasOrigin(*s.Origin) {
			s.Origin = nil
		}
		if covered != "" {
			r.fact(sourceFact(sr.src.URL, "source "+s.Health, s.Health, "its site "+covered+" could not be read (the site's line says why)"))
		} else {
			r.fact(sourceFact(sr.src.URL, "source "+s.Health, s.Health, *s.Problem))
		}
	}
	return r.putSource(s)
}

func (r *run) putSource(s store.Source) error {
	if err := r.st.WriteJSON(store.SourcePath(store.SourceID(s.URL)), s); err != nil {
		return err
	}
	r.mu.Lock()
	r.srcWritten[s.URL] = true
	r.mu.Unlock()
	return nil
}

func sourceURLs(srs []*sourceRun) []string {
	out := make([]string, 0, len(srs))
	for _, sr := range srs {
		out = append(out, sr.src.URL)
	}
	sort.Strings(out)
	return out
}
