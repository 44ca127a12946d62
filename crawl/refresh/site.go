package refresh

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// Accept headers: the DreamWeave media types first, JSON after.
const (
	acceptIndex    = "application/vnd.dreamweave.index+json, application/json;q=0.9, */*;q=0.1"
	acceptManifest = "application/vnd.dreamweave.project+json, application/json;q=0.9, */*;q=0.1"
)

// siteRun is one site being read.
type siteRun struct {
	id       string
	indexURL string
	origin   store.Origin

	mu    sync.Mutex
	stats siteStats
	// entries are the projects the index read at the start lists.
	entries map[string]protocol.IndexEntry
	// latest is the newest valid version of the index in hand; re-reads are conditional on it.
	latest *indexVersion
	// used is the newest re-read version a claim was settled with: the held index to be.
	used *indexVersion
}

// indexVersion is one valid read of a site index.
type indexVersion struct {
	seq        int // 0: the read at the start; then each re-read that changed it
	body       []byte
	validators store.Validators
	index      *protocol.Index
	entries    map[string]protocol.IndexEntry
}

func newIndexVersion(seq int, body []byte, v store.Validators, idx *protocol.Index) *indexVersion {
	iv := &indexVersion{seq: seq, body: body, validators: v, index: idx, entries: map[string]protocol.IndexEntry{}}
	for _, e := range idx.Projects {
		if _, dup := iv.entries[e.ID]; !dup {
			iv.entries[e.ID] = e
		}
	}
	return iv
}

func (sr *siteRun) markUsed(v *indexVersion) {
	if v == nil || v.seq == 0 {
		return
	}
	sr.mu.Lock()
	if sr.used == nil || v.seq > sr.used.seq {
		sr.used = v
	}
	sr.mu.Unlock()
}

type siteStats struct{ fetched, unchanged, problems int }

// readSite reads one site within Options.SiteBudget: index, listed claims, then what the site
// no longer lists.
func (r *run) readSite(ctx context.Context, p *plan, site string) error {
	ctx, cancel := r.budget(ctx, r.o.SiteBudget, &BudgetError{What: "the site's time budget", Budget: r.o.SiteBudget}, site)
	defer cancel()
	srs := p.reached[site]
	d := srs[0].d
	o := r.siteOrigin(p, site, srs)
	body, fresh, problem, err := r.indexBytes(ctx, d, o)
	if err != nil {
		return err
	}
	if problem != "" {
		return r.siteUnreadable(p, site, o, srs, store.OriginUnreachable, problem, []store.Finding{store.Quoting(store.OriginUnreachable, problem, d.IndexURL)})
	}
	idx, fs, orderIssue := validateIndex(body)
	if len(fs) > 0 {
		health, problem := indexVerdict(fs)
		return r.siteUnreadable(p, site, o, srs, health, problem, store.FindingsOf(fs))
	}
	if fresh {
		if err := r.replaceIndex(o, body); err != nil {
			return err
		}
		o.Validators = store.Validators{ETag: d.Resp.ETag(), LastModified: d.Resp.LastModified()}
	}
	o.IndexSHA256 = new(store.Digest(body))
	setSite(&o, idx)
	o.Health, o.Problem, o.LastSuccess, o.Findings = store.OriginHealthy, nil, new(r.now), nil
	if o.Issues == nil {
		o.Issues = []string{}
	}
	if err := r.originFirst(o); err != nil {
		return err
	}
	sr := &siteRun{id: site, indexURL: d.IndexURL, origin: o, entries: map[string]protocol.IndexEntry{},
		latest: newIndexVersion(0, body, o.Validators, idx)}
	entries, issues := sr.listEntries(idx, orderIssue, srs)
	r.mu.Lock()
	r.entries[site] = sr.entries
	r.mu.Unlock()
	for _, old := range p.previous[site] {
		if err := r.releaseSite(old); err != nil {
			return err
		}
	}
	if err := r.writeSources(o, srs); err != nil {
		return err
	}
	if err := r.readClaims(ctx, sr, entries); err != nil {
		return err
	}
	if err := r.finishSite(sr, issues); err != nil {
		return err
	}
	return r.removeMoved(p, sr)
}

