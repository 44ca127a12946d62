// Package discover finds the site index behind an enrolled URL, exactly as SPEC section 1
// ("Discovery") and seeds/crawler.txt ("Per source", step 1) say, and records the trail: each URL
// tried and what came back, in words.
//
// From the enrolled URL U: (1) a DreamWeave document at U is used as is (only schema_version
// and document are sniffed; validation is the protocol core's); (2) an HTML page's DreamWeave
// <link> is followed (ReadLinks; unusable hrefs are recorded as Ignored): an index link that
// does not lead to a site index stops discovery (Error.BrokenLink), a project manifest link is
// walked up from whether or not the manifest answers; (3) otherwise dreamweave.json is tried
// in U's directory and each parent up to the origin's root (WalkUpURLs).
//
// Decisions the spec leaves open, and why:
//   - Where a fetch ended decides what a document speaks for: after redirects, a page's final
//     URL is the base for its <link> href and for walking up, and a site index's URL is its
//     final URL. Each redirect is a trail step of its own.
//   - A project manifest (at U, or linked) carries no manifest_sha256 to check it against, so
//     discovery walks up from it to the index that should list it (Result.ManifestURL; the
//     crawler checks the index lists it).
//   - An outage is not an answer. A walk passes a level only on a definite "not here" (404 or
//     410, or a well-formed document that is not a site index); any other answer ends
//     discovery there (Error.Outage, Error.At), so a site deploying or down for a minute is
//     never walked past to the index above it (a GitHub Pages user site above a project site).
//   - Documents are sniffed with the protocol's strict decoder (protocol.Decode): a duplicate
//     key, a byte order mark or a truncated body is the same finding wherever it sits.
//   - A move needs evidence from the enrolled URL itself (SPEC section 3, "Moves"), weighed
//     when discovery reaches another index than the held one (Held.IndexURL; canonical URLs,
//     so a spelling is never a move). Strong evidence moves the source whatever the held index
//     says: the enrolled URL is a site index or its page links one, reached in place or through
//     permanent redirects only (301, 308). Weak evidence moves it only when the held index is
//     definitively gone (404, 410, or a well-formed non-index, without a temporary redirect):
//     the index was found at the enrolled URL's own level (ownLevel). Nothing else is evidence:
//     a walk to a parent directory beyond that level, or any temporary redirect (302, 303, 307)
//     on the way. Without strong evidence the held index is asked again (askHeld): it stands
//     when it answers as a site index in place or through permanent redirects; a temporary
//     redirect or no answer is an outage and nothing moves; gone, it yields to weak evidence,
//     and without any discovery ends naming the index the walk reached (Error.Found).
//   - Conditional GET (Held.Validators): an unchanged site index costs a 304. The enrolled URL
//     is asked conditionally only when a previous conclusion is held, since a 304 has no body:
//     what the page said stands (pageUnchanged), so a second discovery over unchanged sites
//     costs a 304 for the page and one for the index, plus a 404 per level walked past.
package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// IndexFile is the file name tried when walking up the path.
const IndexFile = "dreamweave.json"

// What the enrolled URL turned out to be (Result.Kind), and the kinds of DreamWeave documents.
const (
	KindIndex   = "index"   // a DreamWeave site index (document "index")
	KindProject = "project" // a DreamWeave project manifest (document "project")
	KindPage    = "page"    // an HTML page
	KindOther   = "other"   // anything else: another status, not JSON nor HTML, not DreamWeave JSON
	// KindMalformed is a body that looks like JSON (a JSON media type, or it starts with "{" or
	// "[") but fails the protocol's strict decoding: a syntax error, a byte order mark, invalid
	// UTF-8, a duplicate key. It is not a definite "not here": discovery stops at it.
	KindMalformed = "malformed"
)

// Methods: how the site index was found (sources/<source>.json "method"). The first two are the
// reference index's words.
const (
	MethodWalkUp       = "found by walking up the path"
	MethodLink         = "the page links the site index"
	MethodIndex        = "the URL is the site index"
	MethodManifest     = "the URL is a project manifest; its site index was found by walking up the path"
	MethodLinkManifest = "the page links a project manifest; its site index was found by walking up the path"
)

// Outcome words of the trail that other packages may want to recognise. The first four are the
// reference index's words.
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

