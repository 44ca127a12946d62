// Package refresh is the crawl stage (`ashyams refresh`): it reads every enrolled source once
// and records what the sites said (seeds/crawler.txt, seeds/state.txt). Phase 1 discovers and
// writes nothing; phase 2 reads the sites reached, keeps the last good data of the others and
// writes whole records, network.json last (the commit point). An interrupt or the deadline
// stops new work and records what was not read. Run errs only for the index's own faults.
package refresh

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// StateError is a state failing store.Check, refused before anything is read.
type StateError struct {
	State    string
	Problems []store.Problem
}

func (e *StateError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the state %s fails check with %s; a state that contradicts itself is this index's bug: fix the crawler, or delete the state and refresh from nothing. Nothing was read or written:",
		e.State, plural(len(e.Problems), "problem"))
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// Run refreshes the state at o.State from o.Sources and returns what it did.
func Run(ctx context.Context, o Options) (*Summary, error) {
	if o.State == "" {
		return nil, errors.New("no state directory given")
	}
	if err := sourceNames(o.Sources); err != nil {
		return nil, err
	}
	dir := store.OpenBatch(o.State)
	// One refresh at a time, held before Tidy (which would remove another's temporary files).
	unlock, err := lockState(o.State)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Check accepts every state a refresh cut short can leave, so anything it rejects is damage.
	if _, err := dir.Tidy(); err != nil {
		return nil, fmt.Errorf("the state's temporary files cannot be removed: %w", err)
	}
	// Records an earlier build wrote are migrated once, then checked again.
	snap, ps := dir.CheckLoad()
	if moved, err := dir.Migrate(ps); err != nil {
		return nil, fmt.Errorf("the state's records cannot be migrated: %w", err)
	} else if len(moved) > 0 {
		snap, ps = dir.CheckLoad()
	}
	if ps := refusals(ps); len(ps) > 0 {
		return nil, &StateError{State: o.State, Problems: ps}
	}
	r := newRun(o, dir, snap)
	return r.run(ctx)
}

// refusals are all problems but a cached image missing from media/, which the refresh repairs.
func refusals(ps []store.Problem) []store.Problem {
	var out []store.Problem
	for _, p := range ps {
		if p.Kind != store.MediaMissing {
			out = append(out, p)
		}
	}
	return out
}

type run struct {
	o      Options
	st     state
	get    getter // guarded, per-host limited
	discov discoverFunc
	now    string // the refresh's start time, every time it records
	p      *plan  // phase 1's conclusions, read-only in phase 2
	// interrupt ends when the refresh stops; budgets below it end as recorded facts.
	interrupt context.Context

	prevSources map[string]store.Source           // by URL
	prevOrigins map[string]store.Origin           // by id
	prevClaims  map[string]map[string]store.Claim // origin -> project -> claim
	// indexValidators by index URL, only where the held bytes hash to the recorded digest.
	indexValidators map[string]store.Validators
	hostValidators  map[string]map[string]store.Validators // the same, by the index URL's host

	mu       sync.Mutex // guards sum, led, health, srcWritten, entries and progress
	sum      *Summary
	led      *ledger
	health   map[healthKey]string // the health each record was last written with
	problems map[healthKey]*string
	// srcWritten and entries are what this refresh wrote and listed: notRead is the rest.
	srcWritten map[string]bool
	entries    map[string]map[string]protocol.IndexEntry
	srcDone    int
	siteDone   int
	siteN      int
}

type healthKey struct{ origin, project string }

