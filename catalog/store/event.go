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
// record an event twice (SPEC section 3, "Event id"). The reference index's exact formula is not
// published; this one is ours, and events it did not write fail Check's id test.
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