// Held is what the crawler holds from earlier reads of this source; the zero value means a
// first discovery (nothing conditional, nothing to protect from a move).
type Held struct {
	// Validators are the ETag / Last-Modified held per URL: the enrolled URL's (the source
	// record's, Result.PageValidators last time) and the site indexes' under their index URLs
	// (the origin records'; the same key when the enrolled URL is the index). Any URL discovery
	// fetches is asked conditionally when it has an entry, except the enrolled URL when IndexURL
	// is empty.
	Validators map[string]store.Validators
	// IndexURL and Method are the previous discovery's conclusion for this enrolled URL ("" if
	// it found none). They stand when the enrolled page answers 304, and IndexURL is the held
	// site index a walk up may not move the source away from without evidence (see the package
	// comment).
	IndexURL string
	Method   string
	// Subject is how problems name the URL discovery starts from; "" means "the enrolled URL"
	// (inspect, reading a URL nobody enrolled, says "the URL").
	Subject string
	// Ahead, when set, starts a request at once and returns a function that waits for its
	// answer, or returns nil when it cannot start one now (no free slot under the caller's
	// politeness limit). Discovery uses it to ask the held site index (conditionally, exactly as
	// it would later) while it asks the enrolled URL, when a previous conclusion is held and
	// the index is not the enrolled URL itself: over an unchanged site the page's 304 and the
	// index's 304 then cost one round trip, not two. The answer is used when discovery asks
	// the held index; unused, it is dropped.
	Ahead func(ctx context.Context, req guard.Request) (wait func() (*guard.Response, error))
}

// Result is what discovery found. Trail always lists every URL tried, in order, each in its
// canonical spelling (store.CanonicalURL).
type Result struct {
	IndexURL string // the site index's URL (final, after redirects); "" when none was found
	// Method says how it was found (Method* constants, or Held.Method when the page was
	// unchanged); "" when none was found.
	Method string
	// Kind is what the enrolled URL turned out to be (Kind* constants); "" when fetching it
	// failed, or when it answered 304 (then the previous conclusion stands).
	Kind  string
	Trail []store.TrailStep
	// Response is the site index's response: Body holds its bytes, or NotModified is true for a
	// 304 (then the crawler's held bytes stand). nil when none was found.
	Response *guard.Response
	// ManifestURL and Manifest are the project manifest met on the way (the enrolled URL or the
	// page's link), if any; the crawler should check that the site index lists it.
	ManifestURL string
	Manifest    *guard.Response
	// PageValidators are the enrolled URL's validators to hold for the next discovery: from its
	// response, or the held ones after a 304. Empty when the enrolled URL is the site index (its
	// validators are the index's) or sent none.
	PageValidators store.Validators
	// Problem says, in words, why no site index was found; "" when one was.
	Problem string
	// Redirects are the URLs that answered with a redirect during this discovery, page and
	// index alike, once each, in the order visited (origin.redirects, FORMATS section 1.3).
	Redirects []string
	// Unreached is true when discovery made requests and every one failed before any server
	// answered (guard.IsTransport: the name did not resolve, nothing accepted the connection,
	// the TLS handshake failed). Nothing is then known about the site, only that this crawler
	// did not reach it.
	Unreached bool
}

// Error is returned when discovery ends without a site index. The Result returned with it still
// holds the trail.
type Error struct {
	URL     string // the enrolled URL
	Problem string // in words, naming the URL at fault; equals Result.Problem
	// Outage is true when discovery stopped at an answer that is not a definite "not here" (see
	// the package comment); At, Status, Err and Findings say which. False: every URL tried
	// answered, none with a site index (the site publishes none there).
	Outage   bool
	At       string             // the URL whose answer ended discovery, after redirects ("" when none did)
	Asked    string             // the URL requested when the answer at At came (At differs when it redirected)
	Status   int                // At's HTTP status; 0 when the fetch failed
	Err      error              // the guard's error, or the caller's context cause, when the fetch failed
	Findings []protocol.Finding // At served a body that is not well-formed JSON (KindMalformed)
	// Found is the site index a walk up reached but discovery did not adopt: the held site index
	// (Asked) did not answer, and nothing from the enrolled URL showed a move.
	Found string
	// BrokenLink is true when the page's DreamWeave index <link> names a document that
	// answered, but not as a site index (404 or 410, a page, other JSON, a body that is not
	// well-formed JSON, a manifest). Discovery stops there; Outage is false. A link whose target
	// does not answer at all (5xx, a timeout, a refusal) is an outage like any other, with
	// BrokenLink false. A project manifest link is never broken: discovery walks up from it.
	BrokenLink bool
}

