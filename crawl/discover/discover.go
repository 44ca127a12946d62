// Package discover finds the site index behind an enrolled URL, exactly as SPEC section 1
// ("Discovery") and seeds/crawler.txt ("Per source", step 1) say, and records the trail: each URL
// tried and what came back, in words.
//
// From the enrolled URL U:
//  1. GET U. JSON with schema_version and document "index" or "project" is used as is (only those
//     two top-level fields are sniffed here; full validation is the protocol core's job).
//  2. HTML: exactly one thing is read, the <link rel="alternate"> with a DreamWeave media type
//     (FindLink), its href resolved against the page's URL.
//  3. Otherwise: the query, fragment and last path segment (unless the path ends in "/") are
//     stripped, and dreamweave.json is tried there, then in each parent directory up to the
//     origin's root.
//
// Decisions the spec leaves open, and why:
//   - Where a fetch ended decides what a document speaks for (SPEC's adopted habit): after
//     redirects, the page's final URL is the base for its <link> href and for walking up, and a
//     site index's URL is its final URL. Each redirect is a trail step of its own.
//   - A project manifest (at U, or linked by the page) cannot be used alone: it carries no
//     manifest_sha256 to check it against. Discovery walks up from the manifest's URL to the site
//     index that should list it (Result.Kind or Result.ManifestURL says a manifest was met; the
//     crawler checks the index really lists it).
//   - A linked URL that does not lead to a site index (an error, or a manifest with no index
//     above it) is recorded and discovery goes on with step 3 from the page, as for a page with no
//     link.
//   - A 404 or any other status, a non-DreamWeave answer or a failed fetch at one walk-up level is
//     recorded and the walk continues; a failed fetch at U itself (refused address, timeout,
//     unreachable, over the size limit) ends discovery with that problem.
//   - Conditional GET (see Held): every URL is fetched with the validators held for it, so an
//     unchanged site index costs a 304. The enrolled URL is asked conditionally only when a
//     previous discovery's conclusion is held, since a 304 has no body to read: it means the
//     page is unchanged ("page unchanged (HTTP 304)"), so what it said stands and discovery
//     goes on from there without reading it (see pageUnchanged). Over unchanged sites a second
//     discovery therefore costs a 304 for the page and a 304 for the site index, plus a 404 for
//     each level walked past.
package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

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
// first discovery (nothing conditional).
type Held struct {
	// Validators are the ETag / Last-Modified held per URL: the enrolled URL's (the source
	// record's, Result.PageValidators last time) and the site index's under IndexURL (the origin
	// record's; the same key when the enrolled URL is the index). Any URL discovery fetches is
	// asked conditionally when it has an entry, except the enrolled URL when IndexURL is empty.
	Validators map[string]store.Validators
	// IndexURL and Method are the previous discovery's conclusion for this enrolled URL ("" if
	// it found none). They stand when the enrolled page answers 304.
	IndexURL string
	Method   string
}

// Result is what discovery found. Trail always lists every URL tried, in order.
type Result struct {
	// IndexURL is the site index's URL (final, after redirects); "" when none was found.
	IndexURL string
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
}

// Error is returned when discovery ends without a site index. The Result returned with it still
// holds the trail.
type Error struct {
	URL     string // the enrolled URL
	Problem string // in words; equals Result.Problem
	Err     error  // the guard error that ended discovery at the enrolled URL, if that is why
}

func (e *Error) Error() string { return fmt.Sprintf("discovery from %s: %s", e.URL, e.Problem) }
func (e *Error) Unwrap() error { return e.Err }

// Discover runs discovery from the enrolled URL with the guarded client c. It returns the
// Result and, when no site index was found, an *Error (the Result then has Problem and the
// trail). Fetch failures are facts about the source, recorded in the trail, never panics or
// partial results.
func Discover(ctx context.Context, c *guard.Client, enrolled string, held Held) (*Result, error) {
	d := &run{ctx: ctx, c: c, held: held, res: &Result{}, tried: map[string]bool{}}
	d.discover(enrolled)
	if d.res.IndexURL == "" {
		if d.res.Problem == "" {
			d.res.Problem = "no site index found"
		}
		return d.res, &Error{URL: enrolled, Problem: d.res.Problem, Err: d.endErr}
	}
	return d.res, nil
}

type run struct {
	ctx    context.Context
	c      *guard.Client
	held   Held
	res    *Result
	tried  map[string]bool // URLs with a recorded final outcome
	endErr error
}

// fetched is one GET's answer, classified.
type fetched struct {
	resp *guard.Response
	err  error
	kind string // Kind* of the body, "" for a 304 or a failure
}

func (d *run) step(u, outcome string) {
	d.res.Trail = append(d.res.Trail, store.TrailStep{URL: u, Outcome: outcome})
}

