// Package store reads and writes the state directory, a checkout of the network-state branch
// (seeds/state.txt; record keys as the reference index's, FORMATS section 1):
//
//	network.json                          Network
//	sources/<source>.json                 Source, one per enrolled URL
//	origins/<site>/origin.json            Origin, one per site index
//	origins/<site>/dreamweave.json        the site index's last good bytes
//	claims/<project>/<site>/claim.json    Claim, one per (project id, site)
//	claims/<project>/<site>/manifest.json the claim's last good manifest
//	events/<event>.json                   Event, never rewritten
//	media/<sha256>.<ext>                  cached card images
//
// Times are TimeFormat; a nullable time is a *string. Names and event ids are the
// reference's, so either index continues the other's state. What a killed atomic write leaves
// Load skips, Check reports and Tidy removes.
package store

import (
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Format is the state layout version written to network.json.
const Format = 1

// TimeFormat is the layout of every observation time in the state.
const TimeFormat = "2006-01-02T15:04:05Z"

// File and directory names inside the state root (seeds/state.txt, "Layout").
const (
	NetworkFile  = "network.json"    // at the root: Network
	SourcesDir   = "sources"         // <source>.json: Source
	OriginsDir   = "origins"         // <site>/: OriginFile and IndexFile
	ClaimsDir    = "claims"          // <project>/<site>/: ClaimFile and ManifestFile
	EventsDir    = "events"          // <event>.json: Event
	MediaDir     = "media"           // <sha256>.<ext>: cached card images
	OriginFile   = "origin.json"     // Origin
	IndexFile    = "dreamweave.json" // the site index's last good bytes, as served
	ClaimFile    = "claim.json"      // Claim
	ManifestFile = "manifest.json"   // the claim's last good manifest, as served
	// ReferenceReadme is the README the reference's save writes at the root.
	ReferenceReadme = "README.md"
)

// Network is network.json (FORMATS section 1.1); the json:"-" fields live in the own file.
type Network struct {
	Format     int    `json:"format"`
	Crawler    string `json:"crawler"`     // product.UserAgent
	ObservedAt string `json:"observed_at"` // when the last refresh started
	// HealthChanges are the health transitions of the refresh that wrote the file (health is
	// not an event: events are manifest transitions).
	HealthChanges []HealthChange `json:"-"`
	// Interrupted is set when that refresh did not finish (a signal, the deadline, killed).
	Interrupted *Interrupted `json:"-"`
}

// Interrupted records a refresh cut short. A record named here keeps what the previous
// refresh wrote, so the state stays sound.
type Interrupted struct {
	At     string `json:"at"`     // when the refresh stopped taking new work
	Reason string `json:"reason"` // why, in words
	// Unknown is set in the record a refresh writes when it starts: killed, it says it did not
	// finish without knowing what was read.
	Unknown bool `json:"unknown,omitempty"`
	// SourcesNotRead are the enrolled URLs whose record was not written, sorted.
	SourcesNotRead []string `json:"sources_not_read"`
	// SitesNotRead are the held sites none of whose records were written, sorted.
	SitesNotRead []string `json:"sites_not_read"`
	// SitesPartlyRead are the sites this refresh began to read and did not finish.
	SitesPartlyRead []PartlyRead `json:"sites_partly_read"`
}

// PartlyRead is a site whose reading was cut short.
type PartlyRead struct {
	Site     string   `json:"site"`
	Projects []string `json:"projects"` // project ids not read, sorted
}

// HealthChange is one health transition: Project "" for a site's own health, Before "" when
// first seen, Problem nil when recovered.
type HealthChange struct {
	Project string  `json:"project,omitempty"`
	Origin  string  `json:"origin"`
	Before  string  `json:"before"`
	After   string  `json:"after"`
	Problem *string `json:"problem"`
}

// Source health values: the reference index's vocabulary (FORMATS section 1.2). Every value
// but SourceResolved comes with a Problem.
const (
	SourceResolved           = "resolved"            // discovery reached a site index
	SourceUnreachable        = "unreachable"         // a network or HTTP failure stopped discovery
	SourceRefused            = "refused"             // crawler policy refused a URL on the way
	SourceNoIndex            = "no-index"            // no site index at or above the URL, none linked
	SourceBrokenLink         = "broken-link"         // a linked site index could not be read
	SourceUnsupportedVersion = "unsupported-version" // a document on the way speaks a newer protocol
)

// Source health values of this index that the reference vocabulary lacks.
const (
	SourceUnresolved = "unresolved" // discovery ended without a site index; Problem says why
	// SourceRemoved: the URL left network/sources.toml; the record stays, unread, and its
	// sites' claims are withdrawn unless another source leads to them.
	SourceRemoved = "removed"
)

// SourceHealths lists the reference's source health values in FORMATS section 1.2's order.
var SourceHealths = []string{SourceResolved, SourceUnreachable, SourceRefused, SourceNoIndex, SourceBrokenLink, SourceUnsupportedVersion}

// Source is one enrolled URL: the site it led to, how, and the trail (FORMATS section 1.2).
type Source struct {
	URL         string      `json:"url"`    // as in network/sources.toml; the file is SourceID(URL)
	Origin      *string     `json:"origin"` // the site id discovery led to; null if none
	Health      string      `json:"health"`
	Problem     *string     `json:"problem"` // in words; null when resolved
	Method      *string     `json:"method"`  // how the site index was found, in words
	Trail       []TrailStep `json:"trail"`   // every URL discovery tried, in order
	Validators  Validators  `json:"-"`
	LastAttempt string      `json:"last_attempt"`
	LastSuccess *string     `json:"last_success"` // null if never
	// Findings are the problems of the last read; Problem words the first.
	Findings []Finding `json:"-"`
}

// TrailStep is one URL discovery tried and what came back, in words.
type TrailStep struct {
	URL     string `json:"url"`
	Outcome string `json:"outcome"` // what came back, in words
}

// Validators are the HTTP validators of the last good response, for the next conditional
// GET. A transport courtesy: manifest_sha256 stays the change signal.
type Validators struct {
	ETag         string `json:"etag,omitempty"`          // as sent
	LastModified string `json:"last_modified,omitempty"` // as sent
}

// Origin health values: the catalog v1 origin_health vocabulary.
const (
	OriginHealthy            = "healthy"
	OriginUnreachable        = "unreachable"         // the index could not be read
	OriginRefused            = "refused"             // refused by crawler policy
	OriginNoIndex            = "no-index"            // the response was not a DreamWeave site index
	OriginInvalidIndex       = "invalid-index"       // the site index fails the protocol
	OriginUnsupportedVersion = "unsupported-version" // the site speaks a newer protocol
)

// OriginHealthLabel is the wording for an origin health value; a value that is its own word
// is returned unchanged.
func OriginHealthLabel(health string) string { return label(originLabels, health) }

var originLabels = map[string]string{
	OriginRefused:            "refused by crawler policy",
	OriginNoIndex:            "no site index",
	OriginInvalidIndex:       "invalid site index",
	OriginUnsupportedVersion: "speaks a newer protocol",
}

func label(labels map[string]string, health string) string {
	if l, ok := labels[health]; ok {
		return l
	}
	return health
}

// Origin is one site index, with the reference index's keys in its order (FORMATS section
// 1.3); the json:"-" fields live in the own file.
type Origin struct {
	ID          string     `json:"id"`        // SiteID(IndexURL), the directory name
	IndexURL    string     `json:"index_url"` // final after redirects
	SiteName    *string    `json:"site_name"` // publisher text (site.name)
	SiteURL     *string    `json:"site_url"`  // publisher text (site.url)
	Generator   *string    `json:"generator"` // publisher text
	Sources     []string   `json:"sources"`   // enrolled URLs that lead here, sorted
	Redirects   []string   `json:"redirects"` // every URL that redirected on the way to IndexURL, once each, in order
	Validators  Validators `json:"validators"`
	IndexSHA256 *string    `json:"index_sha256"` // SHA-256 of the held dreamweave.json; null when none
	// PendingSHA256 is set while dreamweave.json is being replaced (see Claim.PendingSHA256).
	PendingSHA256 *string   `json:"-"`
	Health        string    `json:"health"`
	Problem       *string   `json:"problem"`  // in words; null when healthy
	Issues        []string  `json:"issues"`   // publication issues that did not stop the read, in words
	Previous      []Move    `json:"previous"` // the sites this site continues, oldest first
	FirstObserved string    `json:"first_observed"`
	LastAttempt   string    `json:"last_attempt"`
	LastSuccess   *string   `json:"last_success"` // null if never
	Findings      []Finding `json:"-"`            // the problems of the last read
}

// PreviousIDs are the site ids of o.Previous, in order.
func (o Origin) PreviousIDs() []string {
	out := make([]string, 0, len(o.Previous))
	for _, m := range o.Previous {
		out = append(out, m.Origin)
	}
	return out
}

// Move is an old site a site continues: an enrolled source that led there now leads here
// (FORMATS section 1.3).
type Move struct {
	Origin     string `json:"origin"` // the old site's id
	IndexURL   string `json:"index_url"`
	ObservedAt string `json:"observed_at"` // the refresh that saw the move
	Evidence   string `json:"evidence"`    // MoveEvidence's words
}

// MoveEvidence is a Move's evidence, in the reference index's words.
func MoveEvidence(sourceURL string, redirected bool) string {
	if redirected {
		return "the enrolled source " + sourceURL + " now redirects to this site"
	}
	return "the enrolled source " + sourceURL + " now leads to this site"
}

// Claim health values: the catalog v1 claim_health vocabulary.
const (
	ClaimCurrent             = "current"
	ClaimOriginUnavailable   = "origin-unavailable"
	ClaimManifestUnreachable = "manifest-unreachable"
	ClaimInvalid             = "invalid"
	ClaimInconsistent        = "inconsistent"
	ClaimRefused             = "refused"
	ClaimWithdrawn           = "withdrawn"
)

// HealthLabel is the state.txt wording for a claim health value; unknown values are returned
// unchanged.
func HealthLabel(health string) string { return label(claimLabels, health) }

// ClaimHealthText is a claim's health as its claim page words it. held: a manifest is held;
// cached: it is not the one the site advertises.
func ClaimHealthText(health string, held, cached bool) string {
	switch {
	case health == ClaimWithdrawn:
		return "withdrawn"
	case !held:
		return "no manifest yet: " + HealthLabel(health)
	case health != ClaimCurrent:
		return "cached: " + HealthLabel(health)
	case cached:
		return "cached"
	}
	return "current"
}

var claimLabels = map[string]string{
	ClaimOriginUnavailable:   "origin unavailable",
	ClaimManifestUnreachable: "manifest unreachable",
	ClaimInvalid:             "invalid publication",
	ClaimInconsistent:        "inconsistent deployment",
	ClaimRefused:             "refused by crawler policy",
}

// ClaimHealths lists the claim health tokens (the catalog v1 claim_health vocabulary).
var ClaimHealths = []string{ClaimCurrent, ClaimOriginUnavailable, ClaimManifestUnreachable, ClaimInvalid, ClaimInconsistent, ClaimRefused, ClaimWithdrawn}

// OriginHealths lists the origin health tokens (the catalog v1 origin_health vocabulary).
var OriginHealths = []string{OriginHealthy, OriginUnreachable, OriginRefused, OriginNoIndex, OriginInvalidIndex, OriginUnsupportedVersion}

// ClaimHealthToken maps a claim record's health, the token or its HealthLabel words, to the
// token.
func ClaimHealthToken(s string) (token string, ok bool) {
	for _, tok := range ClaimHealths {
		if s == tok || s == HealthLabel(tok) {
			return tok, true
		}
	}
	return "", false
}

// OriginHealthToken maps an origin record's health, the token or its words with spaces for
// hyphens, to the token.
func OriginHealthToken(s string) (token string, ok bool) {
	for _, tok := range OriginHealths {
		if s == tok || s == strings.ReplaceAll(tok, "-", " ") {
			return tok, true
		}
	}
	return "", false
}

// Claim is one (project id, site) pair, with the reference's keys in its order (FORMATS
// section 1.4); the json:"-" fields live in the own file. MovedTo and MovedFrom are read,
// never written.
type Claim struct {
	Project          string              `json:"project"`           // also the first directory name
	Origin           string              `json:"origin"`            // the site id, also the second directory name
	Entry            protocol.IndexEntry `json:"entry"`             // the site index's entry, as listed
	AdvertisedSHA256 string              `json:"advertised_sha256"` // the entry's manifest_sha256
	IngestedSHA256   *string             `json:"ingested_sha256"`   // of the held manifest.json; null when none
	// PendingSHA256 is set while manifest.json is being replaced: the claim is written with it,
	// then manifest.json, then the claim without it, so Check accepts a manifest hashing to
	// either digest and the next refresh settles it.
	PendingSHA256 *string    `json:"-"`
	Validators    Validators `json:"-"`
	Rejected      *Rejected  `json:"rejected"` // the last refused manifest, by digest; null when none
	Health        string     `json:"health"`
	Problem       *string    `json:"problem"`              // in words; null when current
	Media         *Media     `json:"media"`                // the card image; null when the manifest names none
	MovedTo       *string    `json:"moved_to,omitempty"`   // site id this claim moved to
	MovedFrom     *string    `json:"moved_from,omitempty"` // site id this claim continues
	FirstObserved string     `json:"first_observed"`
	LastChanged   *string    `json:"last_changed"` // when the held manifest last changed
	LastAttempt   string     `json:"last_attempt"`
	LastSuccess   *string    `json:"last_success"` // null if never
	Findings      []Finding  `json:"-"`            // the problems of the last read
}

// Ingested is the held manifest's digest, "" when none is held (IngestedSHA256 null).
func (c Claim) Ingested() string { return deref(c.IngestedSHA256) }

// Rejected remembers a refused manifest by digest, so the same bytes are not fetched every
// refresh; a new Crawler version reads them again (FORMATS section 1.4).
type Rejected struct {
	SHA256  string `json:"sha256"`
	Crawler string `json:"crawler"` // the refusing crawler's version
	Problem string `json:"problem"` // why, in words
	// Health is ClaimRefused for bytes refused by crawler policy; "" means ClaimInvalid.
	Health string `json:"-"`
}

// RejectedHealth is the claim health a remembered refusal gives while its digest is still
// advertised.
func (r Rejected) RejectedHealth() string {
	if r.Health == "" {
		return ClaimInvalid
	}
	return r.Health
}

// Media is the claim's card image: the cached file or the problem that kept it out (FORMATS
// section 1.4).
type Media struct {
	URL     string  `json:"url"`     // the manifest's card image URL
	Alt     string  `json:"alt"`     // publisher text
	File    *string `json:"file"`    // "media/<sha256>.<ext>"; null when not cached
	Problem *string `json:"problem"` // why it is not cached, in words; null when cached
	// Definitive: Problem refuses the image itself, remembered while the manifest is
	// unchanged; false with a Problem: transient, tried again next refresh.
	Definitive bool `json:"-"`
}

// Event kinds.
const (
	EventObserved  = "observed"  // first time this claim was seen
	EventChanged   = "changed"   // the held manifest was replaced
	EventWithdrawn = "withdrawn" // the site's index no longer lists the project
	EventRestored  = "restored"  // a withdrawn claim is listed again
)

// Event is one observed transition of a claim, written once (FORMATS section 1.5).
type Event struct {
	ID         string        `json:"id"` // EventID of its facts; the file name
	Kind       string        `json:"kind"`
	Project    string        `json:"project"`
	Origin     string        `json:"origin"`
	Name       string        `json:"name"`        // when observed (publisher text)
	ObservedAt string        `json:"observed_at"` // the refresh's start time
	Before     *string       `json:"before"`      // manifest digest before; null for none
	After      *string       `json:"after"`       // manifest digest after; null for none
	Changes    []diff.Change `json:"changes"`
	MovedFrom  *string       `json:"moved_from,omitempty"` // the site id a moved claim continues
}