func (e *Error) Error() string { return e.Problem }
func (e *Error) Unwrap() error { return e.Err }

// Discover runs discovery from the enrolled URL with the guarded client c. It returns the
// Result and, when no site index was found, an *Error (the Result then has Problem and the
// trail). Fetch failures are facts about the source, recorded in the trail, never panics or
// partial results.
func Discover(ctx context.Context, c *guard.Client, enrolled string, held Held) (*Result, error) {
	d := &run{ctx: ctx, c: c, held: held, res: &Result{}, tried: map[string]bool{}, enrolled: enrolled, subject: held.Subject}
	if d.subject == "" {
		d.subject = "the enrolled URL"
	}
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
			e = &Error{Problem: d.res.Problem}
			if e.Problem == "" {
				e.Problem = "no site index found"
			}
		}
		e.URL = enrolled
		d.res.IndexURL, d.res.Method, d.res.Response, d.res.Problem = "", "", nil, e.Problem
		return d.res, e
	}
	return d.res, nil
}

type run struct {
	ctx   context.Context
	c     *guard.Client
	held  Held
	res   *Result
	tried map[string]bool                 // URLs with a recorded final outcome
	end   *Error                          // set when an answer that is not a definite "not here" ended discovery
	ahead func() (*guard.Response, error) // the held index asked ahead (Held.Ahead), until used
	// requests counts the fetches made, unreached those that failed before a server answered.
	requests, unreached int
	// What weighs as evidence of a move (evidence): where the enrolled URL's fetch ended and
	// whether a temporary redirect led there; the URL asked whose answer was the site index and
	// whether a temporary redirect led from it to the index; the project manifest the page
	// links, if any, and the same of its fetch.
	enrolled, subject string
	enrolledAt        string
	enrolledTemp      bool
	foundAsked        string
	foundTemp         bool
	manifestAt        string
	manifestTemp      bool
}

// proof is how much a site index found weighs against the held one (see the package comment).
type proof int

const (
	proofNone   proof = iota // no evidence: the held index stands, or discovery ends
	proofWeak                // adopted only when the held index is definitively gone
	proofStrong              // adopted whatever the held index says
)

// Temporary reports whether a redirect chain holds a hop that is not permanent (a status other
// than 301 or 308): such a chain is never evidence of a move.
func Temporary(hops []guard.Hop) bool {
	for _, h := range hops {
		if h.Status != http.StatusMovedPermanently && h.Status != http.StatusPermanentRedirect {
			return true
		}
	}
	return false
}

// fetched is one GET's answer, classified.
type fetched struct {
	resp     *guard.Response
	hops     []guard.Hop // the redirects followed (also before a failure)
	err      error
	kind     string             // Kind* of a 200's body, "" for any other answer or a failure
	findings []protocol.Finding // KindMalformed: the strict decoder's findings
	cut      error              // the caller's context ended the fetch: its cause (a budget, an interrupt)
}

// step records one trail step. The URL is written in its canonical spelling
// (store.CanonicalURL: the same request), so the step that found the site index names exactly
// the index URL the site is recorded under.
func (d *run) step(u, outcome string) {
	d.res.Trail = append(d.res.Trail, store.TrailStep{URL: store.CanonicalURL(u), Outcome: outcome})
}

// get fetches u (conditionally when asked and validators are held), records redirects as trail
// steps (those followed before a refusal or a redirect the guard would not follow too), and
// classifies the answer. The final outcome is recorded by the caller.
func (d *run) get(u string, conditional bool) fetched {
	var resp *guard.Response
	var err error
	if d.ahead != nil && conditional && store.CanonicalURL(u) == d.held.IndexURL {
		resp, err = d.ahead() // the same request, asked while the enrolled URL was
		d.ahead = nil
	} else {
		resp, err = d.c.Get(d.ctx, d.request(u, conditional))
	}
	hops := guard.HopsOf(err)
	if resp != nil {
		hops = resp.Hops
	}
	d.requests++
	if len(hops) == 0 && guard.IsTransport(err) {
		d.unreached++
	}
	for _, h := range hops {
		d.step(h.From, fmt.Sprintf("redirects (HTTP %d) to %s", h.Status, h.To))
		if from := store.CanonicalURL(h.From); !slices.Contains(d.res.Redirects, from) {
			d.res.Redirects = append(d.res.Redirects, from)
		}
	}
	if err != nil {
		f := fetched{err: err, hops: hops}
		if d.ctx.Err() != nil {
			f.cut = context.Cause(d.ctx)
		}
		return f
	}
	f := fetched{resp: resp, hops: hops}
	if !resp.NotModified && resp.Status == http.StatusOK {
		f.kind, f.findings = sniff(resp)
	}
	return f
}

