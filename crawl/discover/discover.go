// Package discover finds the site index behind an enrolled URL (SPEC section 1, "Discovery";
// seeds/crawler.txt, "Per source", step 1) and records the trail of every URL tried: a
// DreamWeave document at the URL is used as is; an HTML page's DreamWeave <link> is followed
// (ReadLinks); otherwise dreamweave.json is tried up the path (WalkUpURLs).
//
// Where the spec leaves a choice: a fetch's final URL is what its document speaks for; a walk
// passes a level only on a definite "not here" (404, 410, a well-formed non-index), so an
// outage never walks past an index; a move needs evidence from the enrolled URL (proof).
package discover

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// IndexFile is the file name tried when walking up the path.
const IndexFile = "dreamweave.json"

// What the enrolled URL turned out to be (Result.Kind).
const (
	KindIndex   = "index"   // a DreamWeave site index (document "index")
	KindProject = "project" // a DreamWeave project manifest (document "project")
	KindPage    = "page"    // an HTML page
	KindOther   = "other"   // anything else
	// KindMalformed looks like JSON but fails protocol.Decode: not a definite "not here".
	KindMalformed = "malformed"
)

// How the site index was found (sources/<source>.json "method").
const (
	MethodWalkUp       = "found by walking up the path"
	MethodLink         = "the page links the site index"
	MethodIndex        = "the URL is the site index"
	MethodManifest     = "the URL is a project manifest; its site index was found by walking up the path"
	MethodLinkManifest = "the page links a project manifest; its site index was found by walking up the path"
)

// Trail outcomes other packages recognise.
const (
	OutcomeIndex          = "a DreamWeave site index"
	OutcomeIndexUnchanged = "site index unchanged (HTTP 304)"
	OutcomeNoLink         = "an HTML page with no DreamWeave <link>"
	OutcomePageUnchanged  = "page unchanged (HTTP 304)"
	OutcomeManifest       = "a DreamWeave project manifest"
	OutcomeNotFound       = "not found (HTTP 404)"
)

// Accept is sent with every discovery request: DreamWeave JSON first, then HTML.
const Accept = IndexMediaType + ", " + ProjectMediaType + ", application/json;q=0.9, text/html;q=0.8, */*;q=0.1"

// Held is what earlier reads of this source left; zero is a first discovery.
type Held struct {
	// Validators by URL; the enrolled URL is asked conditionally only when IndexURL is set.
	Validators map[string]store.Validators
	// IndexURL and Method are the previous conclusion ("" if none): they stand on a 304, and
	// no walk moves away from IndexURL without evidence (proof).
	IndexURL string
	Method   string
	Subject  string // names the starting URL in problems; "" is "the enrolled URL"
	// Ahead starts a request at once and returns a wait for it, or nil when no politeness slot
	// is free: the held index is asked alongside the enrolled URL, so two 304s cost one trip.
	Ahead func(ctx context.Context, req guard.Request) (wait func() (*guard.Response, error))
}

// Result is what discovery found. Trail lists every URL tried, in order, canonical; "" and nil
// fields mean none was found.
type Result struct {
	IndexURL string // the site index's final URL, after redirects
	Method   string // Method*, or Held.Method when the page was unchanged
	Kind     string // what the enrolled URL was (Kind*); "" when it failed or answered 304
	Trail    []store.TrailStep
	Response *guard.Response // the site index's: Body, or NotModified (the held bytes stand)
	// ManifestURL and Manifest are a project manifest met on the way, which the index must list.
	ManifestURL string
	Manifest    *guard.Response
	// PageValidators are the enrolled URL's to hold; empty when it is the index.
	PageValidators store.Validators
	Problem        string   // why no site index was found, in words
	Redirects      []string // URLs that answered a redirect, once each, in order (origin.redirects)
	Unreached      bool     // every request failed before any server answered
}

