package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// EventIDPrefix is the first line of the text an event id hashes: the reference index's
// formula version (FORMATS section 1.5), written as part of every id.
const EventIDPrefix = "dreamweave-network event 1"

// EventIDFormula names the formula EventID computes, in words, for Check and its callers to
// say which ids they verify.
const EventIDFormula = `the reference index's event id: the first 20 hex digits of SHA-256("dreamweave-network event 1" LF kind LF project LF origin LF before LF after), a null digest written as ""`

// EventID is the id of an event, the reference index's formula: the first 20 lowercase hex
// digits of the SHA-256 of
//
//	"dreamweave-network event 1" + "\n" + kind + "\n" + project + "\n" + site + "\n" + before + "\n" + after
//
// where site is the origin id (the claim's site directory name) and before/after are the
// manifest digests (lowercase hex), a nil digest written as the empty string (so the text ends
// in "\n" when after is nil). Every event the reference index recorded verifies under it, and
// so does every event this index records, so one state can be continued by either.
//
// The observation time and the name are not inputs, on purpose: re-running a crawl over the
// same observations cannot record an event twice (SPEC section 3, "Event id"; WriteEvent never
// rewrites an id), and a state rebuilt from scratch recovers the same ids. The consequence: a
// later transition with exactly the same facts gets the same id and is not recorded again. A
// claim withdrawn, restored and withdrawn again with the same held manifest (the same
// digests) has one "withdrawn" and one "restored" event, the first of each; its claim.json and
// Git history still show every change. WriteEvent reports such a skip as written == false.
func EventID(kind, project, site string, before, after *string) string {
	text := strings.Join([]string{EventIDPrefix, kind, project, site, deref(before), deref(after)}, "\n")
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])[:20]
}