// fetch gets u conditionally and marks u and where the fetch ended as tried.
func (d *run) fetch(u string) (fetched, string) {
	f := d.get(u, true)
	at := f.finalURL(u)
	d.tried[u], d.tried[at] = true, true
	return f, at
}

// finalURL is where a fetch ended: the refused, timed-out or oversized URL, or the one whose
// redirect was not followed, for a failure; after redirects, where the last one pointed.
func (f fetched) finalURL(requested string) string {
	if f.resp != nil {
		return f.resp.URL
	}
	var e *guard.Error
	if !errors.As(f.err, &e) {
		return requested
	}
	switch {
	case e.Kind == guard.KindTimeout, e.Kind == guard.KindTooLarge, e.Kind == guard.KindRedirect:
		return e.URL
	case len(e.Hops) == 0:
		return requested
	case e.Kind == guard.KindRefused, e.Kind == guard.KindAddress:
		return e.URL // user info redacted: a redirect may point to a URL carrying a password
	}
	return e.Hops[len(e.Hops)-1].To // a network failure after redirects: where it happened
}

// isIndex reports whether the answer is a site index: one read, or unchanged (HTTP 304).
func (f fetched) isIndex() bool { return f.err == nil && (f.resp.NotModified || f.kind == KindIndex) }

// indexOutcome is the trail's words for an answer that isIndex.
func (f fetched) indexOutcome() string {
	if f.resp.NotModified {
		return OutcomeIndexUnchanged
	}
	return OutcomeIndex
}

// status is the answer's HTTP status; 0 when the fetch failed.
func (f fetched) status() int {
	if f.resp == nil {
		return 0
	}
	return f.resp.Status
}

// notHere reports whether an answer is a definite "not here": 404 or 410, or a well-formed
// document that is not a DreamWeave one or not the kind looked for. Anything else (a failed
// fetch, another status, a malformed body) is not an answer, and ends discovery.
func (f fetched) notHere() bool {
	if f.err != nil || f.resp.NotModified {
		return false
	}
	switch f.resp.Status {
	case http.StatusNotFound, http.StatusGone:
		return true
	case http.StatusOK:
		return f.kind != KindMalformed
	}
	return false
}

// outcome is the trail's words for an answer that is not a DreamWeave document used here.
func (f fetched) outcome() string {
	switch {
	case f.cut != nil:
		return "not read: " + f.cut.Error()
	case f.err != nil:
		return guard.Words(f.err, guard.Outcome)
	case f.kind == KindMalformed:
		return "not well-formed JSON: " + protocol.Summary(f.findings)
	}
	return statusWords(f.resp, f.kind)
}

// predicate says what an ending answer did, to follow a URL in a sentence ("... answered HTTP
// 503 (service unavailable)").
func (f fetched) predicate() string {
	switch {
	case f.cut != nil:
		return "was not read: " + f.cut.Error()
	case f.err != nil:
		return guard.Words(f.err, guard.Predicate)
	case f.kind == KindMalformed:
		return "served a document that is not well-formed JSON: " + protocol.Summary(f.findings)
	}
	return fmt.Sprintf("answered HTTP %d (%s)", f.resp.Status, strings.ToLower(http.StatusText(f.resp.Status)))
}

// fail ends discovery with e.
func (d *run) fail(e *Error) {
	d.end = e
	d.res.Problem = e.Problem
}

