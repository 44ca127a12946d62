// Package validate is a publisher's check of their documents as the crawler reads them
// (`ashyams validate`): every stage that can run over the site indexes and manifests given,
// and why any other did not: schema and rules (protocol.Decode), digest and identity against
// the index entry (protocol.ValidateForEntry), and, given a catalog.json, the network checks.
package validate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Stages, in the order they run.
const (
	StageSchema    = "schema"    // strict JSON, the document kind, the protocol's JSON Schema
	StageRules     = "rules"     // the rules the schema cannot express
	StageDigest    = "digest"    // a manifest's bytes against its index entry's manifest_sha256
	StageIdentity  = "identity"  // a manifest's project.id against its index entry's id
	StageTargets   = "targets"   // relationships to project ids the catalog does not list
	StageConflicts = "conflicts" // project ids another site of the catalog publishes
)

// Stage statuses.
const (
	Checked    = "checked"
	NotChecked = protocol.RuleNotChecked
)

// Verdicts, one per document.
const (
	VerdictValid       = "valid"
	VerdictInvalid     = "invalid"
	VerdictRefused     = "refused by crawler policy" // over the size limit: never called invalid
	VerdictNewer       = "speaks a newer protocol"
	VerdictNotDW       = "not a DreamWeave document"
	VerdictUnreadable  = "unreadable"
	VerdictUnreachable = "unreachable"
	VerdictURLRefused  = "refused" // the address guard would not fetch the URL (scheme, SSRF)
	VerdictNotCatalog  = "not a network catalog"
)

// RuleNotListed: a manifest given with site indexes none of whose entries points at it.
const RuleNotListed = "not-listed"

// Finding is a finding with where it is: its document, and its line and column there.
type Finding struct {
	protocol.Finding
	Source string `json:"source"`           // the file or URL
	Line   int    `json:"line,omitempty"`   // 1-based; 0 when not located
	Column int    `json:"column,omitempty"` // 1-based, in characters
}

// Stage is one stage of a document's check: checked, or not and why.
type Stage struct {
	Name   string `json:"stage"`
	Status string `json:"status"`
	Why    string `json:"why,omitempty"`
}

// Result is one document's check.
type Result struct {
	Source   string    `json:"source"`         // the file or URL
	Kind     string    `json:"kind,omitempty"` // protocol.DocIndex, protocol.DocProject or "catalog", when known
	Verdict  string    `json:"verdict"`        // a Verdict* word
	Valid    bool      `json:"valid"`          // the crawler would accept the document
	Error    string    `json:"error,omitempty"`
	Findings []Finding `json:"findings"`
	Stages   []Stage   `json:"stages"`
	Summary  string    `json:"summary"`        // the verdict in words, as the text output says it
	Note     string    `json:"note,omitempty"` // what else was left out, and why

	body  []byte
	doc   *protocol.Doc
	entry *protocol.IndexEntry // the index entry pointing at the manifest, when one does
	where string               // that entry, "<index> /projects/<n>"
}

// OK reports whether the document is valid without a finding.
func (r Result) OK() bool { return r.Valid && len(r.Findings) == 0 }

// Report is one run: the catalog read, when one was asked for, and every document.
type Report struct {
	Catalog   *Result  `json:"catalog,omitempty"`
	Documents []Result `json:"documents"`
}

// OK reports whether the catalog was read and every document is OK.
func (r Report) OK() bool {
	return (r.Catalog == nil || r.Catalog.Valid) && !slices.ContainsFunc(r.Documents, func(d Result) bool { return !d.OK() })
}

// ReadError is a document that could not be read, as its Reader classes it.
type ReadError struct {
	Verdict string // VerdictUnreadable, VerdictUnreachable, VerdictURLRefused or VerdictRefused
	Message string
}

func (e *ReadError) Error() string { return e.Message }

// Reader reads what a run checks, as the crawler reads it.
type Reader interface {
	// Read reads a file or a URL, at most limit bytes; a failure is best a *ReadError.
	Read(ctx context.Context, src string, limit int64) ([]byte, error)
	// Site reads every manifest the site index at indexURL lists, as a refresh does.
	Site(ctx context.Context, indexURL string) (*Site, error)
}

// Site is what a refresh would read of a site: its manifests, or why it would read none.
type Site struct {
	Unused    string // why the crawler reads no manifest of the site; "" when it reads them
	Manifests []SiteManifest
}

// SiteManifest is one manifest a site index lists, as a refresh read it.
type SiteManifest struct {
	URL   string              // resolved against the index's URL
	Entry protocol.IndexEntry // the entry pointing at it
	Place int                 // the entry's place: /projects/<Place>
	Body  []byte              // the bytes served, when Err is nil
	Err   error               // why no bytes were read
}

// MaxCatalogBytes is the most a catalog.json read by --catalog may hold.
const MaxCatalogBytes = 256 << 20

// IsURL reports whether a source names a URL rather than a file.
func IsURL(s string) bool { return strings.Contains(s, "://") }

// Run checks every source (a file or URL) read with rd, against catalog, an index's published
// catalog.json, when not "". The error is the context's or a site read's.
func Run(ctx context.Context, sources []string, catalog string, rd Reader) (Report, error) {
	var rep Report
	var l *protocol.Listing
	var claims listed
	if catalog != "" {
		rep.Catalog, claims = readCatalog(ctx, catalog, rd)
		if rep.Catalog.Valid {
			l = &protocol.Listing{Source: catalog, Listed: claims.listed}
		}
	}
	for _, src := range sources {
		b, err := rd.Read(ctx, src, protocol.MaxDocumentBytes)
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		rep.Documents = append(rep.Documents, read(src, b, err))
		if IsURL(src) && rep.Documents[len(rep.Documents)-1].Kind == protocol.DocIndex {
			site, err := rd.Site(ctx, src)
			if err != nil {
				return rep, err
			}
			rep.Documents = siteResults(rep.Documents, site, sources)
		}
	}
	together(rep.Documents)
	own := ownKeys(rep.Documents)
	if l != nil {
		l.Elsewhere = claims.elsewhere(own)
	}
	for i := range rep.Documents {
		rep.Documents[i].stages(rep.Catalog, l, own)
		rep.Documents[i].finish()
	}
	return rep, nil
}

// read is src's result: its findings by protocol.Decode, or why it was not read.
func read(src string, b []byte, err error) Result {
	r := Result{Source: src, Findings: []Finding{}}
	if err != nil {
		r.readError(err)
		return r
	}
	r.body = b
	d, fs := protocol.Decode(b)
	if r.doc = d; d != nil {
		r.Kind = d.Kind
	}
	r.add(fs...)
	return r
}

func (r *Result) add(fs ...protocol.Finding) {
	for _, f := range fs {
		r.Findings = append(r.Findings, Finding{Finding: f, Source: r.Source})
	}
}

// siteResults appends a result for every manifest of a site read but those given too, or says
// why none was read.
func siteResults(rs []Result, site *Site, given []string) []Result {
	ix := &rs[len(rs)-1]
	switch {
	case site.Unused != "":
		ix.Note = site.Unused
	case len(site.Manifests) == 0 && ix.doc != nil && len(ix.Findings) == 0:
		ix.Note = "no manifest was read"
	}
	for _, m := range site.Manifests {
		if slices.Contains(given, m.URL) {
			continue
		}
		r := read(m.URL, m.Body, m.Err)
		r.Kind, r.entry, r.where = protocol.DocProject, &m.Entry, fmt.Sprintf("%s /projects/%d", ix.Source, m.Place)
		rs = append(rs, r)
	}
	return rs
}
