package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// EventID is the id of an event: the first 20 hex digits of the SHA-256 of
//
//	kind + "\n" + project + "\n" + site + "\n" + before + "\n" + after
//
// where site is the origin id (the claim's site directory name) and before/after are the
// manifest digests (lowercase hex), a nil digest written as the empty string. The same
// observation always gives the same id, so re-running a crawl over the same observations cannot
// record an event twice (SPEC section 3, "Event id"; WriteEvent never rewrites an id).
//
// This formula is a deliberate, written-down choice of this index. The reference index
// publishes ids (corpus/state/events) but not how it computes them, so this index cannot
// reproduce them; Check reports each of its events as "event id does not match its facts
// under this index's formula". Changing this formula would make every event already recorded
// fail Check the same way, so it stays as written.
//
// The observation time is not part of the id, on purpose (a re-run must not duplicate). The
// consequence: a later transition with exactly the same facts gets the same id and is not
// recorded again. A claim withdrawn, restored and withdrawn again with the same held manifest
// (the same digests) has one "withdrawn" and one "restored" event, the first of each; its
// claim.json and Git history still show every change. WriteEvent reports such a skip as
// written == false.
func EventID(kind, project, site string, before, after *string) string {
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{kind, project, site, deref(before), deref(after)}, "\n")))
	return hex.EncodeToString(sum[:])[:20]
}
