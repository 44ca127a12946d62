package refresh

import (
	"context"
	"fmt"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// InspectReport is what a refresh would record for one URL read from nothing (a dry run):
// the source record with its discovery trail, the site it leads to, each claim and event.
type InspectReport struct {
	URL     string
	Source  store.Source
	Origin  *store.Origin // nil when discovery found no site index
	Claims  []store.Claim // sorted by project id
	Events  []store.Event // sorted by project id
	Summary *Summary
}

// Inspect reads the site at rawURL exactly as a refresh does (the same code, from an empty
// state held in memory) and reports what would be recorded. It writes nothing: o.State is
// ignored. o.Sources is replaced by rawURL alone. The error is a bad URL (the same checks as
// sources.toml) or a cancelled context; everything about the site is in the report.
func Inspect(ctx context.Context, rawURL string, o Options) (*InspectReport, error) {
	if err := sources.CheckURL(rawURL); err != nil {
		return nil, err
	}
	o.Sources = []sources.Source{{URL: rawURL, Entry: 1}}
	mem := newMemState()
	r := newRun(o, mem, &store.Snapshot{})
	sum, err := r.run(ctx)
	if err != nil {
		return nil, err
	}
	rep := &InspectReport{URL: rawURL, Summary: sum}
	if err := mem.ReadJSON(store.SourcePath(store.SourceID(rawURL)), &rep.Source); err != nil {
		return nil, fmt.Errorf("no source record was produced: %w", err)
	}
	if rep.Source.Origin != nil {
		var or store.Origin
		if err := mem.ReadJSON(store.OriginPath(*rep.Source.Origin), &or); err == nil {
			rep.Origin = &or
		}
	}
	for _, p := range mem.paths(store.ClaimsDir + "/") {
		if strings.HasSuffix(p, "/"+store.ClaimFile) {
			var c store.Claim
			if err := mem.ReadJSON(p, &c); err != nil {
				return nil, err
			}
			rep.Claims = append(rep.Claims, c)
		}
	}
	for _, p := range mem.paths(store.EventsDir + "/") {
		var e store.Event
		if err := mem.ReadJSON(p, &e); err != nil {
			return nil, err
		}
		rep.Events = append(rep.Events, e)
	}
	return rep, nil
}

// OK reports whether the URL led to a readable site index.
func (r *InspectReport) OK() bool {
	return r.Origin != nil && r.Origin.Health == store.OriginHealthy
}

// String renders the report for a person: the trail, the site, then one line per claim.
func (r *InspectReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "inspect %s\n\ndiscovery trail:\n", r.URL)
	for _, s := range r.Source.Trail {
		fmt.Fprintf(&b, "  %s\n    %s\n", s.URL, s.Outcome)
	}
	if r.Source.Method != nil {
		fmt.Fprintf(&b, "method: %s\n", *r.Source.Method)
	}
	if r.Source.Problem != nil {
		fmt.Fprintf(&b, "\nno site index: %s\n", *r.Source.Problem)
	}
	if o := r.Origin; o != nil {
		fmt.Fprintf(&b, "\nsite %s\n  index: %s\n  health: %s\n", o.ID, o.IndexURL, o.Health)
		if o.SiteName != nil {
			fmt.Fprintf(&b, "  name: %s\n", *o.SiteName)
		}
		if o.Problem != nil {
			fmt.Fprintf(&b, "  problem: %s\n", *o.Problem)
		}
		for _, h := range o.Redirects {
			fmt.Fprintf(&b, "  redirect: %s -> %s (HTTP %d)\n", h.From, h.To, h.Status)
		}
		for _, is := range o.Issues {
			fmt.Fprintf(&b, "  issue: %s\n", is)
		}
	}
	if len(r.Claims) > 0 {
		fmt.Fprintf(&b, "\nclaims (%d):\n", len(r.Claims))
		for _, c := range r.Claims {
			fmt.Fprintf(&b, "  %s %s: %s\n", c.Project, c.Entry.Name, store.HealthLabel(c.Health))
			if c.Problem != nil {
				fmt.Fprintf(&b, "    %s\n", *c.Problem)
			}
			if c.Media != nil && c.Media.Problem != nil {
				fmt.Fprintf(&b, "    card image: %s\n", *c.Media.Problem)
			}
		}
	}
	fmt.Fprintf(&b, "\nnothing was written; a refresh would record the above.\n")
	return b.String()
}
