package refresh

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// hostLimit bounds the requests in flight to one host (seeds/crawler.txt, "Who is knocking": at
// most two requests to any one site). Keyed by host, which also bounds every site on it: the
// index request, manifest downloads and card images all take a slot.
type hostLimit struct {
	n    int
	mu   sync.Mutex
	sems map[string]chan struct{}
}

func newHostLimit(n int) *hostLimit { return &hostLimit{n: n, sems: map[string]chan struct{}{}} }

// hostOf is rawURL's host (with its port), lowercase; rawURL itself when it names none.
func hostOf(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		return strings.ToLower(u.Host)
	}
	return rawURL
}

// sem is rawURL's host's semaphore.
func (h *hostLimit) sem(rawURL string) chan struct{} {
	host := hostOf(rawURL)
	h.mu.Lock()
	defer h.mu.Unlock()
	sem, ok := h.sems[host]
	if !ok {
		sem = make(chan struct{}, h.n)
		h.sems[host] = sem
	}
	return sem
}

// tryAcquire takes a slot for rawURL's host only if one is free now (ok false otherwise), so a
// request asked ahead never waits for, or holds up, a slot another request needs.
func (h *hostLimit) tryAcquire(rawURL string) (release func(), ok bool) {
	sem := h.sem(rawURL)
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, true
	default:
		return nil, false
	}
}

// acquire waits for a slot for rawURL's host; release gives it back. When ctx ends first the
// error wraps its cause (a time budget, an interrupt).
func (h *hostLimit) acquire(ctx context.Context, rawURL string) (release func(), err error) {
	sem := h.sem(rawURL)
	if ctx.Err() != nil { // an ended context wins over a free slot: no request after a deadline
		return nil, fmt.Errorf("%s: not requested: %w", rawURL, context.Cause(ctx))
	}
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: not requested: %w", rawURL, context.Cause(ctx))
	}
}

// getter is the guarded client as the refresh uses it.
type getter interface {
	Get(ctx context.Context, r guard.Request) (*guard.Response, error)
}

// limited is a getter that takes a host slot for each request.
type limited struct {
	c     getter
	limit *hostLimit
}

func (l limited) Get(ctx context.Context, r guard.Request) (*guard.Response, error) {
	release, err := l.limit.acquire(ctx, r.URL)
	if err != nil {
		return nil, err
	}
	defer release()
	return l.c.Get(ctx, r)
}
