package diff

import (
	"encoding/json"
	"slices"

	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Unusual reports whether the top-level change c, one of an event's changes all, is shown
// first (SPEC section 4): a versioning scheme changed; a release removed outside development
// (or there with none arriving); new artifact bytes under an unchanged version outside
// development. It reads only stored changes, so every event is classified alike.
func Unusual(c Change, all []Change) bool {
	switch c.Change {
	case ChangeProjectField:
		return c.Field == "versioning" && SchemeChanged(c.Before, c.After)
	case ChangeReleaseRemoved:
		return c.Channel != Development || !slices.ContainsFunc(all, func(a Change) bool {
			return a.Change == ChangeReleaseAdded && a.Channel == Development
		})
	case ChangeReleaseAmended:
		return c.Channel != Development && slices.ContainsFunc(c.Changes, func(n Change) bool { return n.Change == ChangeArtifactDigest })
	}
	return false
}

// SchemeChanged reports whether two versioning values (JSON strings, or null for the implied
// numeric scheme) name different schemes.
func SchemeChanged(before, after json.RawMessage) bool {
	var b, a string
	json.Unmarshal(before, &b)
	json.Unmarshal(after, &a)
	return version.SchemeOf(b) != version.SchemeOf(a)
}
