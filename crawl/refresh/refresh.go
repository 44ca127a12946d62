// Package refresh is the crawl stage (`ashyams refresh`): it reads every enrolled source once,
// discovers its site index, validates it, downloads only the manifests whose advertised digest
// differs from the one held, checks, validates and diffs them, and records everything in the
// state directory. Normative: seeds/crawler.txt and seeds/state.txt; SPEC sections 2 and 3.
//
// What a refresh does, in order:
//
//  0. The state is read once, checked and loaded in one pass (store.CheckLoad, after removing a
//     killed refresh's temporary files): a state that fails is refused with every problem
//     named, before any request or write. A cached image the state names but media/ lacks is
//     no reason: the refresh fetches it again, or records on the claim why it could not.
//  1. network.json is written first (the refresh's start time, the crawler, and an interrupted
//     record saying the refresh has not finished), so a refresh killed at any point leaves a
//     state that passes `check` and says it was cut short. Records are then written whole
//     (renamed into place) but not synced one by one; at the end they are synced together and
//     network.json, the commit point, is written again: with the health changes, and without
//     the interrupted record unless the refresh was interrupted.
//  2. Every enrolled source is discovered, at most Options.MaxSources at once, each within its
//     discovery budget (Options.DiscoveryBudget). Nothing is written yet. Why sites wait for
//     every discovery: whether a source moved, which sources share a site, and which two index
//     URLs would collide on one site id are only known once all sources are discovered, and a
//     site read before that could be written under the wrong claims. Instead of pipelining,
//     discovery is bounded: a healthy site waits at most for the slowest discovery in its wave
//     (one budget, default 2 min), never for the deadline.
//  3. Sources no longer listed in sources.toml are marked removed; sites no enrolled source
//     leads to any more have their claims withdrawn (records and history stay). A site the
//     enrolled source's record names, when it now leads to another site on evidence from the
//     enrolled URL itself, is a move: claims the new site lists get moved_to, and the new claims
//     moved_from. crawl/discover weighs the evidence: the enrolled URL being the index or its page
//     linking one, in place or through permanent redirects (301, 308), moves it outright; an
//     index at the enrolled URL's own level (beside it, beside where its permanent redirects
//     ended, beside the manifest its page links) only once the held index is gone (404, 410, or
//     not a site index); a temporary redirect (302, 303, 307) or a walk up to a parent directory
//     never does, and an outage of the held index never lets anything move. A move into a site
//     whose index cannot be read yet is pending: the old claims stay, stale, until it reads.
//     Two index URLs that would share one site id never share a record: the held one keeps it.
//  4. Each site reached is read: index validated, held bytes replaced only by a valid index,
//     each entry's manifest_sha256 compared with the held manifest's digest, changed manifests
//     fetched (conditional GET), checked against the digest with the 5 s / 20 s re-read, validated
//     with the entry's id, diffed, recorded. Claims the index no longer lists are withdrawn. A
//     re-read index a claim was settled with becomes the held index.
//  5. Sites whose enrolled sources failed keep their data; their claims say why they are stale.
//  6. The summary: counts, health changes, each failure once (a site's covers its claims), and
//     a loud warning when every source failed.
//
// Everything in crawler.txt "What never fails a refresh" is recorded on the source, site or
// claim and the refresh goes on. So are the per-source and per-site time budgets
// (Options.DiscoveryBudget, Options.SiteBudget): what they cut short keeps its last good data
// and names the budget.
//
// An interrupt (the caller's context ending: SIGINT, SIGTERM) or the deadline (Options.Deadline)
// stops the refresh: no new work starts, requests in flight are abandoned (a claim whose
// manifest was in flight is not written at all), every write begun finishes whole, and
// network.json records that the refresh was interrupted, when, why, and which sources and sites
// it did not read or only partly read (store.Interrupted); those keep their previous records
// untouched. Run then returns the Summary with an *InterruptedError. Otherwise it returns an
// error only for the index's own bugs: a state that fails store.Check (refused before any
// request), a write that fails.
package refresh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/discover"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// Policy defaults (crawler policy, not the protocol; seeds/crawler.txt).
const (
	DefaultMaxSources = 8                // sources read at once
	DefaultPerHost    = 2                // requests in flight to one host
	DefaultSiteBudget = 10 * time.Minute // one site's reading after discovery: manifests, re-reads, images
	// DefaultDiscoveryBudget bounds one source's discovery (at most a third of the deadline).
	DefaultDiscoveryBudget = 2 * time.Minute
	DefaultDeadline        = 45 * time.Minute // the whole refresh, well inside a scheduled job's limit
	DefaultMaxImageBytes   = 4 << 20          // card image body limit, bytes
	DefaultMaxImageSide    = 8192             // card image width or height limit, pixels
	DefaultMaxImagePixels  = 4096 * 4096
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

	// SiteBudget bounds reading one site once discovery found its index (its manifests, the
	// index re-reads after a mismatch and their waits, card images); default 10 min. Claims not
	// read in time keep their last good manifest as manifest-unreachable, the problem naming the
	// budget.
	SiteBudget time.Duration
	// DiscoveryBudget bounds one source's discovery, from when it gets its host slot (every
	// request of the walk, the held index asked again); default DefaultDiscoveryBudget or a
	// third of the Deadline, whichever is shorter. A discovery cut short is the source's
	// problem, naming the budget ("the source's discovery budget (2m0s) ran out"); its site
	// keeps its last good data. Every site is read only once every discovery has ended (the
	// moves and site id collisions are decided over all of them), so this bound is what keeps
	// one slow source (a page linking a manifest 300 directories deep, each level a slow 404)
	// from starving every healthy site until the deadline.
	DiscoveryBudget time.Duration
	// Deadline bounds the whole refresh (--deadline); default 45 min, so the scheduled job always
	// reaches its commit and deploy. When it runs out the refresh stops as on an interrupt:
	// what was not read keeps its records, network.json lists it, Run returns an
	// *InterruptedError.
	Deadline time.Duration

	Resolver guard.Resolver // name resolution for the guard; nil = the guard's default
	Dial     guard.DialFunc // dials a checked address; nil = the guard's default (the demo maps .example hosts to its loopback server)

	// subject is how problems name the URL a source's discovery starts from: "the enrolled
	// URL" (the default), or "the URL" for Inspect, which reads a URL nobody enrolled.
	subject string
	// budget starts each time budget (run.budget); nil = context.WithTimeoutCause. Tests end
	// budgets themselves through it, so no test depends on how fast the machine is.
	budget func(ctx context.Context, d time.Duration, cause *BudgetError, subject string) (context.Context, context.CancelFunc)
}

