package site

import (
	"html/template"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// Problems, trail outcomes, publication issues and move evidence are written by the crawler
// and the network model, in this index's words, but they quote what publishers published:
// values in quotes, URLs, JSON pointers, dotted field paths. Those quotations are marked as
// publisher text (data-publisher), and the rest stays the index's own words, so check-site
// still checks the words this index chose while a publisher's "official" channel name or
// "trusted" tag quoted in a problem can never fail a deploy.

// quoted finds the publisher quotations in a problem: a URL (scheme://...), a "double-quoted"
// or “curly-quoted” string (Go %q style escapes included), a 'single-quoted' string that
// starts a word, and any other token holding a character words do not ('/', '.', '_', '=',
// '@', '<', '>', '[', ']', '{', '}', '#', '%', '&', a digit): JSON pointers, dotted field
// paths, file names, versions, addresses.
var quoted = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]*[^\s"'<>.,;:)\]]` +
	`|"(?:[^"\\]|\\.)*"` +
	`|“[^”]*”` +
	`|(?:^|\B)'[^']*'\B` +
	`|[^\s"“']*[/._=@<>\[\]{}#%&0-9][^\s"“']*`)

// pointerRule is a validation finding's JSON pointer and rule, as protocol.Finding.String
// writes them ("/releases/0/runtimes/openmw x [pattern] ..."): a pointer is publisher keys
// and may hold spaces, so everything from its "/" to the " [rule]" is the quotation.
var pointerRule = regexp.MustCompile(`(?:^|[\s(:;])(/[^\[\n]*?) \[[A-Za-z0-9_.:-]+\]`)

// pointerParen is a pointer a finding's message repeats in brackets before a colon
// (`field "url" (/project/credits/0/url): ...`); it too may hold spaces.
var pointerParen = regexp.MustCompile(`\((/[^()\n]*)\):`)

type span struct{ start, end int }