// stop ends discovery at the answer f to a request for u, an answer that is not a definite "not
// here". The problem is one sentence: subject (the URL's role, e.g. "the enrolled URL") and u,
// or with walking, the walk stopping at u; then what the answer was.
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
	d.res.Kind = f.kind
	if f.kind == "" {
		d.res.Kind = KindOther // a 404 or 410: the walk goes on from its URL
	}
	if resp.Status == http.StatusOK && f.kind != KindIndex {
		d.res.PageValidators = validators(resp)
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

// walkUpFromManifest walks up from the project manifest at (the enrolled URL's answer).
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

// pageUnchanged continues from a 304 on the enrolled URL, which was asked conditionally because
// a previous conclusion is held. The document there is unchanged, so what it said stands:
//   - it was the site index: the index is unchanged;
//   - a page with no link, or a project manifest: walking up depends only on its URL, so the
//     walk is run again (nearer levels are asked again, the held index conditionally);
//   - a page linking the site index, reached without a redirect (a relative link means
//     another URL from elsewhere): the held index is asked again; if it does not answer as
//     a site index, it reports false and the page is read again plainly, so its link is
//     followed as written (the held index is where the link's redirects ended) and a broken
//     one stops discovery there.
//
// For any other held method it reports false, and the page is read again plainly.
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
		// The link resolves against where the page is now, which the held conclusion did
		// not see: the page is read again.
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

// followLink fetches the page's DreamWeave link. A site index ends discovery. A project
// manifest link leads to walking up from the manifest's URL, whatever the manifest answered
// (linkedManifest). For an index link anything else ends discovery (d.end): the protocol's
// step 2 stops at a link it cannot use, so a broken link is never walked around. An answer that
// is not the advertised document is a broken link (Error.BrokenLink); no answer at all is an
// outage.
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

// linkedManifest follows a page's project manifest link: the link says where the project's
// manifest is, and the site index is found by walking up from there (the manifest's final URL
// when it answered as one, else the link's href as written: a redirect to something else says
// nothing about where the manifest lives). The manifest is fetched so the trail records what it
// answered and the crawler can check that the index lists it, but its answer is not required:
// a manifest missing or down mid-deploy does not hide an index that is there. It reports
// whether a site index was found (false: the walk from the page goes on); only a fetch the
// caller's context cut short ends discovery.
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

// brokenLink ends discovery at a DreamWeave <link> whose target answered, but not as the
// document the link advertises.
func (d *run) brokenLink(href, at string, f fetched, what string) {
	e := &Error{BrokenLink: true, At: at, Asked: href, Status: f.resp.Status, Findings: f.findings}
	var answer string
	switch {
	case f.kind == KindMalformed:
		answer = "served a document that is not well-formed JSON: " + protocol.Summary(f.findings)
	case f.resp.Status != http.StatusOK:
		answer = fmt.Sprintf("answered HTTP %d (%s)", f.resp.Status, strings.ToLower(http.StatusText(f.resp.Status)))
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

// walkUp tries dreamweave.json beside from, then in each parent directory up to the origin's
// root, skipping URLs already tried. It reports whether a site index was found; it stops at the
// first answer that is not a definite "not here" (d.end).
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

// found records the site index: its response, the method, its canonical URL (store.CanonicalURL:
// the URL names the site), the URL asked whose answer it was and whether a temporary redirect
// led from there to it.
func (d *run) found(resp *guard.Response, method, asked string, temp bool) {
	d.res.IndexURL, d.res.Method, d.res.Response = store.CanonicalURL(resp.URL), method, resp
	d.foundAsked, d.foundTemp = asked, temp
	d.res.Problem = ""
}

// evidence weighs the site index found against the held one (SPEC section 3, "Moves": a move
// rests on evidence from the enrolled URL itself). See the package comment.
func (d *run) evidence() proof {
	x, y := d.held.IndexURL, d.res.IndexURL
	switch {
	case x == "" || x == y:
		return proofStrong // nothing held to move away from
	case d.foundTemp || (d.res.Method == MethodIndex && d.enrolledTemp):
		return proofNone // a temporary redirect led to the index
	case !d.enrolledTemp && (d.res.Method == MethodIndex || d.res.Method == MethodLink):
		return proofStrong
	}
	asked := store.CanonicalURL(d.foundAsked)
	for _, u := range d.ownLevel() {
		if u == asked {
			return proofWeak
		}
	}
	return proofNone
}

// ownLevel lists the canonical URLs of dreamweave.json at the enrolled URL's own level: beside
// the enrolled URL, or beside where its permanent redirects ended (a redirected URL's own
// directory is the target's: /s to /s/ is /s/), and beside the project manifest its page links
// (reached without a temporary redirect). After a temporary redirect, only the enrolled URL's
// own directory, and only when the redirect stayed in it.
func (d *run) ownLevel() []string {
	var out []string
	add := func(u string) {
		if w := WalkUpURLs(u); len(w) > 0 {
			out = append(out, store.CanonicalURL(w[0]))
		}
	}
	at := d.enrolledAt
	if at == "" {
		at = d.enrolled
	}
	if d.enrolledTemp {
		// A temporary redirect says nothing of where the enrolled URL lives: only one that
		// stays in its directory (a page to its index.html) keeps that level.
		if a, b := WalkUpURLs(d.enrolled), WalkUpURLs(at); len(a) > 0 && len(b) > 0 && a[0] == b[0] {
			add(d.enrolled)
		}
		return out
	}
	add(at) // the enrolled URL, or where its permanent redirects ended
	if d.manifestAt != "" && !d.manifestTemp && d.res.Method == MethodLinkManifest {
		add(d.manifestAt)
	}
	return out
}

// askHeld asks the held site index again when the index found is not strong evidence of a
// move. It stands when it answers as a site index in place or through permanent redirects; it
// answering through a temporary redirect, or not answering, ends discovery as an outage; it
// being definitively gone adopts the index found with weak evidence (a move by discovery), and
// otherwise ends discovery naming the index the walk reached. Nothing moves without evidence.
func (d *run) askHeld(p proof) {
	x, y := d.held.IndexURL, d.res.IndexURL
	f := d.get(x, true)
	at := f.finalURL(x)
	temp := Temporary(f.hops)
	method := d.held.Method
	if method == "" {
		method = MethodWalkUp
	}
	answered := f.isIndex()
	reached, short := "discovery reached the site index "+y, "discovery reached "+y
	switch d.res.Method {
	case MethodWalkUp, MethodManifest, MethodLinkManifest:
		reached, short = "walking up the path reached the site index "+y, "walking up reached "+y
	}
	also := strings.Replace(short, " reached ", " also reached ", 1)
	switch {
	case answered && !temp:
		outcome := f.indexOutcome()
		if at != x {
			d.step(at, outcome+"; the held site index "+x+" redirects here permanently, so it stands here ("+also+")")
		} else {
			d.step(at, outcome+"; the held site index stands ("+also+")")
		}
		d.found(f.resp, method, x, false)
		return
	case !answered && !temp && f.notHere() && p == proofWeak:
		d.step(at, f.outcome()+"; the held site index is gone, and "+y+" is at the enrolled URL's own level: the source moved there")
		return
	}
	e := &Error{Outage: true, At: at, Asked: x, Status: f.status(), Err: f.err, Findings: f.findings, Found: y}
	held := x + " " + f.predicate()
	if at != x {
		held = x + ", which redirected to " + at + ", " + f.predicate()
	}
	var why string
	switch {
	case temp:
		d.step(at, f.outcome()+"; "+short+", but the held site index redirects temporarily, so no move is recorded")
		answer := f.predicate()
		if answered {
			answer = "answers as a site index"
		}
		why = "the held site index " + x + " redirects temporarily to " + at + ", which " + answer +
			"; a temporary redirect is no evidence of a move, so none is recorded"
	default:
		d.step(at, f.outcome()+"; "+short+", but the held site index did not answer, so no move is recorded")
		why = "the held site index " + held + "; a walk up alone is no evidence of a move, so none is recorded"
		switch {
		case p == proofWeak: // the held index did not answer: an outage is not a move
			why = "the held site index " + held + "; a site index that does not answer is not gone, so no move is recorded"
		case d.enrolledTemp || d.foundTemp:
			why = "the held site index " + held + "; a temporary redirect is no evidence of a move, so none is recorded"
		}
	}
	e.Problem = reached + ", but " + why
	d.fail(e)
}

// WalkUpURLs lists the URLs step 3 tries from raw, nearest first: dreamweave.json in its
// directory (the last path segment stripped unless the path ends in "/"; query and fragment
// dropped), then in each parent directory up to the origin's root. Nil when raw does not parse
// or is not absolute.
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

// sniff classifies a 200 response body: a DreamWeave document, an HTML page, something else, or
// a body that looks like JSON but is not well-formed (KindMalformed, with the findings).
func sniff(resp *guard.Response) (string, []protocol.Finding) {
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if looksJSON(resp.Body, mt) {
		return sniffJSON(resp.Body)
	}
	if mt == "text/html" || mt == "application/xhtml+xml" {
		return KindPage, nil
	}
	if ct == "" && strings.HasPrefix(http.DetectContentType(resp.Body), "text/html") {
		return KindPage, nil
	}
	return KindOther, nil
}

// looksJSON: a JSON media type, or a body whose first character (after a byte order mark and
// white space) opens a JSON object or array.
func looksJSON(b []byte, mediaType string) bool {
	if mediaType == "application/json" || strings.HasSuffix(mediaType, "+json") {
		return true
	}
	t := strings.TrimLeft(strings.TrimPrefix(string(b[:min(len(b), 4096)]), "\ufeff"), " \t\r\n")
	return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// inputRules are the strict decoder's findings about the bytes themselves: the body is not
// well-formed JSON, so nothing in it can be read.
var inputRules = map[string]bool{
	protocol.RuleSyntax: true, protocol.RuleUTF8: true, protocol.RuleDuplicateKey: true,
	protocol.RuleDepth: true, protocol.RuleNumberRange: true, protocol.RuleCrawlerPolicy: true,
}

// sniffJSON reads b with the protocol's strict decoder: KindIndex or KindProject for a
// DreamWeave document (also one speaking a newer protocol, or failing its schema: the crawler
// reports those), KindMalformed with the findings for bytes that are not well-formed JSON,
// KindOther for other JSON.
func sniffJSON(b []byte) (string, []protocol.Finding) {
	doc, fs := protocol.Decode(b)
	if doc != nil {
		return doc.Kind, nil
	}
	var bad []protocol.Finding
	for _, f := range fs {
		if inputRules[f.Rule] {
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		return KindMalformed, bad
	}
	// Well-formed and free of duplicate keys, so encoding/json reads the same two fields the
	// strict decoder saw.
	var head struct {
		SchemaVersion json.RawMessage `json:"schema_version"`
		Document      json.RawMessage `json:"document"`
	}
	if json.Unmarshal(b, &head) != nil || head.SchemaVersion == nil {
		return KindOther, nil
	}
	var doc2 string
	if json.Unmarshal(head.Document, &doc2) != nil {
		return KindOther, nil
	}
	switch doc2 {
	case protocol.DocIndex:
		return KindIndex, nil
	case protocol.DocProject:
		return KindProject, nil
	}
	return KindOther, nil
}

// statusWords describes an answer that is not a DreamWeave document in the trail's words.
func statusWords(resp *guard.Response, kind string) string {
	switch {
	case resp.NotModified:
		return "unchanged (HTTP 304), but nothing is held for it"
	case resp.Status == http.StatusNotFound:
		return OutcomeNotFound
	case resp.Status != http.StatusOK:
		return fmt.Sprintf("HTTP %d (%s)", resp.Status, strings.ToLower(http.StatusText(resp.Status)))
	case kind == KindPage:
		return OutcomeNoLink
	case kind == KindProject:
		return OutcomeManifest
	case kind == KindIndex:
		return OutcomeIndex
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = "none"
	}
	if json.Valid(resp.Body) {
		return "JSON, but not a DreamWeave document (no schema_version, or document is not \"index\" or \"project\")"
	}
	return "neither DreamWeave JSON nor HTML (Content-Type: " + ct + ")"
}

func validators(resp *guard.Response) store.Validators {
	return store.Validators{ETag: resp.ETag(), LastModified: resp.LastModified()}
}

// request is the GET discovery makes for u: conditional on the validators held for it (under
// its own or its canonical spelling) when asked.
func (d *run) request(u string, conditional bool) guard.Request {
	req := guard.Request{URL: u, Accept: Accept}
	v, ok := d.held.Validators[u]
	if !ok { // held under the canonical spelling (site index URLs are recorded canonical)
		v, ok = d.held.Validators[store.CanonicalURL(u)]
	}
	if ok && conditional {
		req.ETag, req.LastModified = v.ETag, v.LastModified
	}
	return req
}

// askAhead starts the held site index's request through Held.Ahead when a previous conclusion
// is held, the index is not the enrolled URL itself, and validators are held for it (so the
// request is the conditional one discovery would make).
func (d *run) askAhead(enrolled string) {
	x := d.held.IndexURL
	if d.held.Ahead == nil || x == "" || d.held.Method == "" || x == store.CanonicalURL(enrolled) {
		return
	}
	if _, ok := d.held.Validators[x]; !ok {
		return
	}
	d.ahead = d.held.Ahead(d.ctx, d.request(x, true))
}