func newRun(o Options, st state, snap *store.Snapshot) *run {
	o.defaults()
	client := guard.New(guard.Options{
		AllowLoopback: o.AllowLoopback,
		MaxBytes:      o.MaxBytes,
		Timeout:       o.Timeout,
		UserAgent:     product.UserAgent,
		Resolver:      o.Resolver,
		Dial:          o.Dial,
	})
	lim := limited{c: client, limit: newHostLimit(o.PerHost)}
	r := &run{
		o:           o,
		st:          st,
		get:         lim,
		now:         o.Now().UTC().Format(store.TimeFormat),
		interrupt:   context.Background(),
		prevSources: map[string]store.Source{},
		prevOrigins: map[string]store.Origin{},
		prevClaims:  map[string]map[string]store.Claim{},
		led:         &ledger{sites: map[string][]fact{}, covered: map[string]int{}, groups: map[groupKey][]string{}},
		health:      map[healthKey]string{},
		problems:    map[healthKey]*string{},
		srcWritten:  map[string]bool{},
		entries:     map[string]map[string]protocol.IndexEntry{},

		indexValidators: map[string]store.Validators{},
		hostValidators:  map[string]map[string]store.Validators{},
	}
	r.discov = r.discoverWith(client, lim.limit)
	r.sum = &Summary{StartedAt: r.now, Problems: map[string]int{}}
	for _, s := range snap.Sources {
		r.prevSources[s.URL] = s
	}
	indexSum := func(site string) (string, bool) {
		if snap.IndexDigests != nil {
			d, ok := snap.IndexDigests[site]
			return d, ok
		}
		b, err := r.st.ReadBytes(store.OriginIndexPath(site))
		return store.Digest(b), err == nil
	}
	manifestSum := func(c store.ClaimRecord) (string, bool) {
		if snap.ManifestDigests != nil {
			d, ok := snap.ManifestDigests[c.Dir]
			return d, ok
		}
		b, err := r.st.ReadBytes(store.ManifestPath(c.Project, c.Origin))
		return store.Digest(b), err == nil
	}
	for _, o := range snap.Origins {
		if o.PendingSHA256 == nil && (o.IndexSHA256 == nil || o.Validators == (store.Validators{})) {
			r.prevOrigins[o.ID] = o
			continue
		}
		sum, held := indexSum(o.ID)
		o = settleOrigin(o, sum, held)
		r.prevOrigins[o.ID] = o
		if held && o.IndexSHA256 != nil && sum == *o.IndexSHA256 && o.Validators != (store.Validators{}) {
			r.indexValidators[o.IndexURL] = o.Validators
			h := hostOf(o.IndexURL)
			if r.hostValidators[h] == nil {
				r.hostValidators[h] = map[string]store.Validators{}
			}
			r.hostValidators[h][o.IndexURL] = o.Validators
		}
	}
	for _, c := range snap.Claims {
		if c.PendingSHA256 != nil {
			sum, held := manifestSum(c)
			c.Claim = settleClaim(c.Claim, sum, held)
		}
		if r.prevClaims[c.Origin] == nil {
			r.prevClaims[c.Origin] = map[string]store.Claim{}
		}
		r.prevClaims[c.Origin][c.Project] = c.Claim
	}
	return r
}

// settleOrigin finishes a replacement a refresh cut short: the held bytes (digest sum) are the
// truth.
func settleOrigin(o store.Origin, sum string, held bool) store.Origin {
	if o.PendingSHA256 == nil {
		return o
	}
	if held && sum == *o.PendingSHA256 {
		o.IndexSHA256, o.Validators = o.PendingSHA256, store.Validators{}
	}
	o.PendingSHA256 = nil
	return o
}

// settleClaim is settleOrigin for a claim's manifest.
func settleClaim(c store.Claim, sum string, held bool) store.Claim {
	if c.PendingSHA256 == nil {
		return c
	}
	if held && sum == *c.PendingSHA256 {
		c.IngestedSHA256, c.Validators = c.PendingSHA256, store.Validators{}
	}
	c.PendingSHA256 = nil
	return c
}

func (r *run) run(interrupt context.Context) (*Summary, error) {
	// stop ends on the caller's interrupt or the deadline; what was written stays whole.
	stop, cancel := r.budget(interrupt, r.o.Deadline, &BudgetError{What: "the refresh's deadline", Budget: r.o.Deadline}, "")
	defer cancel()
	r.interrupt = stop
	ctx := stop
	srcs := append([]sources.Source(nil), r.o.Sources...)
	sort.SliceStable(srcs, func(i, j int) bool { return srcs[i].URL < srcs[j].URL })
	r.sum.Sources = len(srcs)

	// Phase 1: discovery, nothing written.
	runs := make([]*sourceRun, len(srcs))
	_, err := parallel(stop, r.o.MaxSources, len(srcs), func(i int) error {
		runs[i] = r.discoverSource(ctx, srcs[i])
		return nil
	})
	if err == nil && r.interrupted() != nil {
		return r.end(runs, nil, nil)
	}
	if err != nil {
		return r.sum, err
	}
	if err := unreachableWorld(runs); err != nil {
		return nil, err
	}
	// network.json, durable before any record, says the refresh has not finished.
	start := store.Network{Format: store.Format, Crawler: product.UserAgent, ObservedAt: r.now, Interrupted: &store.Interrupted{
		At: r.now, Unknown: true, Reason: "the refresh that started at " + r.now + " did not finish: it was stopped before it could record why (killed, or a write failed)",
		SourcesNotRead: []string{}, SitesNotRead: []string{}, SitesPartlyRead: []store.PartlyRead{}}}
	if err := r.st.WriteJSON(store.NetworkFile, start); err != nil {
		return nil, err
	}
	if err := r.st.Sync(); err != nil {
		return nil, err
	}
	plan := r.plan(runs)
	r.p = plan

	// Phase 2: records of sources no longer enrolled, then the site tasks.
	if err := r.removeSources(plan); err != nil {
		r.finish(runs)
		return r.sum, err
	}
	tasks := plan.tasks()
	r.siteN = len(tasks)
	done, err := parallel(stop, r.o.MaxSources, len(tasks), func(i int) error {
		return tasks[i].run(ctx, r)
	})
	if err != nil {
		r.finish(runs)
		return r.sum, err
	}
	if r.interrupted() == nil {
		if err := r.repairMedia(); err != nil {
			r.finish(runs)
			return r.sum, err
		}
	}
	return r.end(runs, tasks, done)
}

