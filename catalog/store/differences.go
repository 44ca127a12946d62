package store

// Difference is one field this index's records hold that the reference index's do not
// (FORMATS section 4): the record and key, and the feature it carries. Every one is left out
// of a record while unset, so a record holding none of them has the reference index's shape
// byte for byte; a record holding one is refused by the reference index's loader, which
// rejects unknown keys.
type Difference struct {
	Field string // "record.key", e.g. "claim.pending_sha256"
	Why   string // the feature the field carries, one sentence
}

// Differences lists every Difference, in record order (network, source, origin, claim). The
// docs/reference-operators.md and the site's about/state page show this list.
var Differences = []Difference{
	{"network.health_changes", "The health changes the last refresh saw (a claim going stale or recovering, a site becoming unavailable), so `ashyams diff` and the refresh summary report them; written only when there were any."},
	{"network.interrupted", "Set when the refresh that wrote the state did not finish (a signal, the deadline): when it stopped, why, and what it did not read, so the site says which records the last refresh did not read; absent after a refresh that completed."},
	{"source.validators", "The enrolled page's ETag and Last-Modified, so the next refresh asks for it conditionally and an unchanged page costs a 304; written only when the page sent any."},
	{"origin.pending_sha256", "Set only while dreamweave.json is being replaced: a refresh killed between the record and the bytes leaves a record that says which bytes were on their way, so check accepts either and the next refresh settles it."},
	{"claim.pending_sha256", "The same for manifest.json: set only while a manifest is being replaced."},
	{"claim.validators", "The manifest's ETag and Last-Modified, sent back only when the held digest is advertised again; written only when the server sent any."},
	{"claim.moved_to", "Read from a state an earlier build of this index wrote, so its moves still show; a refresh no longer writes it (a move removes the old site, and the events' moved_from carry the move)."},
	{"claim.moved_from", "The same for the new site's claim: read, never written by a refresh."},
	{"claim.rejected.health", "Written only as \"refused\", for a manifest refused by crawler policy (a size or count limit), so the claim stays \"refused by crawler policy\" while the same bytes are advertised; without it a remembered refusal means \"invalid\", as in the reference index."},
	{"claim.media.definitive", "True when the card image itself was refused (over a limit, not an image, a 4xx answer): not fetched again while the manifest is unchanged. Left out (false) for a transient failure, which the next refresh retries."},
}