func (o *Options) defaults() {
	if o.subject == "" {
		o.subject = "the enrolled URL"
	}
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
	if o.SiteBudget <= 0 {
		o.SiteBudget = DefaultSiteBudget
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.DiscoveryBudget <= 0 {
		o.DiscoveryBudget = min(DefaultDiscoveryBudget, max(o.Deadline/3, 1))
	}
}

// BudgetError is a time budget that ran out (Options.SiteBudget, Options.Deadline). Crawler
// policy like the size limit: what it cut short keeps its last good data and says which budget.
type BudgetError struct {
	What   string        // "the site's time budget", "the refresh's deadline"
	Budget time.Duration // the budget's length
}

func (e *BudgetError) Error() string { return fmt.Sprintf("%s (%s) ran out", e.What, e.Budget) }

func isBudget(err error) bool {
	var be *BudgetError
	return errors.As(err, &be)
}

// StateError is a state directory that fails store.Check: this index's own bug (or a hand
// edit), refused before anything is read, so a refresh never launders it (a tampered held
// manifest taken for a 304's body, a forged event kept). Problems lists every one.
type StateError struct {
	State    string
	Problems []store.Problem
}

func (e *StateError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the state %s fails check with %s; a state that contradicts itself is this index's bug: fix the crawler, or delete the state and refresh from nothing. Nothing was read or written:",
		e.State, plural(len(e.Problems), "problem", "problems"))
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
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
		return nil, errors.New("no state directory given")
	}
	if err := sourceNames(o.Sources); err != nil {
		return nil, err
	}
	dir := store.OpenBatch(o.State)
	// One refresh at a time (created on the first refresh): held before Tidy, which would
	// otherwise remove another refresh's temporary files, and until the last write.
	unlock, err := lockState(o.State)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Temporary files a killed refresh left are removed first (never records); then no
	// exception, not even for states this crawler wrote: Check accepts every state a refresh
	// cut short can leave (pending_sha256), so anything it rejects is damage.
	if _, err := dir.Tidy(); err != nil {
		return nil, fmt.Errorf("the state's temporary files cannot be removed: %w", err)
	}
	// One pass reads, checks and loads every record.
	snap, ps := dir.CheckLoad()
	if ps := refusals(ps); len(ps) > 0 {
		return nil, &StateError{State: o.State, Problems: ps}
	}
	r := newRun(o, dir, snap)
	return r.run(ctx)
}

