package health

import (
	"html/template"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// Health and staleness wording: how a page says a claim's or a site's health with the problem
// recorded with it, and how current a claim's data is.

// ProblemHTML is a flat problem string (a record's problem in a state without own files, a
// trail outcome, a publication issue, a move's evidence, a parse error) as HTML: the text as
// it is, escaped, in one <bdi>. Publisher text may stand anywhere in such a string; only
// structured findings (findingHTML) say where. "" for "".
func ProblemHTML(s string) template.HTML {
	if s == "" {
		return ""
	}
	return template.HTML("<bdi>" + template.HTMLEscapeString(s) + "</bdi>")
}

// ClauseHTML is lead, the index's own words, escaped, then ": " and problem as it is
// (ProblemHTML) when there is one, ended with a full stop unless it ends a sentence.
func ClauseHTML(lead, problem string) template.HTML {
	h := template.HTMLEscapeString(lead)
	problem = strings.TrimSpace(problem)
	switch {
	case problem == "":
		return template.HTML(sentence(h))
	case h != "":
		h += ": "
	}
	return template.HTML(h) + ProblemHTML(problem) + template.HTML(strings.TrimPrefix(sentence(problem), problem))
}

// WhyHTML is a health label, capitalized, and its problem as one sentence (ClauseHTML).
func WhyHTML(label string, problem *string) template.HTML {
	return ClauseHTML(capitalize(label), wording.Deref(problem))
}

// capitalize upper-cases the first letter of the index's own words.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// sentence ends s with a full stop unless it already ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

// ClaimWhy is WhyHTML for a claim's health and recorded problem (ClaimProblem), or, when the
// state keeps the last read's findings, findingsWhy.
func ClaimWhy(c *network.Claim) template.HTML {
	if fs := c.Record.Findings; len(fs) > 0 {
		read := "the manifest"
		if c.Health == store.ClaimOriginUnavailable {
			read = "its site index"
		}
		return findingsWhy(store.HealthLabel(c.Health), read, fs)
	}
	p := ClaimProblem(c, wording.Deref(c.Record.Problem))
	return WhyHTML(store.HealthLabel(c.Health), &p)
}

// FindingView is one finding of the last read as a page lists it: its kind (a data-kind
// attribute, for readers and tests) and findingHTML.
type FindingView struct {
	Kind string
	HTML template.HTML
}

// FindingViews are the findings a page lists under its why sentence: every one when there are
// several (findingsWhy then only counts them), none when the sentence says the one.
func FindingViews(fs []store.Finding) []FindingView {
	if len(fs) < 2 {
		return nil
	}
	out := make([]FindingView, len(fs))
	for i, f := range fs {
		out[i] = FindingView{Kind: f.Kind, HTML: findingHTML(f)}
	}
	return out
}

// findingsWhy is a health label and the structured findings of the last read of what (the
// manifest, the site index) as one sentence: the label and the finding when there is one, the
// label and how many when there are several (FindingViews lists them).
func findingsWhy(label, what string, fs []store.Finding) template.HTML {
	lead := template.HTMLEscapeString(capitalize(label))
	if len(fs) == 1 {
		return template.HTML(lead + ": " + string(findingHTML(fs[0])) + fullStop(fs[0]))
	}
	return template.HTML(lead + ": the last read of " + template.HTMLEscapeString(what) + " found " + template.HTMLEscapeString(wording.Plural(len(fs), "problem", "problems")) + ".")
}

// fullStop is the full stop that ends a sentence ending in f's words, "" when they end one.
func fullStop(f store.Finding) string {
	segs, _ := f.Segments()
	if len(segs) > 0 && sentence(segs[len(segs)-1]) == strings.TrimSpace(segs[len(segs)-1]) {
		return ""
	}
	return "."
}

// findingHTML is one structured finding as HTML: where in the document (the publisher's keys)
// and each quotation in <bdi>, the index's words escaped. The publisher's text
// is set apart by the fields it came in, never found in a sentence.
func findingHTML(f store.Finding) template.HTML {
	var b strings.Builder
	if f.At != "" {
		b.WriteString(`<bdi>` + template.HTMLEscapeString(f.At) + `</bdi>: `)
	}
	segs, quoted := f.Segments()
	for i, seg := range segs {
		if seg = template.HTMLEscapeString(seg); quoted[i] {
			seg = `<bdi>` + seg + `</bdi>`
		}
		b.WriteString(seg)
	}
	return template.HTML(b.String())
}

// keptClauses end the crawler's problems that say the last good data stays. They are true
// only of a claim that holds a manifest.
var keptClauses = []string{"; the last good manifest is kept", "; last good data kept"}

// ClaimProblem is a problem recorded for c as its page says it: for a claim that holds no
// manifest, a closing clause saying the last good manifest is kept becomes what is true, that
// no earlier manifest passed every check, so nothing is kept.
func ClaimProblem(c *network.Claim, p string) string {
	if c.Manifest != nil {
		return p
	}
	for _, k := range keptClauses {
		if rest, ok := strings.CutSuffix(strings.TrimSuffix(strings.TrimSpace(p), "."), k); ok {
			return rest + "; no earlier manifest from this site passed every check, so nothing is kept"
		}
	}
	return p
}

// OriginWhy is WhyHTML for a site's health and recorded problem, or, when the state keeps the
// last read's findings, findingsWhy.
func OriginWhy(o *network.Origin) template.HTML {
	if len(o.Findings) > 0 {
		return findingsWhy(store.OriginHealthLabel(o.Health), "the site index", o.Findings)
	}
	return WhyHTML(store.OriginHealthLabel(o.Health), o.Problem)
}

// staleness is what a claim's page says about how current its data is.
type Staleness string

const (
	StaleNone      Staleness = ""          // current: the held manifest is the advertised one
	StaleCached    Staleness = "cached"    // a manifest is held but it is not (known to be) the advertised one
	StaleNever     Staleness = "never"     // no manifest from the site has passed every check yet
	StaleWithdrawn Staleness = "withdrawn" // out of the catalog; the record stays
)

// StalenessOf classifies a claim for its page and the lists.
func StalenessOf(c *network.Claim) Staleness {
	switch {
	case c.Withdrawn:
		return StaleWithdrawn
	case c.Manifest == nil:
		return StaleNever
	case c.Health != store.ClaimCurrent || c.Cached:
		return StaleCached
	}
	return StaleNone
}

// Anchors on the health page, one per entry, so a publisher can be sent to theirs:
// health/#source-<source>, health/#site-<site>, health/#claim-<project>-<site>.
func SourceAnchor(url string) string      { return "source-" + store.SourceID(url) }
func SiteAnchor(site string) string       { return "site-" + site }
func ClaimAnchor(c *network.Claim) string { return "claim-" + c.Project + "-" + c.Site }
