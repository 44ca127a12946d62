package health

import (
	"html/template"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// enrolled reports whether some entry of the source list still leads to the site. A refresh
// empties a site's sources when no enrolled source leads to it any more (its entry left
// network/sources.toml, or the source now leads elsewhere); the site is then not read, and
// its claims are withdrawn.
func Enrolled(o *network.Origin) bool { return o != nil && len(o.Sources) > 0 }

// ExcludedText says why a claim is out of the catalog, in words: the reason the crawler
// recorded for a withdrawal (the site's index stopped listing the project, the site's entry
// left the source list, a move), or that no manifest passed every check yet. "" when listed.
func ExcludedText(c *network.Claim) string {
	switch {
	case c.Listed:
		return ""
	case c.Withdrawn:
		return "withdrawn: " + WithdrawnReason(c)
	default:
		return "no manifest from this site has passed every check yet"
	}
}

// WithdrawnWhy is WithdrawnReason as a sentence: "Reason: " and a recorded reason as it is
// (ClauseHTML), the index's own words otherwise.
func WithdrawnWhy(c *network.Claim) template.HTML {
	r := WithdrawnReason(c)
	if strings.TrimSpace(wording.Deref(c.Record.Problem)) != "" {
		return ClauseHTML("Reason", r)
	}
	return ClauseHTML(capitalize(r), "")
}

// WithdrawnReason is the reason recorded with a withdrawal, else the usual one.
func WithdrawnReason(c *network.Claim) string {
	if p := strings.TrimSpace(wording.Deref(c.Record.Problem)); p != "" {
		return strings.TrimSuffix(strings.TrimPrefix(p, "withdrawn: "), ".")
	}
	if !Enrolled(c.Origin) {
		return "no enrolled source leads to this site any more"
	}
	return "the site's index no longer lists the project"
}
