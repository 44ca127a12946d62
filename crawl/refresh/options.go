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
	DefaultMaxSources      = 8 // sources read at once
	DefaultPerHost         = 2 // requests in flight to one host
	DefaultSiteBudget      = 10 * time.Minute
	DefaultDiscoveryBudget = 2 * time.Minute
	DefaultDeadline        = 45 * time.Minute
	DefaultMaxImageBytes   = 4 << 20
	DefaultMaxImageSide    = 8192
	DefaultMaxImagePixels  = 4096 * 4096
)

// RetryWaits are the half-finished deployment waits (seeds/crawler.txt): after a digest
// mismatch, wait, re-read the site index and fetch again, once per wait.
var RetryWaits = []time.Duration{5 * time.Second, 20 * time.Second}

// Options configure a refresh. State and Sources are required; zero fields take the Default*.
type Options struct {
	State   string           // state directory root (created when absent)
	Sources []sources.Source // the enrolled sources (sources.Load)

	AllowLoopback bool // --allow-loopback: admit 127.0.0.0/8 and ::1, nothing else

	Now      func() time.Time                                 // clock; default time.Now
	Sleep    func(ctx context.Context, d time.Duration) error // RetryWaits; default a timer honouring ctx
	Progress io.Writer                                        // progress lines (stderr); nil = none

	MaxSources     int           // sources read at once
	PerHost        int           // requests in flight per host
	MaxBytes       int64         // document limit in bytes; default guard.DefaultMaxBytes
	Timeout        time.Duration // one deadline per request; default guard.DefaultTimeout
	MaxImageBytes  int64         // card image body limit in bytes
	MaxImageSide   int           // card image width and height limit in pixels
	MaxImagePixels int64         // card image area limit in pixels

	// SiteBudget bounds reading one site after discovery (manifests, index re-reads and their
	// waits, card images). Claims not read in time keep their last good
	// manifest as manifest-unreachable, the problem naming the budget.
	SiteBudget time.Duration
	// DiscoveryBudget bounds one source's discovery from its host slot on (default the shorter
	// of DefaultDiscoveryBudget and Deadline/3), so one slow source cannot starve the rest.
	DiscoveryBudget time.Duration
	// Deadline bounds the whole refresh (--deadline), so the scheduled job reaches its commit.
	// It stops the refresh as an interrupt does (*InterruptedError).
	Deadline time.Duration

	Resolver guard.Resolver // name resolution for the guard; nil = the guard's default
	Dial     guard.DialFunc // dials a checked address; nil = the guard's default

	// subject names the URL discovery starts from in problems: "the enrolled URL" by default,
	// "the URL" for Inspect.
	subject string
	// budget starts each time budget (run.budget); nil = context.WithTimeoutCause. Tests end
	// budgets through it, so none depends on the machine's speed.
	budget func(ctx context.Context, d time.Duration, cause *BudgetError, subject string) (context.Context, context.CancelFunc)
	// observe is told every fetched manifest before it is settled (Inspect), from the claims'
	// goroutines.
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
	orDefault(&o.MaxSources, DefaultMaxSources)
	orDefault(&o.PerHost, DefaultPerHost)
	orDefault(&o.MaxBytes, guard.DefaultMaxBytes)
	orDefault(&o.MaxImageBytes, DefaultMaxImageBytes)
	orDefault(&o.MaxImageSide, DefaultMaxImageSide)
	orDefault(&o.MaxImagePixels, DefaultMaxImagePixels)
	orDefault(&o.SiteBudget, DefaultSiteBudget)
	orDefault(&o.Deadline, DefaultDeadline)
	orDefault(&o.DiscoveryBudget, min(DefaultDiscoveryBudget, max(o.Deadline/3, 1)))
}

func orDefault[T int | int64 | time.Duration](p *T, d T) {
	if *p <= 0 {
		*p = d
	}
}

// BudgetError is a time budget that ran out: crawler policy like the size limit, so what it cut
// short keeps its last good data and says which budget.
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
