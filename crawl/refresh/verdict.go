package refresh

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/discover"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// verdict is a health token and its problem.
type verdict struct {
	health, problem string
	findings        []store.Finding
}

// sourceHealth is the health of a source whose discovery failed (FORMATS section 1.2).
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

// warnings: every source failing is likeliest the runner's network or a drill without
// --allow-loopback; say so loudly.
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

// siteFailed records that every source leading to a held site failed; nothing held changes.
func (r *run) siteFailed(ctx context.Context, p *plan, site string) error {
	srs := p.failed[site]
	health, problem, fs := r.failureVerdict(ctx, site, srs[0].err)
	if err := r.stopped(); err != nil { // the probe was cut short: nothing is written
		return err
	}
	if err := r.originUnavailable(site, health, problem, fs, sourceURLs(srs)); err != nil {
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

// failureVerdict is a held site's health and problem when discovery through its sources failed
// (an address refusal is unreachable, not a limit); when every URL answered "not here", the
// held index is asked why (probe).
func (r *run) failureVerdict(ctx context.Context, site string, err error) (health, problem string, fs []store.Finding) {
	x := r.prevOrigins[site].IndexURL
	var de *discover.Error
	if !errors.As(err, &de) {
		health, problem = store.OriginUnreachable, err.Error()
		if isBudget(err) {
			problem = "not read: " + problem
		}
		return health, problem, []store.Finding{store.Quoting(health, problem, x)}
	}
	atHeld := de.At == x || de.Asked == x
	switch {
	case de.BrokenLink:
		health, problem = store.OriginNoIndex, de.Problem
	case !de.Outage:
		return r.probe(ctx, site, de)
	case len(de.Findings) > 0 && atHeld:
		h, verdict := indexVerdict(de.Findings)
		return h, "the site index at " + x + " " + strings.TrimPrefix(verdict, "the site index "), store.FindingsOf(de.Findings)
	case guard.KindOf(err) == guard.KindTooLarge:
		health, problem = store.OriginRefused, de.Problem
	case atHeld && (de.Status == 404 || de.Status == 410):
		health, problem = store.OriginNoIndex, de.Problem
	default:
		health, problem = store.OriginUnreachable, de.Problem
	}
	return health, problem, []store.Finding{store.Quoting(health, problem, discoveryURLs(de, x)...)}
}

// discoveryURLs are the URLs a discovery failure's problem may name.
func discoveryURLs(de *discover.Error, x string) []string {
	return []string{de.URL, de.At, de.Asked, x}
}

// probe asks the held site index itself why discovery found nothing.
func (r *run) probe(ctx context.Context, site string, de *discover.Error) (health, detail string, fs []store.Finding) {
	u, problem := r.prevOrigins[site].IndexURL, de.Problem
	resp, err := r.get.Get(ctx, guard.Request{URL: u, Accept: acceptIndex})
	switch {
	case guard.KindOf(err) == guard.KindTooLarge:
		health, detail = store.OriginRefused, fmt.Sprintf("%s; the held site index %s %s", problem, u, guard.Words(err, guard.Predicate))
	case err != nil:
		health, detail = store.OriginUnreachable, problem+"; the held site index could not be read: "+err.Error()
	case resp.Status >= 500 || resp.Status == 408 || resp.Status == 429:
		health, detail = store.OriginUnreachable, fmt.Sprintf("%s; the held site index %s answers HTTP %d", problem, u, resp.Status)
	case resp.Status != 200:
		health, detail = store.OriginNoIndex, fmt.Sprintf("%s; the held site index %s answers HTTP %d", problem, u, resp.Status)
	default:
		if _, ifs, _ := validateIndex(resp.Body); len(ifs) > 0 {
			h, verdict := indexVerdict(ifs)
			fs = append([]store.Finding{store.Quoting(h, problem, discoveryURLs(de, u)...)}, store.FindingsOf(ifs)...)
			return h, problem + "; the site index at " + u + " " + strings.TrimPrefix(verdict, "the site index "), fs
		}
		health, detail = store.OriginNoIndex, problem+"; the held site index "+u+" still answers as a site index, but the enrolled URL no longer leads to it"
	}
	return health, detail, []store.Finding{store.Quoting(health, detail, discoveryURLs(de, u)...)}
}

// originUnavailable records an origin that could not be read and marks its claims stale.
func (r *run) originUnavailable(site, health, problem string, fs []store.Finding, srcs []string) error {
	o, ok := r.prevOrigins[site]
	if !ok {
		return nil
	}
	o.Health, o.Problem, o.LastAttempt, o.Findings = health, &problem, r.now, fs
	if srcs != nil {
		o.Sources = srcs
	}
	if err := r.putOrigin(o); err != nil {
		return err
	}
	r.fact(siteFact(site, health, problem, srcs))
	return r.claimsUnavailable(site, problem, fs)
}

// claimsUnavailable marks a site's listed claims stale, each keeping the site's findings.
func (r *run) claimsUnavailable(site, problem string, fs []store.Finding) error {
	for _, project := range sortedKeys(r.prevClaims[site]) {
		c := r.prevClaims[site][project]
		if c.Health == store.ClaimWithdrawn {
			continue
		}
		msg := "the site could not be read on the last crawl: " + problem
		c.Health, c.Problem, c.LastAttempt, c.Findings = store.ClaimOriginUnavailable, &msg, r.now, fs
		if err := r.putClaim(c); err != nil {
			return err
		}
		r.coveredClaim(site, store.ClaimOriginUnavailable)
	}
	return nil
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

// UnreachableError is a refresh whose two or more sources all failed before any server
// answered: the machine's network, not the sites', so nothing is recorded.
type UnreachableError struct {
	Failures []string // each source's URL and why it was not reached
}

func (e *UnreachableError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no enrolled source could be reached: all %d failed before any server answered (name resolution, connecting or TLS). The likely cause is this machine's own network (DNS, routing, a firewall), not the sites; nothing was recorded and the state is unchanged:", len(e.Failures))
	for _, f := range e.Failures {
		b.WriteString("\n  " + f)
	}
	return b.String()
}

// unreachableWorld is an *UnreachableError when two or more sources reached no server.
func unreachableWorld(runs []*sourceRun) error {
	if len(runs) < 2 {
		return nil
	}
	var fs []string
	for _, sr := range runs {
		if sr.err == nil || sr.d == nil || !sr.d.Unreached {
			return nil
		}
		fs = append(fs, sr.src.URL+": "+sr.err.Error())
	}
	return &UnreachableError{Failures: fs}
}