// Error is discovery ending without a site index; the Result returned with it holds the trail.
type Error struct {
	URL     string // the enrolled URL
	Problem string // in words, naming the URL at fault; equals Result.Problem
	// Outage: stopped at an answer that is not a definite "not here"; false: every URL
	// answered, none with a site index.
	Outage   bool
	At       string             // the URL whose answer ended discovery, after redirects
	Asked    string             // the URL requested when the answer at At came
	Status   int                // At's HTTP status; 0 when the fetch failed
	Err      error              // the guard's error, or the caller's context cause
	Findings []protocol.Finding // At served malformed JSON (KindMalformed)
	// Found is a site index the walk reached but did not adopt (the held one did not answer).
	Found string
	// BrokenLink: the page's index <link> target answered, but not as a site index.
	BrokenLink bool
}

func (e *Error) Error() string { return e.Problem }
func (e *Error) Unwrap() error { return e.Err }

// Discover runs discovery from the enrolled URL with c; with no site index found it returns an
// *Error too. Fetch failures are facts in the trail.
func Discover(ctx context.Context, c *guard.Client, enrolled string, held Held) (*Result, error) {
	d := &run{ctx: ctx, c: c, held: held, res: &Result{}, tried: map[string]bool{}, enrolled: enrolled,
		subject: cmp.Or(held.Subject, "the enrolled URL")}
	d.held.IndexURL = store.CanonicalURL(held.IndexURL)
	d.discover(enrolled)
	if d.res.IndexURL != "" && d.end == nil {
		if p := d.evidence(); p != proofStrong {
			d.askHeld(p)
		}
	}
	d.res.Unreached = d.requests > 0 && d.unreached == d.requests
	if d.end != nil || d.res.IndexURL == "" {
		e := d.end
		if e == nil {
			e = &Error{Problem: cmp.Or(d.res.Problem, "no site index found")}
		}
		e.URL = enrolled
		d.res.IndexURL, d.res.Method, d.res.Response, d.res.Problem = "", "", nil, e.Problem
		return d.res, e
	}
	return d.res, nil
}

type run struct {
	ctx                 context.Context
	c                   *guard.Client
	held                Held
	res                 *Result
	tried               map[string]bool                 // URLs with a recorded final outcome
	end                 *Error                          // set when an answer ended discovery
	ahead               func() (*guard.Response, error) // the held index asked ahead, until used
	requests, unreached int                             // fetches, and those no server answered
	// evidence of a move: where each URL ended, and whether a temporary redirect led there
	enrolled, subject string
	enrolledAt        string
	enrolledTemp      bool
	foundAsked        string
	foundTemp         bool
	manifestAt        string
	manifestTemp      bool
}

func (d *run) fail(e *Error) {
	d.end = e
	d.res.Problem = e.Problem
}

// stop ends discovery at f, u's answer that is not a definite "not here".
func (d *run) stop(u string, f fetched, subject string, walking bool) {
	at := f.finalURL(u)
	e := &Error{Outage: true, At: at, Asked: u, Status: f.status(), Err: f.err, Findings: f.findings}
	via := ""
	if at != u {
		via = ", which redirected to " + at
	}
	if walking {
		e.Problem = "walking up the path stopped at " + u + via + ", which " + f.predicate()
		if f.cut == nil { // a budget is not the site's answer
			e.Problem += "; only a 404 or 410 lets the walk pass a level"
		}
	} else if via != "" {
		e.Problem = subject + " " + u + via + ", which " + f.predicate()
	} else {
		e.Problem = subject + " " + u + " " + f.predicate()
	}
	d.fail(e)
}