// get fetches u (conditionally when asked and validators are held), records redirects as trail
// steps, and classifies the answer. The final outcome is recorded by the caller.
func (d *run) get(u string, conditional bool) fetched {
	req := guard.Request{URL: u, Accept: Accept}
	if v, ok := d.held.Validators[u]; ok && conditional {
		req.ETag, req.LastModified = v.ETag, v.LastModified
	}
	resp, err := d.c.Get(d.ctx, req)
	var hops []guard.Hop
	if resp != nil {
		hops = resp.Hops
	} else {
		var re *guard.RefusedError
		if errors.As(err, &re) {
			hops = re.Hops
		}
	}
	for _, h := range hops {
		d.step(h.From, fmt.Sprintf("redirects (HTTP %d) to %s", h.Status, h.To))
	}
	if err != nil {
		return fetched{err: err}
	}
	f := fetched{resp: resp}
	if !resp.NotModified && resp.Status == http.StatusOK {
		f.kind = sniff(resp)
	}
	return f
}

// finalURL is where a fetch ended: the refused or timed-out URL for a failure.
func (f fetched) finalURL(requested string) string {
	if f.resp != nil {
		return f.resp.URL
	}
	var re *guard.RefusedError
	if errors.As(f.err, &re) && re.Hop > 0 {
		return re.URL
	}
	var te *guard.TimeoutError
	if errors.As(f.err, &te) {
		return te.URL
	}
	return requested
}

func (d *run) discover(enrolled string) {
	conditional := d.held.IndexURL != ""
	f := d.get(enrolled, conditional)
	if f.err == nil && f.resp.NotModified {
		if conditional && d.pageUnchanged(enrolled, f) {
			return
		}
		// A 304 without a usable conclusion: read the page again, plainly.
		d.step(f.resp.URL, "unchanged (HTTP 304), but no conclusion is held for it; read again")
		f = d.get(enrolled, false)
	}
	at := f.finalURL(enrolled)
	if f.err != nil {
		words := failureWords(f.err)
		d.step(at, words)
		d.res.Problem, d.endErr = words, f.err
		return
	}
	resp := f.resp
	d.tried[at] = true
	d.res.Kind = f.kind
	if f.kind == "" {
		d.res.Kind = KindOther
	}
	if resp.Status == http.StatusOK && f.kind != KindIndex {
		d.res.PageValidators = validators(resp)
	}
	switch f.kind {
	case KindIndex:
		d.step(at, OutcomeIndex)
		d.found(resp, MethodIndex)
		return
	case KindProject:
		d.step(at, OutcomeManifest)
		d.res.ManifestURL, d.res.Manifest = at, resp
		if !d.walkUp(at, MethodManifest) {
			d.res.Problem = "a project manifest, but no site index was found above it"
		}
		return
	case KindPage:
		base, _ := url.Parse(at)
		link, ok := FindLink(resp.Body, base)
		if !ok {
			d.step(at, OutcomeNoLink)
			break
		}
		if link.Kind == KindIndex {
			d.step(at, "links the site index at "+link.Href)
		} else {
			d.step(at, "links a project manifest at "+link.Href)
		}
		if d.followLink(link) {
			return
		}
	default:
		d.step(at, statusWords(resp, f.kind))
	}
	d.walkUpFromPage(at)
}

func (d *run) walkUpFromPage(at string) {
	if !d.walkUp(at, MethodWalkUp) && d.res.Problem == "" {
		d.res.Problem = "no DreamWeave <link> and no " + IndexFile + " in any parent directory"
	}
}

// pageUnchanged continues from a 304 on the enrolled URL, which was asked conditionally because
// a previous conclusion is held. The document there is unchanged, so what it said stands:
//   - it was the site index: the index is unchanged;
//   - a page with no link, or a project manifest: walking up depends only on its URL, so the
//     walk is run again (nearer levels are asked again, the held index conditionally);
//   - a page linking the site index: the held index is asked again, and if it no longer answers
//     as one, the walk up from the page runs as for a page whose link leads nowhere.
//
// For any other held method it reports false, and the page is read again plainly.
func (d *run) pageUnchanged(enrolled string, f fetched) bool {
	at := f.resp.URL
	d.tried[at] = true
	switch {
	case at == d.held.IndexURL:
		d.step(at, OutcomeIndexUnchanged)
		d.res.Kind = KindIndex
		d.found(f.resp, MethodIndex)
	case d.held.Method == MethodWalkUp:
		d.step(at, OutcomePageUnchanged)
		d.res.Kind, d.res.PageValidators = KindPage, d.held.Validators[enrolled]
		d.walkUpFromPage(at)
	case d.held.Method == MethodManifest:
		d.step(at, "project manifest unchanged (HTTP 304)")
		d.res.Kind, d.res.PageValidators = KindProject, d.held.Validators[enrolled]
		d.res.ManifestURL, d.res.Manifest = at, f.resp
		if !d.walkUp(at, MethodManifest) {
			d.res.Problem = "a project manifest, but no site index was found above it"
		}
	case d.held.Method == MethodLink:
		d.step(at, OutcomePageUnchanged)
		d.res.Kind, d.res.PageValidators = KindPage, d.held.Validators[enrolled]
		if !d.followLink(Link{Href: d.held.IndexURL, Kind: KindIndex}) {
			d.walkUpFromPage(at)
		}
	default:
		return false
	}
	return true
}