// problemSegments splits s into alternating own-words / quotation segments (quotes[i] true
// for a quotation). Quotations are, in this order: the known publisher strings (names the
// problem may quote without marks, such as an index entry's name in a publication issue),
// the JSON pointers of findings, then the quoted pattern's tokens. A bare token's trailing
// sentence punctuation stays with the index's words.
func problemSegments(s string, known []string) (segs []string, quotes []bool) {
	var spans []span
	free := func(a, b int) bool {
		for _, sp := range spans {
			if a < sp.end && sp.start < b {
				return false
			}
		}
		return true
	}
	ks := append([]string(nil), known...)
	sort.SliceStable(ks, func(i, j int) bool { return len(ks[i]) > len(ks[j]) })
	for _, k := range ks {
		if len(strings.TrimSpace(k)) < 3 {
			continue
		}
		for off := 0; ; {
			i := strings.Index(s[off:], k)
			if i < 0 {
				break
			}
			a, b := off+i, off+i+len(k)
			if free(a, b) {
				spans = append(spans, span{a, b})
			}
			off = b
		}
	}
	for _, re := range []*regexp.Regexp{pointerRule, pointerParen} {
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			if free(m[2], m[3]) {
				spans = append(spans, span{m[2], m[3]})
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	// The quoted pattern, in each stretch no earlier quotation covers.
	gaps := []span{}
	at := 0
	for _, sp := range spans {
		if sp.start > at {
			gaps = append(gaps, span{at, sp.start})
		}
		at = sp.end
	}
	if at < len(s) {
		gaps = append(gaps, span{at, len(s)})
	}
	for _, g := range gaps {
		part := s[g.start:g.end]
		for _, m := range quoted.FindAllStringIndex(part, -1) {
			start, end := m[0], m[1]
			q := part[start:end]
			// Leave the sentence's own punctuation out of a bare token: "…/stable/version:"
			// or "1.1.0." end a clause, they are not part of the quotation.
			if q[0] != '"' && !strings.HasPrefix(q, "“") && q[0] != '\'' {
				end = start + len(strings.TrimRight(q, ".,;:)"))
				for start < end && part[start] == '(' {
					start++
				}
			}
			if start < end {
				spans = append(spans, span{g.start + start, g.start + end})
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	last := 0
	for _, sp := range spans {
		if sp.start > last {
			segs, quotes = append(segs, s[last:sp.start]), append(quotes, false)
		}
		segs, quotes = append(segs, s[sp.start:sp.end]), append(quotes, true)
		last = sp.end
	}
	if last < len(s) {
		segs, quotes = append(segs, s[last:]), append(quotes, false)
	}
	return segs, quotes
}

// problemHTML renders a crawler problem (or trail outcome, issue, evidence) as HTML: the
// index's words as escaped text, every quotation of publisher data (see problemSegments;
// known are publisher strings the text may quote bare) in <bdi data-publisher>. The result
// holds no markup but those elements.
func problemHTML(s string, known ...string) template.HTML {
	segs, quotes := problemSegments(s, known)
	var b strings.Builder
	for i, seg := range segs {
		if quotes[i] {
			b.WriteString(`<bdi data-publisher>`)
			b.WriteString(template.HTMLEscapeString(seg))
			b.WriteString(`</bdi>`)
			continue
		}
		b.WriteString(template.HTMLEscapeString(seg))
	}
	return template.HTML(b.String())
}

// claimTexts are the publisher strings a claim's problems may quote bare: its names, summary,
// tags, game and license, and its site's name.
func claimTexts(c *network.Claim) []string {
	if c == nil {
		return nil
	}
	out := []string{c.Name, c.Record.Entry.Name, c.Record.Entry.SummaryText()}
	if m := c.Manifest; m != nil {
		out = append(out, m.Project.Name, m.Project.Summary, m.Project.Game, m.Project.License)
		out = append(out, m.Project.Tags...)
	}
	if c.Origin != nil {
		out = append(out, deref(c.Origin.SiteName))
	}
	return out
}

// originTexts are the publisher strings a site's problems and publication issues may quote
// bare: its name and generator, and the names of the projects it lists.
func originTexts(o *network.Origin) []string {
	if o == nil {
		return nil
	}
	out := []string{deref(o.SiteName), deref(o.Generator)}
	for _, c := range o.Claims {
		out = append(out, c.Name, c.Record.Entry.Name)
	}
	return out
}

// issueTexts are the publisher strings one publication issue of site o may quote bare: the
// site's name and generator, and the names of the claim the issue is about, found by the
// project id the issue starts with ("<id> (<name>): ..."). Looking that one claim up (o.Claims is sorted by project id)
// instead of offering every name the site lists keeps a site's issue list linear in its
// claims: one issue per claim, each searched for every name, was quadratic.
func issueTexts(o *network.Origin, issue string) []string {
	out := []string{deref(o.SiteName), deref(o.Generator)}
	id := issue
	if i := strings.IndexAny(issue, " :"); i >= 0 {
		id = issue[:i]
	}
	i := sort.Search(len(o.Claims), func(i int) bool { return o.Claims[i].Project >= id })
	if i < len(o.Claims) && o.Claims[i].Project == id {
		out = append(out, o.Claims[i].Name, o.Claims[i].Record.Entry.Name)
	}
	return out
}

// quoteFor is problemHTML with the publisher strings of ctx known: a claim's (claimTexts), or
// for a site's publication issue, the site's and the named claim's (issueTexts).
func quoteFor(s string, ctx any) template.HTML {
	switch v := ctx.(type) {
	case *network.Claim:
		return problemHTML(s, claimTexts(v)...)
	case *network.Origin:
		return problemHTML(s, issueTexts(v, s)...)
	}
	return problemHTML(s)
}

// composeProblem joins a health label and the problem recorded with it into one clause
// without saying the label twice: the crawler's problem strings may or may not start with the
// label ("invalid publication: /channels/...") or repeat it further on, and each is said once.
// The first letter is capitalized when it is the index's own word, so the clause can start a
// sentence. An empty problem gives the label alone.
func composeProblem(label, problem string) string {
	p := strings.TrimSpace(problem)
	label = strings.TrimSpace(label)
	if label == "" {
		return capitalize(p)
	}
	for {
		rest, ok := cutLabel(p, label)
		if !ok {
			break
		}
		p = rest
	}
	switch {
	case p == "":
		return capitalize(label)
	case containsWords(p, label):
		return capitalize(p)
	}
	return capitalize(label + ": " + p)
}

// containsWords reports whether phrase occurs in s (any case) as whole words.
func containsWords(s, phrase string) bool {
	s, phrase = strings.ToLower(s), strings.ToLower(phrase)
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for off := 0; ; {
		i := strings.Index(s[off:], phrase)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(phrase)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (start == 0 || !isWord(before)) && (end == len(s) || !isWord(after)) {
			return true
		}
		off = start + 1
	}
}

// cutLabel strips a leading label (any case) and the punctuation after it from p.
func cutLabel(p, label string) (string, bool) {
	if len(p) < len(label) || !strings.EqualFold(p[:len(label)], label) {
		return "", false
	}
	rest := p[len(label):]
	if rest != "" {
		r, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return "", false // "refused" is not the start of "refusedly"
		}
	}
	return strings.TrimLeft(rest, " :;,.-—–"), true
}

// capitalize upper-cases the first letter when it starts the index's own words (never a
// quoted value, URL or path, which stay as published).
func capitalize(s string) string {
	segs, quotes := problemSegments(s, nil)
	if len(segs) == 0 || quotes[0] {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// sentence ends s with a full stop unless it already ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// whyHTML is a health label and its problem as one sentence: composed (composeProblem),
// capitalized, ended with a full stop, quotations marked (problemHTML with known).
func whyHTML(label string, problem *string, known ...string) template.HTML {
	return problemHTML(sentence(composeProblem(label, deref(problem))), known...)
}

// claimWhy is whyHTML for a claim's health and recorded problem (claimProblem).
func claimWhy(c *network.Claim) template.HTML {
	p := claimProblem(c, deref(c.Record.Problem))
	return whyHTML(store.HealthLabel(c.Health), &p, claimTexts(c)...)
}

// keptClauses end the crawler's problems that say the last good data stays. They are true
// only of a claim that holds a manifest.
var keptClauses = []string{"; the last good manifest is kept", "; last good data kept"}

// claimProblem is a problem recorded for c as its page says it: for a claim that holds no
// manifest, a closing clause saying the last good manifest is kept becomes what is true, that
// no earlier manifest passed every check, so nothing is kept.
func claimProblem(c *network.Claim, p string) string {
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

// originWhy is whyHTML for a site's health and recorded problem.
func originWhy(o *network.Origin) template.HTML {
	return whyHTML(store.OriginHealthLabel(o.Health), o.Problem, originTexts(o)...)
}

// enrolled reports whether some entry of the source list still leads to the site. A refresh
// empties a site's sources when no enrolled source leads to it any more (its entry left
// network/sources.toml, or the source now leads elsewhere); the site is then not read, and
// its claims are withdrawn.
func enrolled(o *network.Origin) bool { return o != nil && len(o.Sources) > 0 }

// excludedText says why a claim is out of the catalog, in words: the reason the crawler
// recorded for a withdrawal (the site's index stopped listing the project, the site's entry
// left the source list, a move), or that no manifest passed every check yet. "" when listed.
func excludedText(c *network.Claim) string {
	switch {
	case c.Listed:
		return ""
	case c.Withdrawn:
		return "withdrawn: " + withdrawnReason(c)
	default:
		return "no manifest from this site has passed every check yet"
	}
}

// withdrawnReason is the reason recorded with a withdrawal, else the usual one.
func withdrawnReason(c *network.Claim) string {
	if p := strings.TrimSpace(deref(c.Record.Problem)); p != "" {
		return strings.TrimSuffix(strings.TrimPrefix(p, "withdrawn: "), ".")
	}
	if !enrolled(c.Origin) {
		return "no enrolled source leads to this site any more"
	}
	return "the site's index no longer lists the project"
}

// staleness is what a claim's page says about how current its data is.
type staleness string

const (
	staleNone      staleness = ""          // current: the held manifest is the advertised one
	staleCached    staleness = "cached"    // a manifest is held but it is not (known to be) the advertised one
	staleNever     staleness = "never"     // no manifest from the site has passed every check yet
	staleWithdrawn staleness = "withdrawn" // out of the catalog; the record stays
)

// stalenessOf classifies a claim for its page and the lists.
func stalenessOf(c *network.Claim) staleness {
	switch {
	case c.Withdrawn:
		return staleWithdrawn
	case c.Manifest == nil:
		return staleNever
	case c.Health != store.ClaimCurrent || c.Cached:
		return staleCached
	}
	return staleNone
}

// Anchors on the health page, one per entry, so a publisher can be sent to theirs:
// health/#source-<source>, health/#site-<site>, health/#claim-<project>-<site>.
func sourceAnchor(url string) string      { return "source-" + store.SourceID(url) }
func siteAnchor(site string) string       { return "site-" + site }
func claimAnchor(c *network.Claim) string { return "claim-" + c.Project + "-" + c.Site }
func healthLink(anchor string) string     { return "health/index.html#" + anchor }
