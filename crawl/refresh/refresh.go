// Package refresh is the crawl stage (`ashyams refresh`): it reads every enrolled source once,
// discovers its site index, validates it, downloads only the manifests whose advertised digest
// differs from the one held, checks, validates and diffs them, and records everything in the
// state directory. Normative: seeds/crawler.txt and seeds/state.txt; SPEC sections 2 and 3.
//
// What a refresh does, in order:
//
//  1. network.json is written first (the refresh's start time, the crawler), so a refresh killed
//     at any point leaves a state that passes `check`.
//  2. Every enrolled source is discovered, at most Options.MaxSources at once. Nothing is
//     written yet.
//  3. Sources no longer listed in sources.toml are marked removed; sites no enrolled source
//     leads to any more have their claims withdrawn (records and history stay). A site the
//     enrolled source used to lead to, when it now leads (by redirect or discovery) to another
//     site, is a move: claims the new site lists get moved_to, and the new claims moved_from.
//  4. Each site reached is read: index validated, held bytes replaced only by a valid index,
//     each entry's manifest_sha256 compared with the held manifest's digest, changed manifests
//     fetched (conditional GET), checked against the digest with the 5 s / 20 s re-read, validated
//     with the entry's id, diffed, recorded. Claims the index no longer lists are withdrawn.
//  5. Sites whose enrolled sources failed keep their data; their claims say why they are stale.
//
// Everything in crawler.txt "What never fails a refresh" is recorded on the source, site or
// claim and the refresh goes on. Run returns an error only for the index's own bugs: a state
// that does not load, a write that fails, a cancelled context (partial work stays consistent).
package refresh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl"
	"github.com/DreamWeave-MP/ashyams-go/crawl/discover"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// Policy defaults (crawler policy, not the protocol; seeds/crawler.txt).
const (
	DefaultMaxSources     = 8       // sources read at once
	DefaultPerHost        = 2       // requests in flight to one host
	DefaultMaxImageBytes  = 4 << 20 // card image body limit, bytes
	DefaultMaxImageSide   = 8192    // card image width or height limit, pixels
	DefaultMaxImagePixels = 4096 * 4096
)

// RetryWaits are the half-finished deployment waits (seeds/crawler.txt): after a digest
// mismatch, wait 5 s, re-read the site index, fetch again; wait 20 s, once more.
var RetryWaits = []time.Duration{5 * time.Second, 20 * time.Second}

// Options configure a refresh. State and Sources are required; zero fields take defaults.
type Options struct {
	State   string           // state directory root (created when absent)
	Sources []sources.Source // the enrolled sources (sources.Load)

	AllowLoopback bool // --allow-loopback: admit 127.0.0.0/8 and ::1, nothing else

	Now      func() time.Time                                 // clock; default time.Now
	Sleep    func(ctx context.Context, d time.Duration) error // the 5 s / 20 s waits; default a timer honouring ctx
	Progress io.Writer                                        // progress lines (stderr); nil = none

	MaxSources     int           // sources read at once; default 8
	PerHost        int           // requests in flight per host; default 2
	MaxBytes       int64         // document limit in bytes; default 16 MiB (guard.DefaultMaxBytes)
	Timeout        time.Duration // one deadline per request; default guard.DefaultTimeout (30 s)
	MaxImageBytes  int64         // card image limit in bytes; default 4 MiB
	MaxImageSide   int           // card image width/height limit in pixels; default 8192
	MaxImagePixels int64         // card image area limit in pixels; default 4096×4096

	Resolver guard.Resolver // name resolution for the guard; nil = the guard's default
	Dial     guard.DialFunc // dials a checked address; nil = the guard's default (the demo maps .example hosts to its loopback server)
}