// end finishes a refresh no write failed: records made durable, then network.json; when
// interrupted, an *InterruptedError (nil tasks: discovery was cut short).
func (r *run) end(runs []*sourceRun, tasks []task, done []bool) (*Summary, error) {
	stopped := r.interrupted()
	if stopped == nil {
		r.finish(runs)
	} else {
		r.mu.Lock()
		r.sum.Failures = r.led.lines()
		r.sum.HealthChanges = r.healthChanges()
		r.sum.Interrupted = r.notRead(tasks, done, stopped)
		r.mu.Unlock()
	}
	if err := r.st.Sync(); err != nil {
		return r.sum, err
	}
	n := store.Network{Format: store.Format, Crawler: product.UserAgent, ObservedAt: r.now, HealthChanges: r.sum.HealthChanges, Interrupted: r.sum.Interrupted}
	if err := r.st.WriteJSON(store.NetworkFile, n); err != nil {
		return r.sum, err
	}
	if err := r.st.Sync(); err != nil {
		return r.sum, err
	}
	if stopped != nil {
		return r.sum, &InterruptedError{Reason: stopped.reason, Deadline: stopped.deadline}
	}
	for _, w := range r.sum.Warnings {
		r.progress("refresh: WARNING: %s", w)
	}
	return r.sum, nil
}

// finish completes the summary: failures grouped, health changes, warnings.
func (r *run) finish(runs []*sourceRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sort.Strings(r.sum.Removed)
	r.sum.Failures = r.led.lines()
	r.sum.HealthChanges = r.healthChanges()
	r.sum.Warnings = warnings(runs)
}

// healthChanges lists every health this refresh changed (Before "" for a first sighting), by
// origin then project. Callers hold r.mu.
func (r *run) healthChanges() []store.HealthChange {
	var out []store.HealthChange
	for k, after := range r.health {
		before := ""
		if k.project == "" {
			if o, ok := r.prevOrigins[k.origin]; ok {
				before = o.Health
			}
		} else if c, ok := r.prevClaims[k.origin][k.project]; ok {
			before = c.Health
		}
		if before != after {
			out = append(out, store.HealthChange{Project: k.project, Origin: k.origin, Before: before, After: after, Problem: r.problems[k]})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Origin != out[j].Origin {
			return out[i].Origin < out[j].Origin
		}
		return out[i].Project < out[j].Project
	})
	return out
}

// progress prints one line through termtext.Line (publisher text, no controls).
func (r *run) progress(format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintln(r.o.Progress, termtext.Line(fmt.Sprintf(format, a...)))
}

func (r *run) siteProgress(site, what string) {
	r.mu.Lock()
	r.siteDone++
	n := r.siteDone
	r.mu.Unlock()
	r.progress("refresh: site %d/%d %s: %s", n, r.siteN, site, what)
}

// fact records one failure or change for the summary and prints it as it happens.
func (r *run) fact(f fact) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sum.Problems[f.kind]++
	r.led.add(f)
	fmt.Fprintln(r.o.Progress, termtext.Line("refresh: "+f.line()))
}

// coveredClaim counts a claim made stale by its site's failure: the site's line says why.
func (r *run) coveredClaim(site, health string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sum.Problems[health]++
	r.led.covered[site]++
}

func noChanges() []diffChange { return []diffChange{} }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
