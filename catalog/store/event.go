package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// EventIDPrefix is the first line of the text an event id hashes (FORMATS section 1.5).
const EventIDPrefix = "dreamweave-network event 1"

// EventIDFormula names the formula EventID computes, in words.
const EventIDFormula = `the reference index's event id: the first 20 hex digits of SHA-256("dreamweave-network event 1" LF kind LF project LF origin LF before LF after), a null digest written as ""`

// EventID is the reference index's event id: the first 20 lowercase hex digits of the SHA-256 of
//
//	"dreamweave-network event 1" + "\n" + kind + "\n" + project + "\n" + site + "\n" + before + "\n" + after
//
// with site the origin id and a nil digest "". Time and name are not inputs, so a re-run over
// the same observations records nothing twice (SPEC section 3, "Event id").
func EventID(kind, project, site string, before, after *string) string {
	text := strings.Join([]string{EventIDPrefix, kind, project, site, deref(before), deref(after)}, "\n")
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])[:20]
}