// refusals are the problems a refresh refuses a state for: all but a cached image missing
// from media/, which the refresh repairs (cardImage fetches it again, or records why not).
func refusals(ps []store.Problem) []store.Problem {
	var out []store.Problem
	for _, p := range ps {
		if p.Kind != store.MediaMissing {
			out = append(out, p)
		}
	}
	return out
}

// sourceNames refuses a source list two of whose URLs would share one record name (SourceID is
// a slug and 32 bits of a digest): the state could not hold both, and one would overwrite the
// other. A configuration the state cannot represent is this index's to fix, before any request.
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

// run is one refresh.
type run struct {
	o      Options
	st     state
	get    getter // guarded, per-host limited
	discov discoverFunc
	now    string // the refresh's start time: every time recorded by this refresh
	p      *plan  // phase 1's conclusions, read-only in phase 2
	// interrupt ends when the refresh stops: the caller's context ended or the deadline ran out
	// (interrupted says which). The per-source and per-site budgets are contexts below it
	// whose end is recorded as a fact instead.
	interrupt context.Context

	prevSources map[string]store.Source           // by URL
	prevOrigins map[string]store.Origin           // by id
	prevClaims  map[string]map[string]store.Claim // origin -> project -> claim
	// indexValidators are the held site indexes' validators by index URL, only where the held
	// bytes still hash to the recorded digest (a 304 must mean "what you hold").
	indexValidators map[string]store.Validators
	hostValidators  map[string]map[string]store.Validators // the same, by the index URL's host

	mu       sync.Mutex // guards sum, led, health, srcWritten, entries and progress
	sum      *Summary
	led      *ledger
	health   map[healthKey]string // the health each record was last written with
	problems map[healthKey]*string
	// srcWritten are the source URLs whose record this refresh wrote; entries the projects
	// each site read lists: what an interrupted refresh did not read is the rest (notRead).
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
		led:         newLedger(),
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
	// The held bytes' digests: from the check that opened the state, else read here.
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

// settleOrigin finishes a replacement a refresh cut short: the held bytes (digest sum, when
// held) are the truth. When they are the pending ones, they become the recorded digest (their
// validators are unknown).
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

// sourceRun is one enrolled source after discovery.
type sourceRun struct {
	src  sources.Source
	prev *store.Source
	d    *discovery // what discovery found; its trail is kept even when it failed
	err  error      // why discovery failed (nil: d.IndexURL is the site index)
	site string     // the site discovery ended at ("" when it failed)
	// unusable is set when the site index discovery reached could not be used: the source's
	// health and problem then (FORMATS section 1.2).
	unusable *verdict
}

// verdict is a health token and its problem.
type verdict struct{ health, problem string }

// sourceHealth is the health of a source whose discovery failed (FORMATS section 1.2): a
// broken <link>; refused by crawler policy (an address, a scheme, credentials, redirects, a
// size limit; or a site id another index URL holds); no-index when every URL answered "not
// here" or the held index is gone; unreachable for any other failure, a time budget included.
func sourceHealth(err error) string {
	var de *discover.Error
	var ce *collisionError
	isDiscover := errors.As(err, &de)
	switch {
	case isDiscover && de.BrokenLink:
		return store.SourceBrokenLink
	case isBudget(err):
		return store.SourceUnreachable
	case guard.KindOf(err).Refusal(), errors.As(err, &ce):
		return store.SourceRefused
	case isDiscover && (!de.Outage || de.Status == 404 || de.Status == 410):
		return store.SourceNoIndex
	}
	return store.SourceUnreachable
}

func (r *run) run(interrupt context.Context) (*Summary, error) {
	// stop ends on the caller's interrupt (a signal) or at the deadline: from then on no new
	// work starts and requests in flight are abandoned; what was written stays, whole.
	stop, cancel := r.budget(interrupt, r.o.Deadline, &BudgetError{What: "the refresh's deadline", Budget: r.o.Deadline}, "")
	defer cancel()
	r.interrupt = stop
	ctx := stop
	// network.json first, saying the refresh has not finished: if the process is killed, that
	// is what the state says. It is durable before any record changes.
	start := store.Network{Format: store.Format, Crawler: product.UserAgent, ObservedAt: r.now, Interrupted: &store.Interrupted{
		At: r.now, Unknown: true, Reason: "the refresh that started at " + r.now + " did not finish: it was stopped before it could record why (killed, or a write failed)",
		SourcesNotRead: []string{}, SitesNotRead: []string{}, SitesPartlyRead: []store.PartlyRead{}}}
	if err := r.st.WriteJSON(store.NetworkFile, start); err != nil {
		return nil, err
	}
	if err := r.st.Sync(); err != nil {
		return nil, err
	}
	srcs := append([]sources.Source(nil), r.o.Sources...)
	sort.SliceStable(srcs, func(i, j int) bool { return srcs[i].URL < srcs[j].URL })
	r.sum.Sources = len(srcs)

	// Phase 1: discovery, nothing written. Cut short, nothing is recorded but that.
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
	plan := r.plan(runs)
	r.p = plan

	// Phase 2: records. First the records of sources no longer enrolled (their origins rewritten
	// without them, then the records deleted), then the tasks: sites nobody leads to any more
	// are removed, every site reached is read, every site whose sources failed says so.
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

// end finishes a refresh that was not failed by a write: the summary, then every record
// written so far made durable, then network.json, the commit point, with what changed health
// and, when the refresh was interrupted (tasks and done say which ran to the end; nil tasks:
// discovery was cut short, nothing was recorded), what it did not read. An interrupted refresh
// returns an *InterruptedError with its summary.
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

// warnings: when every source failed, the likeliest cause is not the sites but the runner's
// network, or a local drill without --allow-loopback; say so loudly (the refresh still
// succeeds: each failure is recorded as a fact about its source).
func warnings(runs []*sourceRun) []string {
	if len(runs) == 0 {
		return nil
	}
	loopback, budget := true, ""
	for i, sr := range runs {
		if sr.err == nil {
			return nil
		}
		var ge *guard.Error
		if !errors.As(sr.err, &ge) || !ge.Loopback {
			loopback = false
		}
		var be *BudgetError
		switch {
		case !errors.As(sr.err, &be):
			budget = "-"
		case i == 0:
			budget = be.What
		case be.What != budget:
			budget = "-"
		}
	}
	if budget != "-" {
		return []string{"every source failed: " + budget + " ran out before any was read"}
	}
	out := []string{"every source failed; is the network reachable?"}
	if loopback {
		out = append(out, "every source was refused as a loopback address: did you mean --allow-loopback?")
	}
	return out
}

// healthChanges lists every claim and site whose health this refresh changed, first sightings
// included (Before ""), by origin then project (the site's own first). Callers hold r.mu.
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

// putClaim writes a claim's final record for this refresh and notes its health. A cached image
// it names that media/ lacks (and this refresh did not fetch again) is recorded as not cached.
func (r *run) putClaim(c store.Claim) error {
	c.Media = r.mediaHeld(c.Media)
	if err := r.st.WriteJSON(store.ClaimPath(c.Project, c.Origin), c); err != nil {
		return err
	}
	r.mu.Lock()
	k := healthKey{c.Origin, c.Project}
	r.health[k], r.problems[k] = c.Health, c.Problem
	r.mu.Unlock()
	return nil
}

// mediaHeld is m, or when the image file it names is missing from the state, m without the
// file and with a problem saying so; the next read of the claim fetches the image again (the
// problem is not definitive).
func (r *run) mediaHeld(m *store.Media) *store.Media {
	if m == nil || m.File == nil || r.st.Exists(*m.File) {
		return m
	}
	problem := "not cached: the image file " + *m.File + " is missing from the state; it is fetched again when the claim is next read"
	return &store.Media{URL: m.URL, Alt: m.Alt, Problem: &problem}
}

// repairMedia rewrites the held claims this refresh did not write whose cached image file is
// missing from the state, so the state it leaves passes check.
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
	if err := r.st.WriteJSON(store.OriginPath(o.ID), o); err != nil {
		return err
	}
	r.mu.Lock()
	k := healthKey{o.ID, ""}
	r.health[k], r.problems[k] = o.Health, o.Problem
	r.mu.Unlock()
	return nil
}

// progress prints one progress line through store.TermLine: it quotes publisher text (URLs,
// problems quoting documents), which must not reach the terminal or the CI log as controls,
// bidi overrides, line separators or workflow commands.
func (r *run) progress(format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintln(r.o.Progress, store.TermLine(fmt.Sprintf(format, a...)))
}

// discoverSource runs discovery for one enrolled source.
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

// held is what discovery may ask conditionally, and what it must not move away from without
// evidence: the validators of every held site index on the enrolled URL's host (where
// discovery's walk and a same-site link lead) and of the source's own held index, by index URL
// (only where the held bytes still hash to the recorded digest: a 304 must mean "what you
// hold", and we must hold it), the enrolled URL's own validators (only when its conclusion's
// index is held that way), and the previous conclusion. The held site index is the source's
// last known site even when the source failed last time: an outage followed by a 404 is no
// more a move than either alone.
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

// removeSources deletes the records of the sources no longer listed in sources.toml (FORMATS
// section 1.11): each origin that lists one is rewritten without it first, so at every moment an
// origin's sources exist. Their sites, if no source leads there any more, go in their own tasks
// (removeSite); their events stay.
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

// writeSource records one enrolled source after discovery. site is the origin it leads to now
// (nil: discovery failed; the last known origin stays named). covered is the site whose failure
// line already says why this source failed ("" when none): the source's own line then points
// there instead of repeating the problem, so every "source unresolved" counted is also listed.
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
		s.Method = strp(sr.d.Method)
		s.Validators = sr.d.PageValidators
		if sr.unusable == nil {
			s.LastSuccess = strp(r.now)
		} else {
			// The index was reached but cannot be used: resolved with the parse problem, or
			// the health of what stopped it (a newer protocol; the held bytes gone after a
			// 304 and the refetch failing). The site's line says why.
			s.Health, s.Problem = sr.unusable.health, strp(sr.unusable.problem)
			if s.Health != store.SourceResolved {
				r.fact(sourceFact(sr.src.URL, "source "+s.Health, s.Health, "its site "+*site+" could not be read (the site's line says why)"))
			}
		}
	} else {
		s.Health = sourceHealth(sr.err)
		s.Problem = strp(sr.err.Error())
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

// putSource writes a source's record and notes it written.
func (r *run) putSource(s store.Source) error {
	if err := r.st.WriteJSON(store.SourcePath(store.SourceID(s.URL)), s); err != nil {
		return err
	}
	r.mu.Lock()
	r.srcWritten[s.URL] = true
	r.mu.Unlock()
	return nil
}

// removeSite deletes a held site no enrolled source leads to any more (FORMATS section 1.11):
// each claim's manifest.json and claim.json, then the site's dreamweave.json and origin.json.
// Events stay. Before a held file goes its record stops vouching for it (its digest moves to
// pending_sha256, which check accepts with or without the file), so a refresh cut short at any
// point leaves a state that passes check, and the next refresh removes the rest. line is the
// summary's line for it.
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

// releaseSite rewrites a site the enrolled source moved away from without the sources that
// now lead elsewhere, before their records name the new site. Its claims stay until the move
// is finished (removeMoved).
func (r *run) releaseSite(old string) error {
	o, ok := r.prevOrigins[old]
	if !ok || len(o.Sources) == 0 {
		return nil
	}
	o.Sources = []string{}
	return r.st.WriteJSON(store.OriginPath(old), o)
}

// movePending keeps the claims of a site the enrolled source moved away from, while the site it
// now leads to cannot be read: last good data stays, stale, and says where the source leads.
// The move is recorded once the new index reads (plan: origin.previous keeps the link).
func (r *run) movePending(old, newIndexURL, problem string) error {
	o, ok := r.prevOrigins[old]
	if !ok {
		return nil
	}
	msg := "the enrolled source now leads to the site index " + newIndexURL + ", which could not be read (" + problem + "); the move is recorded once it reads, and until then this site's last good data stays"
	o.Health, o.Problem, o.LastAttempt = store.OriginUnreachable, &msg, r.now
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
		c.Health, c.Problem, c.LastAttempt = store.ClaimOriginUnavailable, &msg, r.now
		if err := r.putClaim(c); err != nil {
			return err
		}
		r.coveredClaim(old, store.ClaimOriginUnavailable)
	}
	return nil
}

