package refresh

import (
	"context"
	"errors"
	"slices"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// InterruptedError is a refresh cut short (a signal, the deadline): records stay whole, and
// network.json says what was not read.
type InterruptedError struct {
	Reason   string // the context's cause, or the deadline's BudgetError
	Deadline bool   // Options.Deadline ran out, not the caller's context
}

func (e *InterruptedError) Error() string {
	return "the refresh was interrupted (" + e.Reason + "): every record is whole, and network.json says what was not read; the next refresh reads it"
}

// stopError is the refresh's stop seen by a task, which ends without writing.
type stopError struct {
	reason   string
	deadline bool
}

func (e *stopError) Error() string { return e.reason }

// interrupted is the refresh's stop once it happened.
func (r *run) interrupted() *stopError {
	if r.interrupt.Err() == nil {
		return nil
	}
	cause := context.Cause(r.interrupt)
	var be *BudgetError
	if errors.As(cause, &be) {
		return &stopError{reason: be.Error(), deadline: true}
	}
	return &stopError{reason: cause.Error()}
}

// stopped is interrupted as an error.
func (r *run) stopped() error {
	if s := r.interrupted(); s != nil {
		return s
	}
	return nil
}

// budget starts a time budget below ctx ending with cause after d; subject lets tests end it.
func (r *run) budget(ctx context.Context, d time.Duration, cause *BudgetError, subject string) (context.Context, context.CancelFunc) {
	if r.o.budget != nil {
		return r.o.budget(ctx, d, cause, subject)
	}
	return context.WithTimeoutCause(ctx, d, cause)
}

// parallel runs f(0..n-1), at most k at once, reporting which ran to the end. Once stop is done
// or an f failed it starts nothing more and returns the first failure (not a *stopError).
func parallel(stop context.Context, k, n int, f func(int) error) ([]bool, error) {
	g, halt := errgroup.WithContext(stop)
	g.SetLimit(k)
	done := make([]bool, n) // one writer per element; Wait orders writes before the read
	for i := 0; i < n && halt.Err() == nil; i++ {
		g.Go(func() error {
			if halt.Err() != nil { // halted while waiting for a slot
				return nil
			}
			err := f(i)
			var se *stopError
			if errors.As(err, &se) {
				return nil
			}
			done[i] = err == nil
			return err
		})
	}
	return done, g.Wait()
}

// task is one unit of phase 2, writing one site's records and its sources'.
type task struct {
	site    string   // "" for the sources no site is read through
	sources []string // the enrolled sources whose records it writes
	run     func(context.Context, *run) error
}

// notRead lists what an interrupted refresh did not read (callers hold r.mu).
func (r *run) notRead(tasks []task, done []bool, s *stopError) *store.Interrupted {
	x := &store.Interrupted{At: r.o.Now().UTC().Format(store.TimeFormat), Reason: s.reason,
		SourcesNotRead: []string{}, SitesNotRead: []string{}, SitesPartlyRead: []store.PartlyRead{}}
	for _, src := range r.o.Sources {
		if !r.srcWritten[src.URL] {
			x.SourcesNotRead = append(x.SourcesNotRead, src.URL)
		}
	}
	if r.p != nil {
		for _, src := range r.p.removed {
			if !r.srcWritten[src.URL] {
				x.SourcesNotRead = append(x.SourcesNotRead, src.URL)
			}
		}
	}
	sort.Strings(x.SourcesNotRead)
	x.SourcesNotRead = slices.Compact(x.SourcesNotRead)
	// Each site's task is its own, or for a site moving into another, that other's.
	finished := map[string]bool{}
	owner := map[string]string{}
	sites := map[string]bool{}
	for id := range r.prevOrigins {
		sites[id] = true
	}
	for i, t := range tasks {
		if t.site == "" {
			continue
		}
		sites[t.site] = true
		owner[t.site] = t.site
		finished[t.site] = done[i]
	}
	if r.p != nil {
		for old, to := range r.p.moves {
			owner[old] = to
		}
		for site, olds := range r.p.pending {
			for _, old := range olds {
				owner[old] = site
			}
		}
	}
	written := map[string]map[string]bool{} // site -> projects written ("" the origin)
	for k := range r.health {
		if written[k.origin] == nil {
			written[k.origin] = map[string]bool{}
		}
		written[k.origin][k.project] = true
	}
	for _, site := range sortedKeys(sites) {
		if o, ok := owner[site]; ok && finished[o] {
			continue
		}
		if len(written[site]) == 0 {
			x.SitesNotRead = append(x.SitesNotRead, site)
			continue
		}
		projects := map[string]bool{}
		for id := range r.entries[site] {
			projects[id] = true
		}
		for id, c := range r.prevClaims[site] {
			if c.Health != store.ClaimWithdrawn {
				projects[id] = true
			}
		}
		pr := store.PartlyRead{Site: site, Projects: []string{}}
		for _, id := range sortedKeys(projects) {
			if !written[site][id] {
				pr.Projects = append(pr.Projects, id)
			}
		}
		x.SitesPartlyRead = append(x.SitesPartlyRead, pr)
	}
	return x
}