func (o *Options) defaults() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.MaxSources <= 0 {
		o.MaxSources = DefaultMaxSources
	}
	if o.PerHost <= 0 {
		o.PerHost = DefaultPerHost
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = guard.DefaultMaxBytes
	}
	if o.MaxImageBytes <= 0 {
		o.MaxImageBytes = DefaultMaxImageBytes
	}
	if o.MaxImageSide <= 0 {
		o.MaxImageSide = DefaultMaxImageSide
	}
	if o.MaxImagePixels <= 0 {
		o.MaxImagePixels = DefaultMaxImagePixels
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run refreshes the state at o.State from o.Sources and returns what it did. Errors are the
// index's own bugs only (see the package comment); every fact about a source is in the state
// and in the Summary.
func Run(ctx context.Context, o Options) (*Summary, error) {
	if o.State == "" {
		return nil, errors.New("refresh: no state directory given")
	}
	dir := store.Open(o.State)
	snap, err := dir.TidyLoad() // removes what a killed refresh left (temporary files), then loads
	if err != nil {
		return nil, fmt.Errorf("refresh: the state does not load (a state that contradicts itself is this index's bug; fix the crawler or delete the state and refresh from nothing): %w", err)
	}
	r := newRun(o, dir, snap)
	return r.run(ctx)
}

// run is one refresh.
type run struct {
	o      Options
	st     state
	get    getter // guarded, per-host limited
	discov discoverFunc
	now    string // the refresh's start time: every time recorded by this refresh
	p      *plan  // phase 1's conclusions, read-only in phase 2

	prevSources map[string]store.Source           // by URL
	prevOrigins map[string]store.Origin           // by id
	prevClaims  map[string]map[string]store.Claim // origin -> project -> claim
	claimsByID  map[string][]store.Claim          // project -> claims (every site)
	// indexValidators are the held site indexes' validators by index URL, only where the held
	// bytes still hash to the recorded digest (a 304 must mean "what you hold").
	indexValidators map[string]store.Validators

	mu       sync.Mutex // guards sum and progress
	sum      *Summary
	srcDone  int
	siteDone int
	siteN    int
}

func newRun(o Options, st state, snap *store.Snapshot) *run {
	o.defaults()
	client := guard.New(guard.Options{
		AllowLoopback: o.AllowLoopback,
		MaxBytes:      o.MaxBytes,
		Timeout:       o.Timeout,
		UserAgent:     crawl.UserAgent,
		Resolver:      o.Resolver,
		Dial:          o.Dial,
	})
	lim := limited{c: client, limit: newHostLimit(o.PerHost)}
	r := &run{
		o:           o,
		st:          st,
		get:         lim,
		now:         o.Now().UTC().Format(store.TimeFormat),
		prevSources: map[string]store.Source{},
		prevOrigins: map[string]store.Origin{},
		prevClaims:  map[string]map[string]store.Claim{},
		claimsByID:  map[string][]store.Claim{},

		indexValidators: map[string]store.Validators{},
	}
	r.discov = r.discoverWith(client, lim.limit)
	r.sum = &Summary{StartedAt: r.now, Problems: map[string]int{}}
	for _, s := range snap.Sources {
		r.prevSources[s.URL] = s
	}
	for _, o := range snap.Origins {
		r.prevOrigins[o.ID] = r.settleOrigin(o)
	}
	for id, o := range r.prevOrigins {
		if o.IndexSHA256 == nil || o.Validators == (store.Validators{}) {
			continue
		}
		b, err := r.st.ReadBytes(store.OriginIndexPath(id))
		if err != nil || store.Digest(b) != *o.IndexSHA256 {
			continue
		}
		r.indexValidators[o.IndexURL] = o.Validators
	}
	for _, c := range snap.Claims {
		c.Claim = r.settleClaim(c.Claim)
		if r.prevClaims[c.Origin] == nil {
			r.prevClaims[c.Origin] = map[string]store.Claim{}
		}
		r.prevClaims[c.Origin][c.Project] = c.Claim
		r.claimsByID[c.Project] = append(r.claimsByID[c.Project], c.Claim)
	}
	return r
}

// settleOrigin finishes a replacement a refresh cut short: the held bytes are the truth. When
// they are the pending ones, they become the recorded digest (their validators are unknown).
func (r *run) settleOrigin(o store.Origin) store.Origin {
	if o.PendingSHA256 == nil {
		return o
	}
	if b, err := r.st.ReadBytes(store.OriginIndexPath(o.ID)); err == nil && store.Digest(b) == *o.PendingSHA256 {
		o.IndexSHA256, o.Validators = o.PendingSHA256, store.Validators{}
	}
	o.PendingSHA256 = nil
	return o
}

// settleClaim is settleOrigin for a claim's manifest.
func (r *run) settleClaim(c store.Claim) store.Claim {
	if c.PendingSHA256 == nil {
		return c
	}
	if b, err := r.st.ReadBytes(store.ManifestPath(c.Project, c.Origin)); err == nil && store.Digest(b) == *c.PendingSHA256 {
		c.IngestedSHA256, c.Validators = *c.PendingSHA256, store.Validators{}
	}
	c.PendingSHA256 = nil
	return c
}

// sourceRun is one enrolled source after discovery.
type sourceRun struct {
	src  sources.Source
	prev *store.Source
	d    *discovery // what discovery found; its trail is kept even when it failed
	err  error      // why discovery failed (nil: d.IndexURL is the site index)
	site string     // the site discovery ended at ("" when it failed)
}

func (r *run) run(ctx context.Context) (*Summary, error) {
	if err := r.st.WriteJSON(store.NetworkFile, store.Network{Format: store.Format, Crawler: crawl.UserAgent, ObservedAt: r.now}); err != nil {
		return nil, err
	}
	srcs := append([]sources.Source(nil), r.o.Sources...)
	sort.SliceStable(srcs, func(i, j int) bool { return srcs[i].URL < srcs[j].URL })
	r.sum.Sources = len(srcs)

	// Phase 1: discovery, nothing written.
	runs := make([]*sourceRun, len(srcs))
	err := parallel(ctx, r.o.MaxSources, len(srcs), func(ctx context.Context, i int) error {
		runs[i] = r.discoverSource(ctx, srcs[i])
		return nil
	})
	if err != nil {
		return r.sum, err
	}
	plan := r.plan(runs)
	r.p = plan

	// Phase 2: records. Removed sources first, then sites nobody leads to any more, then every
	// site reached and every site whose sources failed.
	if err := r.removeSources(plan); err != nil {
		return r.sum, err
	}
	tasks := plan.tasks()
	r.siteN = len(tasks)
	err = parallel(ctx, r.o.MaxSources, len(tasks), func(ctx context.Context, i int) error {
		return tasks[i](ctx, r)
	})
	r.sum.finish()
	return r.sum, err
}

// parallel runs f(0..n-1) with at most k at once. It stops starting new work when ctx is done
// or f fails, waits for what is running (so no write is cut in half), and returns the first
// error, or ctx's.
func parallel(ctx context.Context, k, n int, f func(context.Context, int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, k)
	for i := 0; i < n; i++ {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			if err := f(ctx, i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

func (r *run) progress(format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.o.Progress, format+"\n", a...)
}

// discoverSource runs discovery for one enrolled source.
func (r *run) discoverSource(ctx context.Context, src sources.Source) *sourceRun {
	sr := &sourceRun{src: src}
	if p, ok := r.prevSources[src.URL]; ok {
		sr.prev = &p
	}
	d, err := r.discov(ctx, src.URL, r.held(sr.prev))
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

// held is what discovery may ask conditionally: every held site index's validators by index
// URL (only where the held bytes still hash to the recorded digest: a 304 must mean "what you
// hold", and we must hold it), the enrolled URL's own validators, and the previous conclusion.
func (r *run) held(prev *store.Source) discover.Held {
	h := discover.Held{Validators: map[string]store.Validators{}}
	for u, v := range r.indexValidators {
		h.Validators[u] = v
	}
	if prev == nil || prev.Health != store.SourceResolved || prev.Origin == nil || prev.Method == nil {
		return h
	}
	o, ok := r.prevOrigins[*prev.Origin]
	if !ok {
		return h
	}
	if _, indexHeld := h.Validators[o.IndexURL]; !indexHeld {
		return h // the conclusion would lead to a 304 for bytes we cannot use
	}
	if prev.Validators != (store.Validators{}) {
		if _, dup := h.Validators[prev.URL]; !dup {
			h.Validators[prev.URL] = prev.Validators
		}
	}
	h.IndexURL, h.Method = o.IndexURL, *prev.Method
	return h
}

// plan is what phase 1 found: which sites are reached, by whom, which moved, which are gone.
type plan struct {
	runs      []*sourceRun
	reached   map[string][]*sourceRun // site -> sources that reached it (source URL order)
	failed    map[string][]*sourceRun // previous site -> failed sources that used to reach it
	unreached []*sourceRun            // failed sources that never reached a site
	moves     map[string]string       // old site -> new site
	previous  map[string][]string     // new site -> old sites (moves into it)
	abandoned []string                // held sites no enrolled source leads to (moved ones included)
	removed   []store.Source          // held source records no longer enrolled
}

func (r *run) plan(runs []*sourceRun) *plan {
	p := &plan{
		runs:     runs,
		reached:  map[string][]*sourceRun{},
		failed:   map[string][]*sourceRun{},
		moves:    map[string]string{},
		previous: map[string][]string{},
	}
	enrolled := map[string]bool{}
	for _, sr := range runs {
		enrolled[sr.src.URL] = true
		switch {
		case sr.err == nil:
			p.reached[sr.site] = append(p.reached[sr.site], sr)
		case sr.prev != nil && sr.prev.Origin != nil && r.hasOrigin(*sr.prev.Origin):
			p.failed[*sr.prev.Origin] = append(p.failed[*sr.prev.Origin], sr)
		default:
			p.unreached = append(p.unreached, sr)
		}
	}
	// A failed source's site is still enrolled through it, unless another source reached it:
	// then the site is read through that one, and the failed source is only recorded.
	for _, site := range sortedKeys(p.failed) {
		if _, ok := p.reached[site]; ok {
			p.unreached = append(p.unreached, p.failed[site]...)
			delete(p.failed, site)
		}
	}
	live := func(site string) bool { _, a := p.reached[site]; _, b := p.failed[site]; return a || b }
	// Moves: a source that led to A (its record says so, or A lists it) now leads to B.
	for _, sr := range runs {
		if sr.err != nil {
			continue
		}
		for _, old := range r.previousSites(sr) {
			if old == sr.site || live(old) {
				continue
			}
			if _, dup := p.moves[old]; dup {
				continue
			}
			p.moves[old] = sr.site
			p.previous[sr.site] = append(p.previous[sr.site], old)
		}
	}
	for id := range r.prevOrigins {
		if !live(id) {
			p.abandoned = append(p.abandoned, id)
		}
	}
	sort.Strings(p.abandoned)
	for u, s := range r.prevSources {
		if !enrolled[u] && s.Health != store.SourceRemoved {
			p.removed = append(p.removed, s)
		}
	}
	sort.Slice(p.removed, func(i, j int) bool { return p.removed[i].URL < p.removed[j].URL })
	return p
}

func (r *run) hasOrigin(id string) bool { _, ok := r.prevOrigins[id]; return ok }

// previousSites are the held sites this source led to: its record's origin and any origin
// listing it (the origin list survives a refresh cut short between the two writes).
func (r *run) previousSites(sr *sourceRun) []string {
	seen := map[string]bool{}
	var out []string
	if sr.prev != nil && sr.prev.Origin != nil && r.hasOrigin(*sr.prev.Origin) {
		seen[*sr.prev.Origin] = true
		out = append(out, *sr.prev.Origin)
	}
	ids := make([]string, 0, len(r.prevOrigins))
	for id := range r.prevOrigins {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if !seen[id] && contains(r.prevOrigins[id].Sources, sr.src.URL) {
			out = append(out, id)
		}
	}
	return out
}

// tasks are phase 2's units of work, each touching one site's records.
func (p *plan) tasks() []func(context.Context, *run) error {
	var out []func(context.Context, *run) error
	for _, id := range p.abandoned {
		if _, moved := p.moves[id]; moved {
			continue // handled with the site it moved to, before that site's claims
		}
		id := id
		out = append(out, func(ctx context.Context, r *run) error { return r.abandon(id, "", nil) })
	}
	for _, site := range sortedKeys(p.reached) {
		site := site
		out = append(out, func(ctx context.Context, r *run) error { return r.readSite(ctx, p, site) })
	}
	for _, site := range sortedKeys(p.failed) {
		site := site
		out = append(out, func(ctx context.Context, r *run) error { return r.siteFailed(ctx, p, site) })
	}
	if len(p.unreached) > 0 {
		out = append(out, func(ctx context.Context, r *run) error {
			for _, sr := range p.unreached {
				if err := r.writeSource(sr, nil); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return out
}

// removeSources marks held source records whose URL left sources.toml. Nothing is deleted.
func (r *run) removeSources(p *plan) error {
	for _, s := range p.removed {
		msg := "no longer listed in network/sources.toml; this index does not read it any more"
		s.Health = store.SourceRemoved
		s.Problem = &msg
		if err := r.st.WriteJSON(store.SourcePath(store.SourceID(s.URL)), s); err != nil {
			return err
		}
		r.count("source removed", s.URL, msg)
	}
	return nil
}

// writeSource records one enrolled source after discovery. site is the origin it leads to now
// (nil: discovery failed; the last known origin stays named).
func (r *run) writeSource(sr *sourceRun, site *string) error {
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
		s.Method = strp(sr.d.Method)
		s.Validators = sr.d.PageValidators
		s.LastSuccess = strp(r.now)
	} else {
		s.Health = store.SourceUnresolved
		s.Problem = strp(sr.err.Error())
		if s.Origin != nil && !r.hasOrigin(*s.Origin) {
			s.Origin = nil
		}
		r.count("source unresolved", sr.src.URL, *s.Problem)
	}
	return r.st.WriteJSON(store.SourcePath(store.SourceID(sr.src.URL)), s)
}

// abandon withdraws the claims of a held site no enrolled source leads to any more. movedTo is
// the site the enrolled source leads to now ("" when the source was removed) and listed the
// projects that site lists (nil when its index could not be read): those claims get moved_to
// and no withdrawn event (the move is recorded at the new site).
func (r *run) abandon(site, movedTo string, listed map[string]bool) error {
	o := r.prevOrigins[site]
	msg := "no enrolled source leads to this site any more (its entry left network/sources.toml)"
	switch {
	case movedTo != "" && listed == nil:
		msg = "the enrolled source now leads to another site, " + movedTo + ", whose index could not be read"
	case movedTo != "":
		msg = "the enrolled source now leads to another site, " + movedTo + ", which does not list this project"
	}
	for _, project := range sortedKeys(r.prevClaims[site]) {
		c := r.prevClaims[site][project]
		if movedTo != "" && listed[project] {
			if c.MovedTo != nil && *c.MovedTo == movedTo && c.Health == store.ClaimWithdrawn {
				continue
			}
			m := "moved: the enrolled source now leads to " + movedTo
			to := movedTo
			c.MovedTo, c.Health, c.Problem = &to, store.ClaimWithdrawn, &m
			if err := r.st.WriteJSON(store.ClaimPath(project, site), c); err != nil {
				return err
			}
			r.count("moved", project+" at "+site, m)
			continue
		}
		if err := r.withdraw(site, c, msg); err != nil {
			return err
		}
	}
	if len(o.Sources) > 0 {
		o.Sources = []string{}
		if err := r.st.WriteJSON(store.OriginPath(site), o); err != nil {
			return err
		}
	}
	return nil
}

// withdraw marks a claim withdrawn (once) and records the transition. The record, its held
// manifest and its history stay.
func (r *run) withdraw(site string, c store.Claim, why string) error {
	if c.Health == store.ClaimWithdrawn {
		return nil
	}
	c.Health = store.ClaimWithdrawn
	c.Problem = &why
	c.LastAttempt = r.now
	e := store.Event{Kind: store.EventWithdrawn, Project: c.Project, Origin: site, Name: c.Entry.Name,
		ObservedAt: r.now, Before: nonEmpty(c.IngestedSHA256), Changes: noChanges()}
	e.ID = store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
	if err := r.st.WriteJSON(store.ClaimPath(c.Project, site), c); err != nil {
		return err
	}
	if err := r.event(e); err != nil {
		return err
	}
	r.count(store.ClaimWithdrawn, c.Project+" at "+site, why)
	return nil
}

func (r *run) event(e store.Event) error {
	written, err := r.st.WriteEvent(e)
	if err != nil {
		return err
	}
	if written {
		r.mu.Lock()
		r.sum.Events++
		r.mu.Unlock()
	}
	return nil
}

// siteFailed records that every source leading to a held site failed this time: the site's
// health says why, its claims are marked stale, nothing held changes.
func (r *run) siteFailed(ctx context.Context, p *plan, site string) error {
	srs := p.failed[site]
	health, problem := classifyFailure(srs[0].err)
	if health == store.OriginNoIndex {
		health, problem = r.probe(ctx, site, problem)
	}
	if err := r.originUnavailable(site, health, problem, sourceURLs(srs)); err != nil {
		return err
	}
	for _, sr := range srs {
		if err := r.writeSource(sr, nil); err != nil {
			return err
		}
	}
	r.siteProgress(site, health+": "+problem)
	return nil
}

// probe asks the held site index URL itself why discovery found nothing there: an outage (5xx,
// a timeout, a network error) is "unreachable", a refusal "refused", anything else (404, not a
// site index any more) "no-index".
func (r *run) probe(ctx context.Context, site, problem string) (health, detail string) {
	u := r.prevOrigins[site].IndexURL
	resp, err := r.get.Get(ctx, guard.Request{URL: u, Accept: acceptIndex})
	switch {
	case err != nil:
		h, _ := classifyFailure(err)
		return h, problem + "; the site index " + err.Error()
	case resp.Status >= 500 || resp.Status == 408 || resp.Status == 429:
		return store.OriginUnreachable, fmt.Sprintf("%s; the site index at %s answers HTTP %d", problem, u, resp.Status)
	case resp.Status != 200:
		return store.OriginNoIndex, fmt.Sprintf("%s; the site index at %s answers HTTP %d", problem, u, resp.Status)
	}
	return store.OriginNoIndex, problem
}

// originUnavailable records an origin that could not be read, and marks its listed claims
// origin-unavailable. Held bytes, validators and digests stay as they were.
func (r *run) originUnavailable(site, health, problem string, srcs []string) error {
	o, ok := r.prevOrigins[site]
	if !ok {
		return nil
	}
	o.Health, o.Problem, o.LastAttempt = health, &problem, r.now
	if srcs != nil {
		o.Sources = srcs
	}
	if err := r.st.WriteJSON(store.OriginPath(site), o); err != nil {
		return err
	}
	r.count("site "+health, site, problem)
	return r.claimsUnavailable(site, problem)
}

func (r *run) claimsUnavailable(site, problem string) error {
	for _, project := range sortedKeys(r.prevClaims[site]) {
		c := r.prevClaims[site][project]
		if c.Health == store.ClaimWithdrawn {
			continue
		}
		msg := "the site could not be read on the last crawl: " + problem
		c.Health, c.Problem, c.LastAttempt = store.ClaimOriginUnavailable, &msg, r.now
		if err := r.st.WriteJSON(store.ClaimPath(project, site), c); err != nil {
			return err
		}
		r.count(store.ClaimOriginUnavailable, project+" at "+site, msg)
	}
	return nil
}

func (r *run) siteProgress(site, what string) {
	r.mu.Lock()
	r.siteDone++
	n := r.siteDone
	r.mu.Unlock()
	r.progress("refresh: site %d/%d %s: %s", n, r.siteN, site, what)
}

// count adds one problem of a kind to the summary.
// It is also a progress line, so a person watching sees what failed as it happens.
func (r *run) count(kind, where, what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sum.Problems[kind]++
	line := kind + ": " + where + ": " + what
	r.sum.Failures = append(r.sum.Failures, line)
	fmt.Fprintf(r.o.Progress, "refresh: %s\n", line)
}

// classifyFailure maps a failed read of a site index to origin health and a problem.
func classifyFailure(err error) (health, problem string) {
	var re *guard.RefusedError
	var tl *guard.TooLargeError
	var de *discover.Error
	switch {
	case errors.As(err, &re), errors.As(err, &tl):
		return store.OriginRefused, err.Error()
	case errors.As(err, &de) && de.Err == nil:
		// Every URL answered, none with a site index: the site stopped publishing one here.
		return store.OriginNoIndex, err.Error()
	}
	return store.OriginUnreachable, err.Error()
}

// findingsText renders validation findings for a problem field: the first three, and a count.
func findingsText(fs []protocol.Finding) string {
	var parts []string
	for i, f := range fs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-3))
			break
		}
		parts = append(parts, f.String())
	}
	return strings.Join(parts, "; ")
}

func sourceURLs(srs []*sourceRun) []string {
	out := make([]string, 0, len(srs))
	for _, sr := range srs {
		out = append(out, sr.src.URL)
	}
	sort.Strings(out)
	return out
}

func strp(s string) *string { return &s }

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func noChanges() []diffChange { return []diffChange{} }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