// withdraw marks a claim withdrawn (once; its problem null, FORMATS section 1.4) and records
// the transition when the claim ever held a manifest. The record, its held manifest and its
// history stay; why is the summary's words.
func (r *run) withdraw(site string, c store.Claim, why string) error {
	if c.Health == store.ClaimWithdrawn {
		return nil
	}
	c.Health, c.Problem = store.ClaimWithdrawn, nil
	c.LastAttempt = r.now
	if err := r.putClaim(c); err != nil {
		return err
	}
	if c.IngestedSHA256 != nil { // a claim that never held a manifest leaves no event
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

// event writes e unless an event with its id exists. The id is store.EventID of the event's
// facts (kind, project, site, digest before and after; SPEC section 3), so a transition seen
// again with identical facts (a claim withdrawn, restored and withdrawn again over the same held
// manifest; a refresh re-run over the same observations) is the same event: it is not written
// twice, and the summary counts it as already recorded.
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

// siteFailed records that every source leading to a held site failed this time: the site's
// health says why, its claims are marked stale, nothing held changes.
func (r *run) siteFailed(ctx context.Context, p *plan, site string) error {
	srs := p.failed[site]
	health, problem := r.failureVerdict(ctx, site, srs[0].err)
	if err := r.stopped(); err != nil { // the probe was cut short: nothing is written
		return err
	}
	if err := r.originUnavailable(site, health, problem, sourceURLs(srs)); err != nil {
		return err
	}
	for _, old := range p.pending[site] {
		if err := r.movePending(old, r.prevOrigins[site].IndexURL, problem); err != nil {
			return err
		}
	}
	for _, sr := range srs {
		if err := r.writeSource(sr, nil, site); err != nil {
			return err
		}
	}
	r.siteProgress(site, health+": "+problem)
	return nil
}

// failureVerdict is a held site's health and problem when discovery through its sources failed.
// A page whose DreamWeave <link> is broken is no-index (the page links no readable index). An
// outage (discovery stopped at an answer that was not a definite "not here") is unreachable,
// or no-index when the held index itself answered 404 or 410; a body that is not well-formed
// JSON at the held index is that index's verdict (invalid-index with the finding's line and
// column); a body over the size limit is refused by crawler policy; an address guard refusal is
// unreachable (SSRF protection is not a resource limit); a time budget says so. When every URL
// answered "not here", the held index is asked why (probe).
func (r *run) failureVerdict(ctx context.Context, site string, err error) (health, problem string) {
	x := r.prevOrigins[site].IndexURL
	var de *discover.Error
	if !errors.As(err, &de) {
		if isBudget(err) {
			return store.OriginUnreachable, "not read: " + err.Error()
		}
		return store.OriginUnreachable, err.Error()
	}
	atHeld := de.At == x || de.Asked == x
	switch {
	case de.BrokenLink: // the page now links no readable index: discovery stopped, nothing walked around it
		return store.OriginNoIndex, de.Problem
	case !de.Outage:
		return r.probe(ctx, site, de.Problem)
	case len(de.Findings) > 0 && atHeld:
		h, verdict := indexVerdict(de.Findings)
		return h, "the site index at " + x + " " + strings.TrimPrefix(verdict, "the site index ")
	case guard.KindOf(err) == guard.KindTooLarge:
		return store.OriginRefused, de.Problem
	case atHeld && (de.Status == 404 || de.Status == 410):
		return store.OriginNoIndex, de.Problem
	}
	return store.OriginUnreachable, de.Problem
}

// probe asks the held site index URL itself why discovery found nothing there (every URL
// answered "not here"): an outage (5xx, a timeout, a network error, a refused address) is
// "unreachable", a body over the limit "refused", a document that is not a valid site index
// its verdict, and anything else (a 404, a valid index the enrolled URL no longer leads to)
// "no-index".
func (r *run) probe(ctx context.Context, site, problem string) (health, detail string) {
	u := r.prevOrigins[site].IndexURL
	resp, err := r.get.Get(ctx, guard.Request{URL: u, Accept: acceptIndex})
	switch {
	case guard.KindOf(err) == guard.KindTooLarge:
		return store.OriginRefused, fmt.Sprintf("%s; the held site index %s %s", problem, u, guard.Words(err, guard.Predicate))
	case err != nil:
		return store.OriginUnreachable, problem + "; the held site index could not be read: " + err.Error()
	case resp.Status >= 500 || resp.Status == 408 || resp.Status == 429:
		return store.OriginUnreachable, fmt.Sprintf("%s; the held site index %s answers HTTP %d", problem, u, resp.Status)
	case resp.Status != 200:
		return store.OriginNoIndex, fmt.Sprintf("%s; the held site index %s answers HTTP %d", problem, u, resp.Status)
	}
	if _, fs, _ := validateIndex(resp.Body); len(fs) > 0 {
		h, verdict := indexVerdict(fs)
		return h, problem + "; the site index at " + u + " " + strings.TrimPrefix(verdict, "the site index ")
	}
	return store.OriginNoIndex, problem + "; the held site index " + u + " still answers as a site index, but the enrolled URL no longer leads to it"
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
	if err := r.putOrigin(o); err != nil {
		return err
	}
	r.fact(siteFact(site, health, problem, srcs))
	return r.claimsUnavailable(site, problem)
}

// claimsUnavailable marks a site's listed claims stale because the site could not be read;
// the site's own line in the summary covers them.
func (r *run) claimsUnavailable(site, problem string) error {
	for _, project := range sortedKeys(r.prevClaims[site]) {
		c := r.prevClaims[site][project]
		if c.Health == store.ClaimWithdrawn {
			continue
		}
		msg := "the site could not be read on the last crawl: " + problem
		c.Health, c.Problem, c.LastAttempt = store.ClaimOriginUnavailable, &msg, r.now
		if err := r.putClaim(c); err != nil {
			return err
		}
		r.coveredClaim(site, store.ClaimOriginUnavailable)
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

// fact records one failure or change for the summary (counted by kind, listed once, grouped)
// and prints it as it happens, so a person watching sees what failed.
func (r *run) fact(f fact) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sum.Problems[f.kind]++
	r.led.add(f)
	fmt.Fprintln(r.o.Progress, store.TermLine("refresh: "+f.line()))
}

// coveredClaim counts a claim made stale by its site's failure: the site's line says why.
func (r *run) coveredClaim(site, health string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sum.Problems[health]++
	r.led.cover(site)
}

// indexVerdict turns site index findings into origin health and a problem.
func indexVerdict(fs []protocol.Finding) (health, problem string) {
	switch {
	case protocol.IsRefused(fs):
		return store.OriginRefused, "the site index is over the document limit: " + protocol.Summary(fs)
	case protocol.IsNewerProtocol(fs):
		return store.OriginUnsupportedVersion, "the site index speaks a newer protocol (" + protocol.Summary(fs) + "); last good data kept"
	case protocol.IsNotDreamWeave(fs):
		return store.OriginNoIndex, "the site index is not a DreamWeave site index: " + protocol.Summary(fs)
	}
	return store.OriginInvalidIndex, "the site index fails the protocol: " + protocol.Summary(fs)
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

func noChanges() []diffChange { return []diffChange{} }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
