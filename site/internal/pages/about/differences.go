package about

import "github.com/DreamWeave-MP/ashyams-go/catalog/store"

// Difference is one deliberate difference between this index and the reference index (the
// live AsHyAmS in Rust, whose records and published files ../shared/reference/FORMATS.md
// describes): the area, what this index does, what the reference does, and why.
type Difference struct {
	Area, Ours, Reference, Why string
}

// stateDifferences is the about/state page's data: what the site publishes differently, and
// the record fields only this index writes (catalog/store's list, which docs/reference-operators.md repeats).
type stateDifferences struct {
	Publish []Difference
	Crawl   []Difference
	Records []store.Difference
}

// CrawlDifferences are the deliberate differences in how a refresh reads the network and what
// it records, where the reference's own tests (ported to crawl/guard, crawl/discover and
// crawl/refresh; testdata/reference-tests.md maps them all) expect otherwise. The about/state
// page lists them.
var CrawlDifferences = []Difference{
	{
		Area:      "A refresh that reached no site at all",
		Ours:      "records nothing (the state stays byte for byte) and exits 4 when two or more sources are enrolled and none answered (no name resolved, no connection, no TLS handshake); the scheduled run then neither commits nor publishes",
		Reference: "records every source unreachable and every claim origin-unavailable, and publishes that",
		Why:       "When nothing answers at all, the fault is almost surely the crawler's own network, not every site at once; recording it would tell players every mod went stale. One site that cannot be reached is still recorded as a fact about that site.",
	},
	{
		Area:      "A site index of a newer protocol",
		Ours:      "discovery returns the index it reached and the protocol check gives the verdict (unsupported version, last good data kept)",
		Reference: "discovery itself fails with an unsupported version",
		Why:       "The same walk (nothing above the index is tried) and the same recorded health; deciding validity in one place, the protocol check, keeps discovery to finding documents.",
	},
	{
		Area:      "A site whose page redirects temporarily",
		Ours:      "no move: a 302, 303 or 307 on the way to another site's index is no evidence, so the site keeps its records and claims while its own index still answers; a 301 or 308 of the enrolled URL moves it",
		Reference: "records a move when the enrolled URL redirects to another site, a 302 as much as a 301",
		Why:       "A temporary redirect says the site will be back: a maintenance page, a host's sign-in wall, a deployment in progress. Recording a move would remove the site's claims and start new ones where the redirect happened to point; a permanent redirect says the site has moved, and it is followed.",
	},
	{
		Area:      "The words of a claim's problem",
		Ours:      "say where in the document the rule was broken and which rule (\"/project/id [id-match] project.id ... differs from the id ... of the index entry\"), and for manifest bytes that do not match their index entry both digests and how many times they were read",
		Reference: "its own sentences: a manifest that \"describes project\" another id, a \"deployment\" not yet finished",
		Why:       "Both indexes record the same health for the same fault; the words are display text. A pointer into the document and both digests let a publisher find and check the fault without guessing what happened.",
	},
	{
		Area:      "A 4xx or 5xx answer to a fetch",
		Ours:      "an answer whose status discovery and the refresh read",
		Reference: "a fetch error",
		Why:       "The status decides what happens next (a 404 or 410 lets the walk up pass a level, a 503 does not), and the trail records it as the reference does (\"HTTP 404\").",
	},
}

// PublishDifferences are the deliberate differences in what the site publishes. Everything
// else of the machine files follows the reference: the paths, the formats and the key order.
// The about/state page and docs/reference-operators.md list them.
var PublishDifferences = []Difference{
	{
		Area:      "catalog.json, events.json and search.json: whitespace",
		Ours:      "written without indentation, one final newline",
		Reference: "two-space indentation",
		Why:       "The same JSON for any reader; indentation adds a third to the largest files of the site (13 MB at 10,000 claims), and the site must stay under its host's size limit.",
	},
	{
		Area:      "catalog.json: a claim's cached",
		Ours:      "true exactly when the manifest this index holds is not the one the site advertises now",
		Reference: "true whenever the claim's health is not current",
		Why:       "SPEC section 5 defines it so. A claim whose site could not be read but whose held manifest is the advertised one shows no old data; its health says what failed.",
	},
	{
		Area:      "Card images",
		Ours:      "pages show renditions resized to 320×180 and 640×360 under cards/, named by the image's digest; the cached originals are also published at network-media/<sha256>.<ext> when they decode as the image type their extension names",
		Reference: "pages show the originals, copied from the state's media/ to network-media/",
		Why:       "SPEC section 5 asks for resized card images: a publisher's original may be large. A cached file that does not decode as its type is not served from this site.",
	},
	{
		Area:      "The catalog schema",
		Ours:      "the same constraints in this index's own words, its $id this site's address",
		Reference: "its own text and address",
		Why:       "The reference's text is under the AGPL. A test checks that both schemas state exactly the same constraints.",
	},
	{
		Area:      "notice, index and the feed's titles",
		Ours:      "this index's notice text, name, address and repository",
		Reference: "its own",
		Why:       "They describe the index that wrote the file.",
	},
	{
		Area:      "events.json and the feed: tags and headline",
		Ours:      "the reference's 15 tags and its headline form, computed by this index's classification, in its words",
		Reference: "its own classification and wording",
		Why:       "Tags and headlines are computed at every build, never stored, so both indexes describe the same recorded changes; the words are display text.",
	},
	{
		Area:      "The feed's author",
		Ours:      "the site as every page of this index names it: its name, with this index's id for it when two sites give the same name",
		Reference: "the site's label",
		Why:       "Two claims to one project id from sites of one name must read apart.",
	},
	{
		Area:      "JSON text",
		Ours:      "U+2028 and U+2029, C1 control characters and bidirectional formatting characters written as \\u escapes",
		Reference: "written as the raw characters",
		Why:       "Go's JSON encoder always escapes the first two; the others, raw, reach whoever prints the file as terminal escapes or reordered text. Every JSON reader reads both spellings as the same text.",
	},
}
