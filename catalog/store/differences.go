package store

// Difference is one thing this index keeps about a record that the reference's record has no
// key for: its own file and key, and the feature it carries.
type Difference struct {
	Field string // "<own file> <key>", e.g. "ashyams-go/claims/<project>/<site>/claim.json pending_sha256"
	Why   string // the feature the key carries, one sentence
}

// The own files, as Difference.Field names them.
const (
	ownNetwork = OwnDir + "/" + NetworkFile
	ownSource  = OwnDir + "/" + SourcesDir + "/<source>.json"
	ownOrigin  = OwnDir + "/" + OriginsDir + "/<site>/" + OriginFile
	ownClaim   = OwnDir + "/" + ClaimsDir + "/<project>/<site>/" + ClaimFile
)

// Differences lists every Difference, in record order. The docs and about/state page show it.
var Differences = []Difference{
	{ownNetwork + " health_changes", "The health changes the last refresh saw (a claim going stale or recovering, a site becoming unavailable), so `ashyams diff` and the refresh summary report them; written only when there were any."},
	{ownNetwork + " interrupted", "Set when the refresh that wrote the state did not finish (a signal, the deadline): when it stopped, why, and what it did not read, so the site says which records the last refresh did not read; absent after a refresh that completed."},
	{ownSource + " validators", "The enrolled page's ETag and Last-Modified, so the next refresh asks for it conditionally and an unchanged page costs a 304; written only when the page sent any."},
	{ownSource + " findings", "Every problem the last read of the source found, each as kind (a health token, or the protocol rule or JSON Schema keyword broken), at (a JSON pointer into the document, when there is one), words (this index's words, with a slot {1}, {2}, ... where it quotes) and quotes (the publisher's text for each slot), so a page sets the publisher's text apart without searching the sentence; the record's problem string says the same in the reference's shape."},
	{ownOrigin + " pending_sha256", "Set only while dreamweave.json is being replaced: a refresh killed between the record and the bytes leaves a record that says which bytes were on their way, so check accepts either and the next refresh settles it."},
	{ownOrigin + " findings", "Every problem the last read of the site index found (every protocol finding, or the one failure), structured as for a source; the site's claims carry them too while they are stale because of it."},
	{ownClaim + " pending_sha256", "The same for manifest.json: set only while a manifest is being replaced."},
	{ownClaim + " validators", "The manifest's ETag and Last-Modified, sent back only when the held digest is advertised again; written only when the server sent any."},
	{ownClaim + " rejected_health", "Written only as \"refused\", for a manifest refused by crawler policy (a size or count limit), so the claim stays \"refused by crawler policy\" while the same bytes are advertised; without it a remembered refusal means \"invalid\", as in the reference index."},
	{ownClaim + " media_definitive", "True when the card image itself was refused (over a limit, not an image, a 4xx answer): not fetched again while the manifest is unchanged. Left out (false) for a transient failure, which the next refresh retries."},
	{ownClaim + " findings", "Every problem the last read of the manifest found (every protocol finding, or the one failed fetch), structured as for a source; kept while the same refused bytes are advertised, gone once a manifest is accepted."},
	{ClaimsDir + "/<project>/<site>/" + ClaimFile + " moved_to", "Read from a state an earlier build of this index wrote, so its moves still show; a refresh never writes it (a move removes the old site, and the events' moved_from carry the move)."},
	{ClaimsDir + "/<project>/<site>/" + ClaimFile + " moved_from", "The same for the new site's claim: read, never written by a refresh."},
}