// siteOrigin is the site's record as this attempt starts.
func (r *run) siteOrigin(p *plan, site string, srs []*sourceRun) store.Origin {
	d := srs[0].d
	o, had := r.prevOrigins[site]
	if !had {
		o = store.Origin{ID: site, FirstObserved: r.now, Issues: []string{}, Previous: []store.Move{}}
	}
	o.ID = site
	o.IndexURL = d.IndexURL
	o.Sources = sourceURLs(srs)
	o.Previous = r.addMoves(o.Previous, p, site)
	o.Redirects = append([]string{}, d.Redirects...)
	o.LastAttempt = r.now
	return o
}

// indexBytes is the index to read: discovery's answer, or the held bytes for a 304; problem
// says why not; err is the refresh's stop.
func (r *run) indexBytes(ctx context.Context, d *discovery, o store.Origin) (body []byte, fresh bool, problem string, err error) {
	if !d.Resp.NotModified {
		return d.Resp.Body, true, "", nil
	}
	held, rerr := r.st.ReadBytes(store.OriginIndexPath(o.ID))
	if rerr == nil && o.IndexSHA256 != nil && store.Digest(held) == *o.IndexSHA256 {
		return held, false, "", nil
	}
	resp, gerr := r.get.Get(ctx, guard.Request{URL: d.IndexURL, Accept: acceptIndex})
	if err := r.stopped(); gerr != nil && err != nil {
		return nil, false, "", err
	}
	if gerr != nil || resp.Status != 200 {
		return nil, false, fetchProblem("the site index", d.IndexURL, resp, gerr), nil
	}
	d.Resp = resp
	return resp.Body, true, "", nil
}

// listEntries fills sr.entries with the readable projects and returns them in index order,
// with the site's issues.
func (sr *siteRun) listEntries(idx *protocol.Index, orderIssue string, srs []*sourceRun) ([]protocol.IndexEntry, []string) {
	var entries []protocol.IndexEntry
	var issues []string
	if orderIssue != "" {
		issues = append(issues, orderIssue)
	}
	for _, e := range idx.Projects {
		if !safeName(e.ID) { // names a directory
			issues = append(issues, fmt.Sprintf("%q: a project id that cannot name a claim; the entry is not read", e.ID))
			continue
		}
		if _, dup := sr.entries[e.ID]; dup {
			issues = append(issues, fmt.Sprintf("%s: listed more than once; the first entry is read", e.ID))
			continue
		}
		sr.entries[e.ID] = e
		entries = append(entries, e)
	}
	for _, x := range srs {
		if m := x.d.ManifestURL; m != "" && !listsManifest(sr.indexURL, entries, m) {
			issues = append(issues, fmt.Sprintf("the enrolled source %s leads to the manifest %s, which this site index does not list", x.src.URL, m))
		}
	}
	return entries, issues
}

