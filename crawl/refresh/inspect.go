package refresh

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// InspectReport is what a refresh would record for one URL read from nothing (a dry run).
type InspectReport struct {
	URL     string
	Source  store.Source
	Origin  *store.Origin // nil when discovery found no site index
	Claims  []store.Claim // sorted by project id
	Events  []store.Event // sorted by project id
	Summary *Summary
	// Manifests are those the read fetched, in index order, each with every finding.
	Manifests []ManifestCheck
}

// Inspect reads the site at rawURL as a refresh does, into an empty in-memory state, and
// reports what would be recorded. Errs on a bad URL or a cancelled context.
func Inspect(ctx context.Context, rawURL string, o Options) (*InspectReport, error) {
	if err := sources.CheckURL(rawURL); err != nil {
		return nil, err
	}
	o.Sources = []sources.Source{{URL: rawURL, Entry: 1}}
	o.subject = "the URL"
	mem := &memState{files: map[string][]byte{}}
	mc := &manifestChecks{seen: map[string]fetchResult{}, urls: map[string]string{}}
	o.observe = mc.observe
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
	rep.Manifests = mc.checks(mem, rep.Origin)
	return rep, nil
}

// findings is every finding of the manifest the read fetched for project.
func (r *InspectReport) findings(project string) []protocol.Finding {
	for _, m := range r.Manifests {
		if m.ID == project {
			return m.Findings
		}
	}
	return nil
}

// OK reports whether the URL led to a readable site index.
func (r *InspectReport) OK() bool {
	return r.Origin != nil && r.Origin.Health == store.OriginHealthy
}

// healthText is a claim's health as its claim page says it.
func healthText(c store.Claim) string {
	return store.ClaimHealthText(c.Health, c.Ingested() != "", c.Ingested() != "" && c.Ingested() != c.AdvertisedSHA256)
}

// currentLine says how many claims would not be current, by health, or that all would be.
func (r *InspectReport) currentLine() string {
	n, by, count := r.NotCurrent()
	if n == 0 {
		return fmt.Sprintf("every claim (%d) would be current", len(r.Claims))
	}
	var parts []string
	for _, h := range by {
		parts = append(parts, fmt.Sprintf("%d %s", count[h], h))
	}
	return fmt.Sprintf("not current: %d of %d claims (%s)", n, len(r.Claims), strings.Join(parts, ", "))
}

// NotCurrent counts the claims that would not be current, by health words, in order first met.
func (r *InspectReport) NotCurrent() (n int, by []string, count map[string]int) {
	count = map[string]int{}
	for _, c := range r.Claims {
		if h := healthText(c); h != "current" {
			if count[h] == 0 {
				by = append(by, h)
			}
			n, count[h] = n+1, count[h]+1
		}
	}
	return n, by, count
}

// String renders the report for a person, publisher text through termtext.
func (r *InspectReport) String() string {
	var b strings.Builder
	line := func(format string, a ...any) { b.WriteString(termtext.Line(fmt.Sprintf(format, a...)) + "\n") }
	line("inspect %s", r.URL)
	b.WriteString("\n")
	line("discovery trail:")
	for _, s := range r.Source.Trail {
		line("  %s", s.URL)
		line("    %s", s.Outcome)
	}
	if r.Source.Method != nil {
		line("method: %s", *r.Source.Method)
	}
	if r.Source.Problem != nil {
		b.WriteString("\n")
		line("no site index: %s", *r.Source.Problem)
	}
	if o := r.Origin; o != nil {
		b.WriteString("\n")
		line("site %s", o.ID)
		line("  index: %s", o.IndexURL)
		line("  health: %s", store.OriginHealthLabel(o.Health))
		if o.SiteName != nil {
			line("  name: %s", termtext.Quote(*o.SiteName))
		}
		if o.Problem != nil {
			line("  problem: %s", *o.Problem)
		}
		if len(o.Findings) > 1 {
			line("  every finding (%d):", len(o.Findings))
			for _, f := range o.Findings {
				line("    %s", findingLine(f))
			}
		}
		for _, u := range o.Redirects {
			line("  redirected: %s", u)
		}
		for _, is := range o.Issues {
			line("  issue: %s", is)
		}
	}
	if len(r.Claims) > 0 {
		b.WriteString("\n")
		line("claims (%d):", len(r.Claims))
		for _, c := range r.Claims {
			line("  %s %s: %s", c.Project, termtext.Quote(c.Entry.Name), healthText(c))
			if c.Problem != nil {
				line("    problem: %s", *c.Problem)
			}
			if fs := r.findings(c.Project); len(fs) > 1 {
				line("    every finding (%d):", len(fs))
				for _, f := range fs {
					line("      %s", f)
				}
			} else if len(c.Findings) > 1 && c.Health != store.ClaimOriginUnavailable { // the site's, listed above
				line("    every finding (%d):", len(c.Findings))
				for _, f := range c.Findings {
					line("      %s", findingLine(f))
				}
			}
			if c.Media != nil && c.Media.Problem != nil {
				line("    card image: %s", *c.Media.Problem)
			}
		}
		b.WriteString("\n")
		line("%s", r.currentLine())
	}
	b.WriteString("\nnothing was written; a refresh would record the above.\n")
	return b.String()
}

// findingLine is a recorded finding on one line, as protocol.Finding.String writes one.
func findingLine(f store.Finding) string {
	segs, _ := f.Segments()
	return cmp.Or(f.At, "(document)") + " [" + f.Kind + "] " + strings.Join(segs, "")
}
