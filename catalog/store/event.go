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

// EventID is the reference index's event id: the first 20 lowercase hex digits of the SHA-256 of
//
//	"dreamweave-network event 1" + "\n" + kind + "\n" + project + "\n" + site + "\n" + before + "\n" + after
//
// with site the origin id and a nil digest written as "". Time and name are not inputs, so a
// crawl re-run over the same observations records nothing twice (SPEC section 3, "Event id");
// a later transition with exactly the same facts (withdrawn, restored, withdrawn again over
// the same digests) is not recorded again either: WriteEvent reports written == false.
func EventID(kind, project, site string, before, after *string) string {
	text := strings.Join([]string{EventIDPrefix, kind, project, site, deref(before), deref(after)}, "\n")
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])[:20]
}