// followLink fetches the page's DreamWeave link. A site index ends discovery; a project
// manifest leads to walking up from it. Anything else is recorded and reported false.
func (d *run) followLink(link Link) bool {
	if d.tried[link.Href] {
		return false
	}
	f := d.get(link.Href, true)
	at := f.finalURL(link.Href)
	d.tried[link.Href], d.tried[at] = true, true
	switch {
	case f.err != nil:
		d.step(at, failureWords(f.err))
	case f.resp.NotModified:
		d.step(at, OutcomeIndexUnchanged)
		d.found(f.resp, MethodLink)
		return true
	case f.kind == KindIndex:
		d.step(at, OutcomeIndex)
		d.found(f.resp, MethodLink)
		return true
	case f.kind == KindProject:
		d.step(at, OutcomeManifest)
		d.res.ManifestURL, d.res.Manifest = at, f.resp
		return d.walkUp(at, MethodLinkManifest) // if not, the walk from the page goes on
	default:
		d.step(at, statusWords(f.resp, f.kind))
	}
	return false
}

// walkUp tries dreamweave.json beside from, then in each parent directory up to the origin's
// root, skipping URLs already tried. It reports whether a site index was found.
func (d *run) walkUp(from, method string) bool {
	for _, u := range walkUpURLs(from) {
		if d.tried[u] {
			continue
		}
		f := d.get(u, true)
		at := f.finalURL(u)
		d.tried[u], d.tried[at] = true, true
		switch {
		case f.err != nil:
			d.step(at, failureWords(f.err))
		case f.resp.NotModified:
			d.step(at, OutcomeIndexUnchanged)
			d.found(f.resp, method)
			return true
		case f.kind == KindIndex:
			d.step(at, OutcomeIndex)
			d.found(f.resp, method)
			return true
		case f.kind == KindProject:
			d.step(at, OutcomeManifest+", not a site index")
		default:
			d.step(at, statusWords(f.resp, f.kind))
		}
	}
	return false
}

func (d *run) found(resp *guard.Response, method string) {
	d.res.IndexURL, d.res.Method, d.res.Response = resp.URL, method, resp
	d.res.Problem = ""
}

// WalkUpURLs lists the URLs step 3 tries from u, nearest first: dreamweave.json in u's directory
// (the last path segment stripped unless the path ends in "/"; query and fragment dropped), then
// in each parent directory up to the origin's root. Nil when u does not parse or is not absolute.
func WalkUpURLs(u string) []string { return walkUpURLs(u) }

func walkUpURLs(raw string) []string {
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

// sniff classifies a 200 response body: a DreamWeave document (only schema_version and document
// are read), an HTML page, or something else.
func sniff(resp *guard.Response) string {
	if k := sniffJSON(resp.Body); k != "" {
		return k
	}
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if mt == "text/html" || mt == "application/xhtml+xml" {
		return KindPage
	}
	if ct == "" && strings.HasPrefix(http.DetectContentType(resp.Body), "text/html") {
		return KindPage
	}
	return ""
}

// sniffJSON returns KindIndex or KindProject for a JSON object with schema_version and document
// "index" or "project"; "" otherwise.
func sniffJSON(b []byte) string {
	var head struct {
		SchemaVersion json.RawMessage `json:"schema_version"`
		Document      json.RawMessage `json:"document"`
	}
	if json.Unmarshal(b, &head) != nil || head.SchemaVersion == nil {
		return ""
	}
	var doc string
	if json.Unmarshal(head.Document, &doc) != nil {
		return ""
	}
	switch doc {
	case "index":
		return KindIndex
	case "project":
		return KindProject
	}
	return ""
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
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = "none"
	}
	if json.Valid(resp.Body) {
		return "JSON, but not a DreamWeave document (no schema_version, or document is not \"index\" or \"project\")"
	}
	mt, _, _ := mime.ParseMediaType(ct)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		return "not valid JSON (Content-Type: " + ct + ")"
	}
	return "neither DreamWeave JSON nor HTML (Content-Type: " + ct + ")"
}

// failureWords describes a failed fetch in the trail's words.
func failureWords(err error) string {
	var re *guard.RefusedError
	var tl *guard.TooLargeError
	var te *guard.TimeoutError
	var rd *guard.RedirectError
	switch {
	case errors.As(err, &re):
		if re.AddressGuard {
			return "refused by the address guard: " + re.Reason
		}
		return "refused: " + re.Reason
	case errors.As(err, &tl):
		return "refused by crawler policy: over the " + guard.FormatBytes(tl.Limit) + " limit"
	case errors.As(err, &te):
		return fmt.Sprintf("timed out after %s", te.Timeout)
	case errors.As(err, &rd):
		return "redirect not followed: " + rd.Reason
	}
	if inner := errors.Unwrap(err); inner != nil {
		err = inner
	}
	return "unreachable: " + err.Error()
}

func validators(resp *guard.Response) store.Validators {
	return store.Validators{ETag: resp.ETag(), LastModified: resp.LastModified()}
}