func (d *run) discover(enrolled string) {
	conditional := d.held.IndexURL != ""
	d.askAhead(enrolled)
	f := d.get(enrolled, conditional)
	if f.err == nil && f.resp.NotModified {
		n := len(d.res.Trail)
		if conditional && d.pageUnchanged(enrolled, f) {
			return
		}
		// A 304 without a usable conclusion: read the page again, plainly.
		if len(d.res.Trail) == n {
			d.step(f.resp.URL, "unchanged (HTTP 304), but no conclusion is held for it; read again")
		}
		f = d.get(enrolled, false)
	}
	at := f.finalURL(enrolled)
	d.enrolledAt, d.enrolledTemp = at, Temporary(f.hops)
	if !f.notHere() {
		d.step(at, f.outcome())
		d.res.Kind = f.kind
		d.stop(enrolled, f, d.subject, false)
		return
	}
	resp := f.resp
	d.tried[at] = true
	d.res.Kind = cmp.Or(f.kind, KindOther) // "": a 404 or 410, the walk goes on from its URL
	if resp.Status == http.StatusOK && f.kind != KindIndex {
		d.res.PageValidators = store.Validators{ETag: resp.ETag(), LastModified: resp.LastModified()}
	}
	switch f.kind {
	case KindIndex:
		d.step(at, OutcomeIndex)
		d.found(resp, MethodIndex, enrolled, d.enrolledTemp)
		return
	case KindProject:
		d.step(at, OutcomeManifest)
		d.walkUpFromManifest(at, resp)
		return
	case KindPage:
		base, _ := url.Parse(at)
		link, ok, ignored := ReadLinks(resp.Body, base)
		if !ok {
			d.step(at, OutcomeNoLink)
		} else if link.Kind == KindIndex {
			d.step(at, "links the site index at "+link.Href)
		} else {
			d.step(at, "links a project manifest at "+link.Href)
		}
		for _, ig := range ignored {
			d.step(at, ig.String())
		}
		if !ok {
			break
		}
		if d.followLink(link) || d.end != nil {
			return
		}
	default:
		d.step(at, f.outcome())
	}
	d.walkUpFromPage(at)
}

func (d *run) walkUpFromManifest(at string, resp *guard.Response) {
	d.res.ManifestURL, d.res.Manifest = at, resp
	if !d.walkUp(at, MethodManifest) && d.end == nil {
		d.res.Problem = "a project manifest, but no site index was found above it"
	}
}

func (d *run) walkUpFromPage(at string) {
	if !d.walkUp(at, MethodWalkUp) && d.end == nil && d.res.Problem == "" {
		d.res.Problem = "no DreamWeave <link> and no " + IndexFile + " in any parent directory"
	}
}

// pageUnchanged continues from a 304 on the enrolled URL, the held conclusion standing; false
// when the page must be read again plainly.
func (d *run) pageUnchanged(enrolled string, f fetched) bool {
	at := f.resp.URL
	d.tried[at] = true
	d.enrolledAt, d.enrolledTemp = at, Temporary(f.hops)
	switch {
	case store.CanonicalURL(at) == d.held.IndexURL:
		d.step(at, OutcomeIndexUnchanged)
		d.res.Kind = KindIndex
		d.found(f.resp, MethodIndex, enrolled, d.enrolledTemp)
	case d.held.Method == MethodWalkUp:
		d.step(at, OutcomePageUnchanged)
		d.res.Kind, d.res.PageValidators = KindPage, d.held.Validators[enrolled]
		d.walkUpFromPage(at)
	case d.held.Method == MethodManifest:
		d.step(at, "project manifest unchanged (HTTP 304)")
		d.res.Kind, d.res.PageValidators = KindProject, d.held.Validators[enrolled]
		d.walkUpFromManifest(at, f.resp)
	case d.held.Method == MethodLink && len(f.hops) > 0:
		// The link resolves against where the page is now: read it again.
		d.step(at, OutcomePageUnchanged+", but reached through a redirect; read again for its link")
		return false
	case d.held.Method == MethodLink:
		d.step(at, OutcomePageUnchanged)
		x := d.held.IndexURL
		g := d.get(x, true)
		xat := g.finalURL(x)
		if g.isIndex() {
			d.tried[x], d.tried[xat] = true, true
			d.res.Kind, d.res.PageValidators = KindPage, d.held.Validators[enrolled]
			d.step(xat, g.indexOutcome())
			d.found(g.resp, MethodLink, x, Temporary(g.hops))
			return true
		}
		d.step(xat, g.outcome()+"; the page is read again for its link")
		delete(d.tried, at)
		return false
	default:
		return false
	}
	return true
}

