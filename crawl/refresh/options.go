package refresh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

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
	// DiscoveryBudget bounds one source's discovery from when it gets its host slot; default
	// DefaultDiscoveryBudget or a third of the Deadline, whichever is shorter. Running out is the
	// source's problem, naming the budget; its site keeps its last good data. Sites are read only
	// after every discovery ends, so this keeps one slow source from starving the healthy ones.
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
	// observe, when set, is told every fetched manifest before it is settled (Inspect);
	// it is called from the claims' goroutines.
	observe func(indexURL string, f fetchResult)
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