// readClaims reads the listed claims, a few at once, then withdraws those no longer listed.
func (r *run) readClaims(ctx context.Context, sr *siteRun, entries []protocol.IndexEntry) error {
	done, err := parallel(r.interrupt, r.o.MaxSources, len(entries), func(i int) error {
		return r.readClaim(ctx, sr, entries[i])
	})
	if err != nil {
		return err
	}
	if slices.Contains(done, false) {
		if err := r.stopped(); err != nil {
			return err
		}
		return errors.New("a claim was left unread without a reason (this index's bug)")
	}
	for _, project := range sortedKeys(r.prevClaims[sr.id]) {
		if _, listed := sr.entries[project]; !listed {
			if err := r.withdraw(sr.id, r.prevClaims[sr.id][project], "the site's index no longer lists this project"); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeMoved finishes moves into a site once read (FORMATS section 1.11): the old site goes
// once every claim of it listed here holds a manifest here.
func (r *run) removeMoved(p *plan, sr *siteRun) error {
	for _, old := range p.previous[sr.id] {
		var waiting []string
		for _, project := range sortedKeys(r.prevClaims[old]) {
			if _, listed := sr.entries[project]; !listed {
				continue
			}
			var c store.Claim
			if err := r.st.ReadJSON(store.ClaimPath(project, sr.id), &c); err != nil || c.IngestedSHA256 == nil {
				waiting = append(waiting, project)
			}
		}
		if len(waiting) > 0 {
			r.fact(siteFact(old, r.prevOrigins[old].Health, "moved to "+sr.id+"; kept until every claim it held there holds a manifest (not yet: "+strings.Join(waiting, ", ")+")", nil))
			continue
		}
		if err := r.removeSite(old, "moved: "+old+" now continues as "+sr.id); err != nil {
			return err
		}
	}
	return nil
}

// validateIndex validates a site index; projects out of id order are an issue, not a finding.
func validateIndex(body []byte) (*protocol.Index, []protocol.Finding, string) {
	idx, fs := protocol.ValidateIndex(body)
	var fatal []protocol.Finding
	var order []protocol.Finding
	for _, f := range fs {
		if f.Rule == protocol.RuleIndexOrder {
			order = append(order, f)
		} else {
			fatal = append(fatal, f)
		}
	}
	if len(order) == 0 || idx == nil {
		return idx, fs, ""
	}
	first := order[0]
	_, detail, ok := strings.Cut(first.Message, ": ")
	if !ok {
		detail = first.Message
	}
	where := protocol.Printable(first.Pointer) + ": " + protocol.Printable(detail)
	if len(order) > 1 {
		where += fmt.Sprintf(", and %d more out of place", len(order)-1)
	}
	issue := "the site index does not list its projects in id order, as the protocol describes (" + where + "); they are read as listed"
	return idx, fatal, issue
}

// setSite copies the site's name, URL and generator from a valid index.
func setSite(o *store.Origin, idx *protocol.Index) {
	o.SiteName, o.SiteURL = new(idx.Site.Name), new(idx.Site.URL)
	o.Generator = nil
	if idx.Generator != "" {
		o.Generator = new(idx.Generator)
	}
}

// replaceIndex writes new index bytes as replace writes a manifest.
func (r *run) replaceIndex(o store.Origin, body []byte) error {
	d := store.Digest(body)
	if o.IndexSHA256 != nil && *o.IndexSHA256 == d {
		if held, err := r.st.ReadBytes(store.OriginIndexPath(o.ID)); err == nil && store.Digest(held) == d {
			return nil
		}
	}
	rel := store.OriginPath(o.ID)
	var stub store.Origin
	if err := r.st.ReadJSON(rel, &stub); err != nil { // a new origin
		stub = store.Origin{ID: o.ID, IndexURL: o.IndexURL, Sources: []string{}, Redirects: []string{}, Issues: []string{}, Previous: []store.Move{},
			Health: store.OriginUnreachable, Problem: new("the refresh reading this site index was interrupted before it was recorded"),
			FirstObserved: o.FirstObserved, LastAttempt: o.LastAttempt}
	}
	stub.PendingSHA256 = &d
	if err := r.st.WriteJSON(rel, stub); err != nil {
		return err
	}
	return r.st.WriteBytes(store.OriginIndexPath(o.ID), body)
}

// originFirst writes the origin before anything names it, listing only sources already leading
// here, so each source always names an existing origin.
func (r *run) originFirst(o store.Origin) error {
	f := o
	f.PendingSHA256 = nil
	f.Sources = []string{}
	for _, u := range o.Sources {
		if s, ok := r.prevSources[u]; ok && s.Origin != nil && *s.Origin == o.ID {
			f.Sources = append(f.Sources, u)
		}
	}
	return r.st.WriteJSON(store.OriginPath(o.ID), f)
}

func (r *run) writeSources(o store.Origin, srs []*sourceRun) error {
	for _, sr := range srs {
		id := o.ID
		if err := r.writeSource(sr, &id, ""); err != nil {
			return err
		}
	}
	o.PendingSHA256 = nil
	return r.putOrigin(o)
}

// siteUnreadable records a site whose index was reached but not usable; held bytes stay,
// claims go stale, a move into it stays pending.
func (r *run) siteUnreadable(p *plan, site string, o store.Origin, srs []*sourceRun, health, problem string, fs []store.Finding) error {
	o.Health, o.Problem, o.Findings = health, &problem, fs
	if o.Issues == nil {
		o.Issues = []string{}
	}
	if err := r.originFirst(o); err != nil {
		return err
	}
	for _, old := range p.previous[site] {
		if err := r.movePending(old, o.IndexURL, problem); err != nil {
			return err
		}
	}
	v := &verdict{store.SourceResolved, problem, fs}
	switch health {
	case store.OriginUnsupportedVersion:
		v.health = store.SourceUnsupportedVersion
	case store.OriginUnreachable:
		v.health = store.SourceUnreachable
	}
	for _, sr := range srs {
		sr.unusable = v
	}
	if err := r.writeSources(o, srs); err != nil {
		return err
	}
	r.fact(siteFact(site, health, problem, nil))
	if err := r.claimsUnavailable(site, problem, fs); err != nil {
		return err
	}
	r.siteProgress(site, health+": "+problem)
	return nil
}

// finishSite records the site's issues; a re-read index claims were settled against is held.
func (r *run) finishSite(sr *siteRun, issues []string) error {
	sr.mu.Lock()
	st, used := sr.stats, sr.used
	sr.mu.Unlock()
	o := sr.origin
	if used != nil {
		if err := r.replaceIndex(o, used.body); err != nil {
			return err
		}
		o.IndexSHA256, o.Validators = new(store.Digest(used.body)), used.validators
		setSite(&o, used.index)
	}
	for _, id := range sortedKeys(sr.entries) {
		var c store.Claim
		if err := r.st.ReadJSON(store.ClaimPath(id, sr.id), &c); err != nil {
			return err
		}
		if c.Health != store.ClaimCurrent && c.Problem != nil {
			issues = append(issues, fmt.Sprintf("%s (%s): %s", id, c.Entry.Name, labelled(store.HealthLabel(c.Health), *c.Problem)))
		}
	}
	sort.Strings(issues)
	if issues == nil {
		issues = []string{}
	}
	o.Issues = issues
	o.PendingSHA256 = nil
	if err := r.putOrigin(o); err != nil {
		return err
	}
	r.mu.Lock()
	r.sum.SitesRead++
	r.mu.Unlock()
	r.siteProgress(sr.id, fmt.Sprintf("%s, %s fetched, %d unchanged, %d not current",
		plural(len(sr.entries), "project"), plural(st.fetched, "manifest"), st.unchanged, st.problems))
	return nil
}

// fetchProblem describes a failed GET of what at u; a budget's words name no URL, so the
// claims it cut share a line.
func fetchProblem(what, u string, resp *guard.Response, err error) string {
	var be *BudgetError
	switch {
	case errors.As(err, &be):
		return what + " was not read: " + be.Error()
	case err != nil:
		return err.Error()
	}
	return fmt.Sprintf("HTTP %d from %s", resp.Status, u)
}

// addMoves appends a store.Move for each site that moved into site and is not listed yet.
func (r *run) addMoves(held []store.Move, p *plan, site string) []store.Move {
	out := append([]store.Move{}, held...)
	for _, old := range p.previous[site] {
		if slices.ContainsFunc(out, func(m store.Move) bool { return m.Origin == old }) {
			continue
		}
		m := store.Move{Origin: old, IndexURL: r.prevOrigins[old].IndexURL, ObservedAt: r.now}
		if sr := p.movedBy[old]; sr != nil {
			m.Evidence = store.MoveEvidence(sr.src.URL, sr.d != nil && len(sr.d.Redirects) > 0)
		}
		out = append(out, m)
	}
	return out
}

// resolve makes ref absolute against base.
func resolve(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	u, err := b.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// listsManifest reports whether an entry's manifest URL is manifestURL, compared canonically.
func listsManifest(indexURL string, entries []protocol.IndexEntry, manifestURL string) bool {
	m := store.CanonicalURL(manifestURL)
	for _, e := range entries {
		if store.CanonicalURL(resolve(indexURL, e.Manifest)) == m {
			return true
		}
	}
	return false
}

// safeName reports whether a project id can name a directory: lowercase hex and hyphens.
func safeName(id string) bool {
	return id != "" && strings.Trim(id, "0123456789abcdef-") == ""
}
