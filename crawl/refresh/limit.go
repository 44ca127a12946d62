package refresh

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// hostLimit bounds the requests in flight to one host (seeds/crawler.txt, "Who is knocking").
type hostLimit struct {
	n    int
	mu   sync.Mutex
	sems map[string]chan struct{}
}

func newHostLimit(n int) *hostLimit { return &hostLimit{n: n, sems: map[string]chan struct{}{}} }

// hostOf is rawURL's host:port, lowercase; rawURL itself when it names none.
func hostOf(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		return strings.ToLower(u.Host)
	}
	return rawURL
}

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

// tryAcquire takes a slot only if one is free now: a request asked ahead never waits.
func (h *hostLimit) tryAcquire(rawURL string) (release func(), ok bool) {
	sem := h.sem(rawURL)
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, true
	default:
		return nil, false
	}
}

// acquire waits for a slot for rawURL's host; an ended ctx wins, its cause wrapped.
func (h *hostLimit) acquire(ctx context.Context, rawURL string) (release func(), err error) {
	sem := h.sem(rawURL)
	if ctx.Err() != nil { // no request after a deadline, even with a slot free
		return nil, fmt.Errorf("%s: not requested: %w", rawURL, context.Cause(ctx))
	}
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: not requested: %w", rawURL, context.Cause(ctx))
	}
}

type getter interface {
	Get(ctx context.Context, r guard.Request) (*guard.Response, error)
}

// limited is a getter taking a host slot for each request.
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
