package refresh

import (
	"context"
	"fmt"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

type diffChange = diff.Change

// held is a claim's last good manifest.
type held struct {
	bytes     []byte
	digest    string
	m         *protocol.Manifest // nil when it no longer decodes
	movedFrom string             // the site whose claim a move continues
}

// readHeld reads a claim's held manifest, which must hash to recorded ("" for none).
func (r *run) readHeld(project, site, recorded string) (*held, error) {
	if recorded == "" {
		return nil, nil
	}
	rel := store.ManifestPath(project, site)
	b, err := r.st.ReadBytes(rel)
	if err != nil {
		return nil, fmt.Errorf("%s: the claim records ingested_sha256 %s, but the manifest cannot be read: %w", rel, recorded, err)
	}
	h := &held{bytes: b, digest: store.Digest(b)}
	if h.digest != recorded {
		return nil, fmt.Errorf("%s hashes to %s, but its claim records ingested_sha256 %s: the state contradicts itself (see ashyams check)", rel, h.digest, recorded)
	}
	if doc, _ := protocol.Decode(b); doc != nil {
		h.m = doc.Manifest
	}
	return h, nil
}

// movedFrom finds the claim a claim new at this site continues (FORMATS section 1.11, "Move").
func (r *run) movedFrom(project, site string) *store.Claim {
	if r.p == nil {
		return nil
	}
	for _, old := range r.p.previous[site] {
		if c, ok := r.prevClaims[old][project]; ok {
			return &c
		}
	}
	for _, old := range r.prevOrigins[site].PreviousIDs() {
		if c, ok := r.prevClaims[old][project]; ok && !r.p.live(old) {
			return &c
		}
	}
	return nil
}

// readClaim brings one listed claim up to date; only a manifest passing every check replaces
// the held one.
func (r *run) readClaim(ctx context.Context, sr *siteRun, entry protocol.IndexEntry) error {
	st, err := r.startClaim(sr.id, entry)
	if err != nil {
		return err
	}
	c, h := &st.c, st.h
	switch {
	case h != nil && entry.ManifestSHA256 == h.digest:
		sr.count(func(s *siteStats) { s.unchanged++ })
		r.mu.Lock()
		r.sum.Unchanged++
		r.mu.Unlock()
		return r.current(ctx, sr, c, h, nil, st.wasWithdrawn, st.before, false)
	case c.Rejected != nil && c.Rejected.SHA256 == entry.ManifestSHA256 && c.Rejected.Crawler == product.Version &&
		c.Rejected.Health != store.ClaimManifestUnreachable:
		// The same refused bytes are not downloaded again (state.txt) unless they were not read.
		var fs []store.Finding
		if c.Problem != nil && *c.Problem == c.Rejected.Problem {
			fs = c.Findings
		}
		return r.notCurrent(sr, c, c.Rejected.RejectedHealth(), c.Rejected.Problem, fs)
	}
	f := r.fetchManifest(ctx, sr, entry, h, c.Validators)
	if f.ctxErr != nil {
		return f.ctxErr
	}
	sr.count(func(s *siteStats) { s.fetched += f.downloads })
	return r.settleFetched(ctx, sr, st, f)
}

// claimStart is a listed claim as its read begins.
type claimStart struct {
	c            store.Claim // the held record (or a new one), entry and attempt time set
	h            *held       // the manifest held; nil when none
	before       *held       // where the event's diff starts: h, or the manifest a move left
	wasWithdrawn bool
}

// startClaim is the claim for entry at site as its read begins, continuing a moved claim.
func (r *run) startClaim(site string, entry protocol.IndexEntry) (*claimStart, error) {
	prev, had := r.prevClaims[site][entry.ID]
	c := prev
	if !had {
		c = store.Claim{Project: entry.ID, Origin: site, FirstObserved: r.now}
	}
	var from *store.Claim
	if c.IngestedSHA256 == nil {
		from = r.movedFrom(entry.ID, site)
	}
	c.MovedTo, c.MovedFrom = nil, nil
	c.LastAttempt = r.now
	c.Entry, c.AdvertisedSHA256 = entry, entry.ManifestSHA256
	h, err := r.readHeld(entry.ID, site, c.Ingested())
	if err != nil {
		return nil, err
	}
	before := h
	if before == nil && from != nil {
		if before, err = r.readHeld(entry.ID, from.Origin, from.Ingested()); err != nil {
			return nil, err
		}
		if before != nil {
			before.movedFrom = from.Origin
		}
	}
	return &claimStart{c: c, h: h, before: before, wasWithdrawn: had && prev.Health == store.ClaimWithdrawn}, nil
}

// settleFetched records what fetching gave.
func (r *run) settleFetched(ctx context.Context, sr *siteRun, st *claimStart, f fetchResult) error {
	c, h := &st.c, st.h
	c.Entry, c.AdvertisedSHA256 = f.entry, f.entry.ManifestSHA256
	if r.o.observe != nil {
		r.o.observe(sr.indexURL, f)
	}
	if f.heldCurrent {
		sr.count(func(s *siteStats) { s.unchanged++ })
		sr.markUsed(f.version)
		return r.current(ctx, sr, c, h, nil, st.wasWithdrawn, st.before, false)
	}
	if f.health != "" {
		if f.reject {
			c.Rejected = rejected(f.entry.ManifestSHA256, f.health, f.problem)
		}
		return r.notCurrent(sr, c, f.health, f.problem, f.findings)
	}
	m, fs := protocol.ValidateForEntry(f.body, f.entry, "")
	if len(fs) > 0 || m == nil {
		health, problem := manifestVerdict(fs)
		c.Rejected = rejected(store.Digest(f.body), health, problem)
		return r.notCurrent(sr, c, health, problem, store.FindingsOf(fs))
	}
	sr.markUsed(f.version)
	if f.resp != nil && !f.resp.NotModified {
		c.Validators = store.Validators{ETag: f.resp.ETag(), LastModified: f.resp.LastModified()}
	}
	nh := &held{bytes: f.body, digest: store.Digest(f.body), m: m}
	if h != nil && h.digest == nh.digest {
		return r.current(ctx, sr, c, h, nil, st.wasWithdrawn, st.before, false)
	}
	return r.current(ctx, sr, c, nh, m, st.wasWithdrawn, st.before, true)
}

// rejected remembers refused bytes by digest for this crawler version.
func rejected(digest, health, problem string) *store.Rejected {
	rj := &store.Rejected{SHA256: digest, Crawler: product.Version, Problem: problem}
	if health != store.ClaimInvalid {
		rj.Health = health
	}
	return rj
}

func (sr *siteRun) count(f func(*siteStats)) {
	sr.mu.Lock()
	f(&sr.stats)
	sr.mu.Unlock()
}

// current records a claim whose manifest is what the site advertises; replaced: now is new.
func (r *run) current(ctx context.Context, sr *siteRun, c *store.Claim, now *held, m *protocol.Manifest, wasWithdrawn bool, before *held, replaced bool) error {
	c.IngestedSHA256 = new(now.digest)
	c.Health, c.Problem, c.Rejected, c.Findings = store.ClaimCurrent, nil, nil, nil
	c.LastSuccess = new(r.now)
	var e *store.Event
	switch {
	case replaced:
		c.LastChanged = new(r.now)
		kind := store.EventChanged
		switch {
		case before != nil && before.movedFrom != "":
			kind = store.EventObserved // first seen here, continuing the old site's claim
		case wasWithdrawn:
			kind = store.EventRestored
		case before == nil:
			kind = store.EventObserved
		}
		e = &store.Event{Kind: kind, Project: c.Project, Origin: c.Origin, Name: m.Project.Name, ObservedAt: r.now,
			After: new(now.digest), Changes: noChanges()}
		if before != nil && before.movedFrom != "" {
			e.MovedFrom = new(before.movedFrom)
		}
		if before != nil {
			e.Before = new(before.digest)
			if before.m != nil {
				e.Changes = diff.Diff(before.m, m)
			}
		}
		r.mu.Lock()
		r.sum.Accepted++
		r.mu.Unlock()
	case wasWithdrawn:
		// Listed again with the manifest it held (FORMATS section 1.5).
		e = &store.Event{Kind: store.EventRestored, Project: c.Project, Origin: c.Origin, Name: c.Entry.Name, ObservedAt: r.now,
			After: new(now.digest), Changes: noChanges()}
	}
	if e != nil {
		e.ID = store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
	}
	fresh := replaced
	if m == nil {
		m = now.m
	}
	if m != nil {
		if err := r.cardImage(ctx, c, m, c.Entry.Manifest, sr.indexURL, fresh); err != nil {
			return err
		}
	}
	if replaced {
		if err := r.replace(c, now, e); err != nil {
			return err
		}
	} else if e != nil {
		if err := r.event(*e); err != nil { // a restored claim: its record exists
			return err
		}
	}
	c.PendingSHA256 = nil
	return r.putClaim(*c)
}

// replace writes an accepted manifest so every moment is a sound state: the claim with
// pending_sha256, the event, then manifest.json.
func (r *run) replace(c *store.Claim, now *held, e *store.Event) error {
	rel := store.ClaimPath(c.Project, c.Origin)
	var stub store.Claim
	if err := r.st.ReadJSON(rel, &stub); err != nil {
		stub = *c
		stub.IngestedSHA256, stub.Validators, stub.Media = nil, store.Validators{}, nil
		stub.LastChanged, stub.LastSuccess = nil, nil
		stub.Health = store.ClaimManifestUnreachable
		stub.Problem, stub.Findings = new("the refresh reading this manifest was interrupted before it was recorded"), nil
	}
	stub.PendingSHA256 = new(now.digest)
	if err := r.st.WriteJSON(rel, stub); err != nil {
		return err
	}
	if e != nil {
		if err := r.event(*e); err != nil {
			return err
		}
	}
	return r.st.WriteBytes(store.ManifestPath(c.Project, c.Origin), now.bytes)
}

// notCurrent records a claim whose advertised manifest could not be taken; the held one stays.
func (r *run) notCurrent(sr *siteRun, c *store.Claim, health, problem string, fs []store.Finding) error {
	c.Health, c.Problem, c.Findings = health, &problem, fs
	sr.count(func(s *siteStats) { s.problems++ })
	r.fact(claimFact(c.Origin, c.Project, health, store.HealthLabel(health), problem))
	return r.putClaim(*c)
}

// fetchResult is the outcome of reading one advertised manifest.
type fetchResult struct {
	body        []byte              // bytes matching the advertised digest (health == "")
	served      []byte              // the bytes last served when none matched
	resp        *guard.Response     // the response that gave them
	entry       protocol.IndexEntry // the entry as last advertised
	version     *indexVersion       // the index version entry came from (nil: the first)
	heldCurrent bool                // a re-read advertises the held manifest again
	downloads   int                 // manifest bodies downloaded
	health      string              // non-empty: the claim health of a failure
	problem     string
	findings    []store.Finding
	reject      bool  // remember the advertised digest as refused
	ctxErr      error // the refresh was interrupted
}

// fetchManifest downloads the advertised manifest and checks its digest; on a mismatch it
// waits RetryWaits, re-reading the index (seeds/crawler.txt), then gives up: inconsistent.
func (r *run) fetchManifest(ctx context.Context, sr *siteRun, entry protocol.IndexEntry, h *held, v store.Validators) fetchResult {
	res := fetchResult{entry: entry}
	murl := resolve(sr.indexURL, entry.Manifest)
	adv := entry.ManifestSHA256
	for attempt := 0; ; attempt++ {
		body, resp, done := r.getManifest(ctx, &res, murl, adv, h, v)
		if done {
			return res
		}
		got := store.Digest(body)
		if got == adv {
			res.body, res.resp = body, resp
			return res
		}
		if attempt == len(RetryWaits) {
			res.health, res.served = store.ClaimInconsistent, body
			what := fmt.Sprintf("the manifest served at %s hashes to %s, but the site index advertises %s (read %d times, the index re-read after waits of %s and %s)",
				murl, got, adv, attempt+1, RetryWaits[0], RetryWaits[1])
			res.problem = what + "; the last good manifest is kept"
			res.findings = []store.Finding{store.Quoting(res.health, what, murl, got, adv)}
			return res
		}
		if err := r.o.Sleep(ctx, RetryWaits[attempt]); err != nil {
			if res.ctxErr = r.stopped(); res.ctxErr == nil {
				res.fail(store.ClaimManifestUnreachable, fmt.Sprintf("the manifest served at %s hashes to %s, not the advertised %s, and it was not read again: %s",
					murl, got, adv, context.Cause(ctx)), murl, got, adv)
			}
			return res
		}
		if e, ver, ok := r.reReadEntry(ctx, sr, entry.ID); ok {
			res.entry, res.version, adv = e, ver, e.ManifestSHA256
			murl = resolve(sr.indexURL, e.Manifest)
		}
		if h != nil && adv == h.digest {
			res.heldCurrent = true
			return res
		}
		if got == adv {
			res.body, res.resp = body, resp
			return res
		}
	}
}

// getManifest is one GET of the manifest, conditional only while the held digest is advertised
// (seeds/crawler.txt); done means res is set.
func (r *run) getManifest(ctx context.Context, res *fetchResult, murl, adv string, h *held, v store.Validators) (body []byte, resp *guard.Response, done bool) {
	heldAdvertised := h != nil && adv == h.digest
	req := guard.Request{URL: murl, Accept: acceptManifest}
	if heldAdvertised {
		req.ETag, req.LastModified = v.ETag, v.LastModified
	}
	resp, err := r.get.Get(ctx, req)
	if res.ctxErr = r.stopped(); res.ctxErr != nil {
		return nil, nil, true
	}
	switch {
	case guard.KindOf(err) == guard.KindTooLarge:
		res.reject = true
		res.fail(store.ClaimRefused, err.Error(), murl)
	case err != nil:
		res.fail(store.ClaimManifestUnreachable, fetchProblem("the manifest", murl, nil, err), murl)
	case resp.NotModified && heldAdvertised:
		return h.bytes, resp, false // what is held, verified against its record
	case resp.Status != 200:
		res.fail(store.ClaimManifestUnreachable, fetchProblem("the manifest", murl, resp, nil), murl)
	default:
		res.downloads++
		r.mu.Lock()
		r.sum.Fetched++
		r.mu.Unlock()
		return resp.Body, resp, false
	}
	return nil, nil, true
}

// fail sets the failure's health and problem, quoting values in its one finding.
func (res *fetchResult) fail(health, problem string, values ...string) {
	res.health, res.problem = health, problem
	res.findings = []store.Finding{store.Quoting(health, problem, values...)}
}

// reReadEntry re-reads the site index and returns the project's entry in the newest valid
// version; false when the re-read fails.
func (r *run) reReadEntry(ctx context.Context, sr *siteRun, id string) (protocol.IndexEntry, *indexVersion, bool) {
	sr.mu.Lock()
	cur := sr.latest
	sr.mu.Unlock()
	resp, err := r.get.Get(ctx, guard.Request{URL: sr.indexURL, Accept: acceptIndex, ETag: cur.validators.ETag, LastModified: cur.validators.LastModified})
	switch {
	case err != nil:
		return protocol.IndexEntry{}, nil, false
	case resp.NotModified:
		sr.mu.Lock()
		cur = sr.latest // another re-read may have brought a newer one
		sr.mu.Unlock()
	case resp.Status != 200:
		return protocol.IndexEntry{}, nil, false
	default:
		idx, fs, _ := validateIndex(resp.Body)
		if len(fs) > 0 || idx == nil {
			return protocol.IndexEntry{}, nil, false
		}
		sr.mu.Lock()
		if store.Digest(resp.Body) != store.Digest(sr.latest.body) {
			sr.latest = newIndexVersion(sr.latest.seq+1, resp.Body, store.Validators{ETag: resp.ETag(), LastModified: resp.LastModified()}, idx)
		}
		cur = sr.latest
		sr.mu.Unlock()
	}
	e, ok := cur.entries[id]
	return e, cur, ok
}

// manifestVerdict turns manifest findings into claim health and a problem.
func manifestVerdict(fs []protocol.Finding) (health, problem string) {
	switch {
	case len(fs) == 0:
		return store.ClaimInvalid, "the manifest could not be read"
	case protocol.IsRefused(fs):
		return store.ClaimRefused, "the manifest is over the document limit: " + protocol.Summary(fs)
	case protocol.IsNewerProtocol(fs):
		// SPEC section 1: a newer protocol is an invalid document, remembered by digest.
		return store.ClaimInvalid, "the manifest speaks a newer protocol (" + protocol.Summary(fs) + "); last good data kept"
	case protocol.IsNotDreamWeave(fs):
		return store.ClaimInvalid, "not a DreamWeave manifest: " + protocol.Summary(fs)
	}
	return store.ClaimInvalid, "the manifest fails the protocol: " + protocol.Summary(fs)
}
