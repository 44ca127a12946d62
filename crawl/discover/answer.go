package discover

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// fetched is one GET's answer, classified.
type fetched struct {
	resp     *guard.Response
	hops     []guard.Hop // the redirects followed (also before a failure)
	err      error
	kind     string             // Kind* of a 200's body, "" for any other answer or a failure
	findings []protocol.Finding // KindMalformed: the strict decoder's findings
	cut      error              // the caller's context ended the fetch: its cause (a budget, an interrupt)
}

// step records one trail step at u's canonical spelling.
func (d *run) step(u, outcome string) {
	d.res.Trail = append(d.res.Trail, store.TrailStep{URL: store.CanonicalURL(u), Outcome: outcome})
}

// get fetches u, records each redirect as a trail step and classifies the answer.
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

// finalURL is where a fetch ended: after redirects, or the URL a failure is about.
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

func (f fetched) isIndex() bool { return f.err == nil && (f.resp.NotModified || f.kind == KindIndex) }

func (f fetched) indexOutcome() string {
	if f.resp.NotModified {
		return OutcomeIndexUnchanged
	}
	return OutcomeIndex
}

func (f fetched) status() int {
	if f.resp == nil {
		return 0
	}
	return f.resp.Status
}

// notHere reports a definite "not here": 404, 410, or a well-formed 200.
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

// outcome is the trail's words for an answer not used as a DreamWeave document.
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

// predicate says what an ending answer did, after a URL ("answered HTTP 503 (...)").
func (f fetched) predicate() string {
	switch {
	case f.cut != nil:
		return "was not read: " + f.cut.Error()
	case f.err != nil:
		return guard.Words(f.err, guard.Predicate)
	case f.kind == KindMalformed:
		return "served a document that is not well-formed JSON: " + protocol.Summary(f.findings)
	}
	return "answered " + httpStatus(f.resp.Status)
}

func httpStatus(code int) string {
	return fmt.Sprintf("HTTP %d (%s)", code, strings.ToLower(http.StatusText(code)))
}

// sniff classifies a 200's body as a Kind*, with the findings for KindMalformed.
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

// looksJSON: a JSON media type, or a body opening with "{" or "[" after a BOM and white space.
func looksJSON(b []byte, mediaType string) bool {
	if mediaType == "application/json" || strings.HasSuffix(mediaType, "+json") {
		return true
	}
	t := strings.TrimLeft(strings.TrimPrefix(string(b[:min(len(b), 4096)]), "\ufeff"), " \t\r\n")
	return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// inputRules are the strict decoder's findings that the bytes are not well-formed JSON.
var inputRules = map[string]bool{
	protocol.RuleSyntax: true, protocol.RuleUTF8: true, protocol.RuleDuplicateKey: true,
	protocol.RuleDepth: true, protocol.RuleNumberRange: true, protocol.RuleCrawlerPolicy: true,
}

// sniffJSON reads b with the strict decoder: KindIndex or KindProject (even an invalid one),
// KindMalformed with the findings, or KindOther.
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
	// Well-formed without duplicate keys: encoding/json reads what the strict decoder saw.
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

func statusWords(resp *guard.Response, kind string) string {
	switch {
	case resp.NotModified:
		return "unchanged (HTTP 304), but nothing is held for it"
	case resp.Status == http.StatusNotFound:
		return OutcomeNotFound
	case resp.Status != http.StatusOK:
		return httpStatus(resp.Status)
	case kind == KindPage:
		return OutcomeNoLink
	case kind == KindProject:
		return OutcomeManifest
	case kind == KindIndex:
		return OutcomeIndex
	}
	ct := cmp.Or(resp.Header.Get("Content-Type"), "none")
	if json.Valid(resp.Body) {
		return "JSON, but not a DreamWeave document (no schema_version, or document is not \"index\" or \"project\")"
	}
	return "neither DreamWeave JSON nor HTML (Content-Type: " + ct + ")"
}

// request is the GET for u, conditional on its held validators (own or canonical spelling).
func (d *run) request(u string, conditional bool) guard.Request {
	req := guard.Request{URL: u, Accept: Accept}
	v, ok := d.held.Validators[u]
	if !ok {
		v, ok = d.held.Validators[store.CanonicalURL(u)]
	}
	if ok && conditional {
		req.ETag, req.LastModified = v.ETag, v.LastModified
	}
	return req
}

// askAhead asks the held index through Held.Ahead when a conclusion and validators are held
// and the index is not the enrolled URL.
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
