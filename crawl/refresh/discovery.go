package refresh

import (
	"context"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/discover"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// discovery is what the refresh keeps of discover.Result.
type discovery struct {
	IndexURL       string
	Method         string
	Kind           string
	Trail          []store.TrailStep
	Resp           *guard.Response // the site index's response (Body, or NotModified)
	Redirects      []string        // every URL that answered with a redirect, page and index alike
	ManifestURL    string          // a project manifest met on the way, if any
	PageValidators store.Validators
	Unreached      bool
}

// ahead is discover.Held.Ahead over the guarded client: it takes a host slot only if one is
// free now.
func ahead(c getter, lim *hostLimit) func(context.Context, guard.Request) func() (*guard.Response, error) {
	return func(ctx context.Context, req guard.Request) func() (*guard.Response, error) {
		release, ok := lim.tryAcquire(req.URL)
		if !ok {
			return nil
		}
		type answer struct {
			resp *guard.Response
			err  error
		}
		ch := make(chan answer, 1)
		go func() {
			defer release()
			resp, err := c.Get(ctx, req)
			ch <- answer{resp, err}
		}()
		return func() (*guard.Response, error) { a := <-ch; return a.resp, a.err }
	}
}

type discoverFunc func(ctx context.Context, enrolled string, held discover.Held) (*discovery, error)

// discoverWith runs crawl/discover with one host slot for the whole discovery; the discovery
// budget starts once the slot is taken.
func (r *run) discoverWith(c *guard.Client, lim *hostLimit) discoverFunc {
	return func(ctx context.Context, enrolled string, held discover.Held) (*discovery, error) {
		release, err := lim.acquire(ctx, enrolled)
		if err != nil {
			problem := held.Subject + " " + enrolled + " was not read: " + context.Cause(ctx).Error()
			return &discovery{Trail: []store.TrailStep{{URL: store.CanonicalURL(enrolled), Outcome: "not read: " + context.Cause(ctx).Error()}}},
				&discover.Error{URL: enrolled, Problem: problem, Outage: true, At: enrolled, Asked: enrolled, Err: err}
		}
		defer release()
		b := r.o.DiscoveryBudget
		ctx, cancel := r.budget(ctx, b, &BudgetError{What: "the source's discovery budget", Budget: b}, enrolled)
		defer cancel()
		held.Ahead = ahead(c, lim)
		res, err := discover.Discover(ctx, c, enrolled, held)
		d := &discovery{}
		if res != nil {
			d.IndexURL, d.Method, d.Kind, d.Trail = res.IndexURL, res.Method, res.Kind, res.Trail
			d.Resp, d.ManifestURL, d.PageValidators = res.Response, res.ManifestURL, res.PageValidators
			d.Redirects, d.Unreached = res.Redirects, res.Unreached
		}
		if err == nil && (d.IndexURL == "" || d.Resp == nil) {
			err = &discover.Error{URL: enrolled, Problem: "no site index found"}
		}
		return d, err
	}
}
