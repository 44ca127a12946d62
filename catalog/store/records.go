// Package store reads and writes the state directory: the index's memory, a checkout of the
// network-state branch. Layout, naming and "last good" are normative in seeds/state.txt; record
// field names follow the records the reference index publishes (corpus/state/).
//
// Layout, relative to the state root:
//
//	network.json                          Network
//	sources/<source>.json                 Source, one per enrolled URL
//	origins/<site>/origin.json            Origin, one per site index
//	origins/<site>/dreamweave.json        the site index's last good bytes, as served
//	claims/<project>/<site>/claim.json    Claim, one per (project id, site)
//	claims/<project>/<site>/manifest.json the claim's last good manifest, as served
//	events/<event>.json                   Event, one per observed transition, never rewritten
//	media/<sha256>.<ext>                  cached card images, named by digest
//
// Times are UTC with second precision, "2006-01-02T15:04:05Z" (TimeFormat). A nullable time is
// a *string that marshals as null.
package store

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Format is the state layout version written to network.json.
const Format = 1

// TimeFormat is the layout of every observation time in the state.
const TimeFormat = "2006-01-02T15:04:05Z"

// File and directory names inside the state root.
const (
	NetworkFile  = "network.json"
	SourcesDir   = "sources"
	OriginsDir   = "origins"
	ClaimsDir    = "claims"
	EventsDir    = "events"
	MediaDir     = "media"
	OriginFile   = "origin.json"
	IndexFile    = "dreamweave.json"
	ClaimFile    = "claim.json"
	ManifestFile = "manifest.json"
)

// Network is network.json: when the last refresh started and which crawler ran it.
type Network struct {
	Format     int    `json:"format"`
	Crawler    string `json:"crawler"`
	ObservedAt string `json:"observed_at"`
	// HealthChanges lists what changed health in the refresh that wrote this file (a claim
	// going stale or recovering, a site becoming unavailable...), so `ashyams diff` and the
	// summary can say so. Health is not an event: events are manifest transitions.
	HealthChanges []HealthChange `json:"health_changes,omitempty"`
}

// HealthChange is one health transition seen by a refresh. Project is empty for a site's own
// health; Before is empty the first time a claim or site is seen. Problem is the record's
// problem after the change (nil when it recovered).
type HealthChange struct {
	Project string  `json:"project,omitempty"`
	Origin  string  `json:"origin"`
	Before  string  `json:"before"`
	After   string  `json:"after"`
	Problem *string `json:"problem"`
}

// Source health values (sources/<source>.json "health").
const (
	SourceResolved   = "resolved"   // discovery found a site index
	SourceUnresolved = "unresolved" // discovery ended without a site index; Problem says why
	// SourceRemoved: the URL is no longer listed in network/sources.toml. The record stays (Git
	// keeps the history anyway); the refresh no longer reads it and its sites' claims are
	// withdrawn unless another enrolled source still leads to them.
	SourceRemoved = "removed"
)

// Source is one enrolled URL: which site it led to, how, and the discovery trail.
type Source struct {
	URL         string      `json:"url"`
	Origin      *string     `json:"origin"`
	Health      string      `json:"health"`
	Problem     *string     `json:"problem"`
	Method      *string     `json:"method"`
	Trail       []TrailStep `json:"trail"`
	Validators  Validators  `json:"validators,omitzero"`
	LastAttempt string      `json:"last_attempt"`
	LastSuccess *string     `json:"last_success"`
}

// TrailStep is one URL discovery tried and what came back, in words.
type TrailStep struct {
	URL     string `json:"url"`
	Outcome string `json:"outcome"`
}

// Validators are the HTTP validators a server sent with the last good response, sent back on
// the next conditional GET. A transport courtesy: manifest_sha256 stays the change signal.
type Validators struct {
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

// Origin health values. They are the catalog v1 origin_health vocabulary.
const (
	OriginHealthy            = "healthy"
	OriginUnreachable        = "unreachable"         // the index could not be read
	OriginRefused            = "refused"             // refused by crawler policy (a limit, the address guard)
	OriginNoIndex            = "no-index"            // the response was not a DreamWeave site index
	OriginInvalidIndex       = "invalid-index"       // the site index fails the protocol
	OriginUnsupportedVersion = "unsupported-version" // the site speaks a newer protocol
)

// Origin is one site index: its health, its last good bytes' digest, validators and moves.
type Origin struct {
	ID          string     `json:"id"`
	IndexURL    string     `json:"index_url"`
	SiteName    *string    `json:"site_name"`
	SiteURL     *string    `json:"site_url"`
	Generator   *string    `json:"generator"`
	Sources     []string   `json:"sources"`
	Redirects   []Redirect `json:"redirects"`
	Validators  Validators `json:"validators"`
	IndexSHA256 *string    `json:"index_sha256"`
	// PendingSHA256 is set only while dreamweave.json is being replaced (see Claim.PendingSHA256).
	PendingSHA256 *string  `json:"pending_sha256,omitempty"`
	Health        string   `json:"health"`
	Problem       *string  `json:"problem"`
	Issues        []string `json:"issues"`
	Previous      []string `json:"previous"`
	FirstObserved string   `json:"first_observed"`
	LastAttempt   string   `json:"last_attempt"`
	LastSuccess   *string  `json:"last_success"`
}

// Redirect is a redirect hop the crawler followed on the way to this site's index.
type Redirect struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Status int    `json:"status"`
}