// followLink fetches the page's DreamWeave link: for an index link anything but a site index
// ends discovery (a broken link is never walked around).
func (d *run) followLink(link Link) bool {
	if link.Kind == KindProject {
		return d.linkedManifest(link)
	}
	what := "the linked site index"
	f, at := d.fetch(link.Href)
	switch {
	case link.Kind == KindIndex && f.isIndex():
		d.step(at, f.indexOutcome())
		d.found(f.resp, MethodLink, link.Href, Temporary(f.hops))
		return true
	case f.notHere() || f.kind == KindMalformed:
		d.step(at, f.outcome()+"; a broken link: discovery stops here")
		d.brokenLink(link.Href, at, f, what)
	default:
		d.step(at, f.outcome())
		d.stop(link.Href, f, what, false)
	}
	return false
}

// linkedManifest walks up from a page's manifest link (its final URL when it answered as a
// manifest). The manifest need not answer (down mid-deploy, it hides no index); it reports
// whether a site index was found.
func (d *run) linkedManifest(link Link) bool {
	f, at := d.fetch(link.Href)
	d.res.ManifestURL = link.Href
	from, temp := link.Href, false
	switch {
	case f.cut != nil:
		d.step(at, f.outcome())
		d.stop(link.Href, f, "the linked project manifest", false)
		return false
	case f.kind == KindProject:
		d.step(at, OutcomeManifest)
		d.res.ManifestURL, d.res.Manifest = at, f.resp
		from, temp = at, Temporary(f.hops)
	default:
		d.step(at, f.outcome()+", not a project manifest; the site index is looked for above the linked URL all the same")
	}
	d.manifestAt, d.manifestTemp = from, temp
	return d.walkUp(from, MethodLinkManifest)
}

// brokenLink ends discovery at a <link> whose target answered, but not as what it advertises.
func (d *run) brokenLink(href, at string, f fetched, what string) {
	e := &Error{BrokenLink: true, At: at, Asked: href, Status: f.resp.Status, Findings: f.findings}
	answer := f.predicate()
	switch {
	case f.kind == KindMalformed || f.resp.Status != http.StatusOK:
	case f.kind == KindProject:
		answer = "served a project manifest, not a site index"
	case f.kind == KindIndex:
		answer = "served a site index, not a project manifest"
	case f.kind == KindPage:
		answer = "served an HTML page"
	default:
		answer = "served a document that is not DreamWeave JSON"
	}
	via := " "
	if at != href {
		via = ", which redirected to " + at + ", "
	}
	e.Problem = "the page's DreamWeave <link> is broken: " + what + " " + href + via + answer +
		"; discovery stops at a link it cannot use and does not look elsewhere"
	d.fail(e)
}

// walkUp tries WalkUpURLs(from), skipping URLs tried; the first answer that is not a definite
// "not here" ends discovery.
func (d *run) walkUp(from, method string) bool {
	for _, u := range WalkUpURLs(from) {
		if d.tried[u] {
			continue
		}
		f, at := d.fetch(u)
		switch {
		case f.isIndex():
			d.step(at, f.indexOutcome())
			d.found(f.resp, method, u, Temporary(f.hops))
			return true
		case !f.notHere():
			d.step(at, f.outcome())
			d.stop(u, f, "", true)
			return false
		case f.kind == KindProject:
			d.step(at, OutcomeManifest+", not a site index")
		default:
			d.step(at, f.outcome())
		}
	}
	return false
}

// found records the site index, the URL asked and whether a temporary redirect led from there.
func (d *run) found(resp *guard.Response, method, asked string, temp bool) {
	d.res.IndexURL, d.res.Method, d.res.Response = store.CanonicalURL(resp.URL), method, resp
	d.foundAsked, d.foundTemp = asked, temp
	d.res.Problem = ""
}

// WalkUpURLs lists the URLs step 3 tries from raw, nearest first: dreamweave.json in its
// directory, then each parent up to the root. Nil when raw is not an absolute URL.
func WalkUpURLs(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil
	}
	dir := u.EscapedPath()
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[:i+1]
	} else {
		dir = "/"
	}
	var out []string
	origin := u.Scheme + "://" + u.Host
	for {
		out = append(out, origin+dir+IndexFile)
		if dir == "/" {
			return out
		}
		trimmed := strings.TrimSuffix(dir, "/")
		dir = trimmed[:strings.LastIndexByte(trimmed, '/')+1]
	}
}
