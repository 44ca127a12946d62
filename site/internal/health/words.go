package health

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// badge is one of the short labels lists show beside a claim's name.
type Badge struct {
	Text string
	// Class is the badge's style: "stale" (cached data) or "bad" (withdrawn, a conflict).
	Class string
}

// ClaimBadges are the badges every list shows beside a claim: its health when it is not
// current (ClaimText) and "identity conflict". The project list's search matches their
// words, as it matches everything an entry shows.
func ClaimBadges(c *network.Claim) []Badge {
	var out []Badge
	switch StalenessOf(c) {
	case StaleNone:
	case StaleWithdrawn:
		out = append(out, Badge{ClaimText(c), "bad"})
	default:
		out = append(out, Badge{ClaimText(c), "stale"})
	}
	if c.Conflict != nil {
		out = append(out, Badge{"identity conflict", "bad"})
	}
	return out
}

// ClaimText is a claim's health in a list and on its page ("cached: origin unavailable"),
// in the words inspect uses too (store.ClaimHealthText).
func ClaimText(c *network.Claim) string {
	return store.ClaimHealthText(c.Health, c.Manifest != nil, c.Cached)
}

// CountedText is a claim's health as the Health page's summary counts it, in
// store.HealthLabel's words: "current", "cached (origin unavailable)", "with no manifest yet
// (invalid publication)", "withdrawn".
func CountedText(c *network.Claim) string {
	label := " (" + store.HealthLabel(c.Health) + ")"
	switch StalenessOf(c) {
	case StaleWithdrawn:
		return "withdrawn"
	case StaleNever:
		return "with no manifest yet" + label
	case StaleCached:
		if c.Health == store.ClaimCurrent {
			return "cached"
		}
		return "cached" + label
	}
	return "current"
}