// Claim health values: the catalog v1 claim_health vocabulary. HealthLabel gives the words
// seeds/state.txt uses for each.
const (
	ClaimCurrent             = "current"
	ClaimOriginUnavailable   = "origin-unavailable"
	ClaimManifestUnreachable = "manifest-unreachable"
	ClaimInvalid             = "invalid"
	ClaimInconsistent        = "inconsistent"
	ClaimRefused             = "refused"
	ClaimWithdrawn           = "withdrawn"
)

// HealthLabel is the state.txt wording for a claim health value ("invalid publication",
// "inconsistent deployment", ...). Unknown values are returned unchanged.
func HealthLabel(health string) string {
	switch health {
	case ClaimCurrent:
		return "current"
	case ClaimOriginUnavailable:
		return "origin unavailable"
	case ClaimManifestUnreachable:
		return "manifest unreachable"
	case ClaimInvalid:
		return "invalid publication"
	case ClaimInconsistent:
		return "inconsistent deployment"
	case ClaimRefused:
		return "refused by crawler policy"
	case ClaimWithdrawn:
		return "withdrawn"
	}
	return health
}

// Claim is one (project id, site) pair. IngestedSHA256 is the digest of the held
// manifest.json; AdvertisedSHA256 what the site index advertises now. They differ exactly when
// the held manifest is cached rather than current.
type Claim struct {
	Project          string              `json:"project"`
	Origin           string              `json:"origin"`
	Entry            protocol.IndexEntry `json:"entry"`
	AdvertisedSHA256 string              `json:"advertised_sha256"`
	IngestedSHA256   string              `json:"ingested_sha256"`
	// PendingSHA256 is set only while manifest.json is being replaced: the digest of the bytes
	// being written. The claim is written with it first, then manifest.json, then the claim
	// without it, so a refresh cut short between the two files leaves a record that says so;
	// Check accepts a manifest.json hashing to either digest and the next refresh settles it.
	PendingSHA256 *string    `json:"pending_sha256,omitempty"`
	Validators    Validators `json:"validators,omitzero"`
	Rejected      *Rejected  `json:"rejected"`
	Health        string     `json:"health"`
	Problem       *string    `json:"problem"`
	Media         *Media     `json:"media"`
	MovedTo       *string    `json:"moved_to,omitempty"`   // site id this claim moved to (evidence: the enrolled source now leads there)
	MovedFrom     *string    `json:"moved_from,omitempty"` // site id this claim continues (the same evidence, seen from the new site)
	FirstObserved string     `json:"first_observed"`
	LastChanged   *string    `json:"last_changed"`
	LastAttempt   string     `json:"last_attempt"`
	LastSuccess   *string    `json:"last_success"`
}

// Rejected remembers a refused manifest by digest, so the same broken bytes are not downloaded
// every six hours. Crawler is the crawler that refused it: a new crawler version reads it again.
// Health is the claim health the refusal gave (invalid, refused, or manifest-unreachable for a
// manifest speaking a newer protocol), restored while the same digest is advertised.
type Rejected struct {
	SHA256  string `json:"sha256"`
	Problem string `json:"problem"`
	Crawler string `json:"crawler"`
	At      string `json:"at"`
	Health  string `json:"health,omitempty"`
}

// Media is the claim's card image: where it came from and the cached file (media/<sha256>.<ext>,
// relative to the state root), or the problem that kept it out.
type Media struct {
	URL     string  `json:"url"`
	Alt     string  `json:"alt"`
	File    *string `json:"file"`
	Problem *string `json:"problem"`
}

// Event kinds.
const (
	EventObserved  = "observed"  // first time this claim was seen
	EventChanged   = "changed"   // the held manifest was replaced
	EventWithdrawn = "withdrawn" // the site's index no longer lists the project
	EventRestored  = "restored"  // a withdrawn claim is listed again
)

// Event is one observed transition of a claim. Written once, never rewritten. Before and After
// are manifest digests (null for none). Changes are the typed differences between the two
// manifests. Tags and headlines are computed at build time, not stored.
type Event struct {
	ID         string        `json:"id"`
	Kind       string        `json:"kind"`
	Project    string        `json:"project"`
	Origin     string        `json:"origin"`
	Name       string        `json:"name"`
	ObservedAt string        `json:"observed_at"`
	Before     *string       `json:"before"`
	After      *string       `json:"after"`
	MovedFrom  *string       `json:"moved_from,omitempty"`
	Changes    []diff.Change `json:"changes"`
}
