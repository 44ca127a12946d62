package health

import (
	"html/template"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// Problems, trail outcomes, publication issues and move evidence are written by the crawler
// and the network model, in this index's words, but they quote what publishers published:
// values in quotes, URLs, JSON pointers, dotted field paths. Those quotations are marked as
// publisher text (data-pub), and the rest stays the index's own words, so check-site
// still checks the words this index chose while a publisher's "official" channel name or
// "trusted" tag quoted in a problem can never fail a deploy.

type span struct{ start, end int }

// problemSegments splits s into alternating own-words / quotation segments (quotes[i] true
// for a quotation). Quotations are, in this order: the known publisher strings (names the
// problem may quote without marks, such as an index entry's name in a publication issue),
// the JSON pointers of findings (pointerSpans), then, in each stretch no earlier quotation
// covers, the tokens quotedSpans finds. A bare token's trailing sentence punctuation stays
// with the index's words.
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
	for _, find := range []func(string) []span{findingPointers, parenPointers} {
		for _, sp := range find(s) {
			if free(sp.start, sp.end) {
				spans = append(spans, sp)
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
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
		for _, m := range quotedSpans(part) {
			start, end := m.start, m.end
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

// isSpace is the ASCII white space the index's own words separate tokens with.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isWordByte is an ASCII letter, digit or underscore: what a word boundary is between.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// findingPointers finds the JSON pointers of validation findings as protocol.Finding.String
// writes them ("/releases/0/runtimes/openmw x [pattern] ..."): a "/" at the start or after a
// space, "(", ":" or ";", up to the " [rule]" that follows. A pointer is publisher keys and
// may hold spaces, so everything from its "/" to the " [rule]" is the quotation.
func findingPointers(s string) []span {
	var out []span
	for i := 0; i < len(s); i++ {
		if s[i] != '/' || i > 0 && !isSpace(s[i-1]) && !strings.ContainsRune("(:;", rune(s[i-1])) {
			continue
		}
		j := strings.IndexAny(s[i:], "[\n")
		if j < 1 || s[i+j] != '[' || s[i+j-1] != ' ' {
			continue
		}
		b := i + j // the "["
		k := b + 1
		for k < len(s) && (isWordByte(s[k]) || strings.IndexByte(".:-", s[k]) >= 0) {
			k++
		}
		if k == b+1 || k == len(s) || s[k] != ']' {
			continue
		}
		out = append(out, span{i, b - 1})
		i = k
	}
	return out
}

// parenPointers finds a pointer a finding's message repeats in brackets before a colon
// (`field "url" (/project/credits/0/url): ...`); it too may hold spaces.
func parenPointers(s string) []span {
	var out []span
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '(' || s[i+1] != '/' {
			continue
		}
		j := strings.IndexAny(s[i+1:], "()\n")
		if j < 0 || s[i+1+j] != ')' || i+2+j >= len(s) || s[i+2+j] != ':' {
			continue
		}
		out = append(out, span{i + 1, i + 1 + j})
		i += 2 + j
	}
	return out
}

// quotedSpans finds the publisher quotations in s, left to right: at each place the first of
// a URL (scheme://...), a "double-quoted" string (Go %q escapes included), a “curly-quoted”
// string, a 'single-quoted' string standing apart from a word, or a token (a run of anything
// but white space and quotation marks) holding a character words do not: '/', '.', '_', '=',
// '@', '<', '>', '[', ']', '{', '}', '#', '%', '&' or a digit (JSON pointers, dotted field
// paths, file names, versions, addresses).
func quotedSpans(s string) []span {
	var out []span
	for i := 0; i < len(s); {
		if n := quotedAt(s, i); n > 0 {
			out = append(out, span{i, i + n})
			i += n
			continue
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return out
}

// quotedAt is the length of the quotation quotedSpans finds starting at s[i], 0 for none.
func quotedAt(s string, i int) int {
	if n := urlAt(s, i); n > 0 {
		return n
	}
	switch {
	case s[i] == '"':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				if j+1 < len(s) && s[j+1] != '\n' {
					j++
					continue
				}
				return tokenAt(s, i)
			case '"':
				return j + 1 - i
			}
		}
	case strings.HasPrefix(s[i:], "“"):
		if j := strings.Index(s[i+len("“"):], "”"); j >= 0 {
			return len("“") + j + len("”")
		}
	case s[i] == '\'' && (i == 0 || !isWordByte(s[i-1])):
		if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
			end := i + 1 + j + 1
			if end == len(s) || !isWordByte(s[end]) {
				return end - i
			}
		}
	}
	return tokenAt(s, i)
}

// urlAt is the length of a URL starting at s[i]: a scheme, "://", then anything but white
// space, quotation marks and angle brackets, not ending in sentence punctuation.
func urlAt(s string, i int) int {
	c := s[i]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return 0
	}
	j := i + 1
	for j < len(s) && (isWordByte(s[j]) && s[j] != '_' || strings.IndexByte("+.-", s[j]) >= 0) {
		j++
	}
	if !strings.HasPrefix(s[j:], "://") {
		return 0
	}
	j += 3
	k := j
	for k < len(s) && !isSpace(s[k]) && strings.IndexByte(`"'<>`, s[k]) < 0 {
		k++
	}
	for k > j && strings.IndexByte(".,;:)]", s[k-1]) >= 0 {
		k--
	}
	if k == j {
		return 0
	}
	return k - i
}

// tokenAt is the length of the run of characters other than white space and quotation marks
// starting at s[i] when it holds a character words do not, else 0.
func tokenAt(s string, i int) int {
	special := false
	j := i
	for j < len(s) {
		if isSpace(s[j]) || s[j] == '"' || s[j] == '\'' || strings.HasPrefix(s[j:], "“") {
			break
		}
		if strings.IndexByte("/._=@<>[]{}#%&", s[j]) >= 0 || '0' <= s[j] && s[j] <= '9' {
			special = true
		}
		j++
	}
	if !special {
		return 0
	}
	return j - i
}

// ProblemHTML renders a crawler problem (or trail outcome, issue, evidence) as HTML: the
// index's words as escaped text, every quotation of publisher data (see problemSegments;
// known are publisher strings the text may quote bare) in <bdi>. The result
// holds no markup but those elements.
func ProblemHTML(s string, known ...string) template.HTML {
	segs, quotes := problemSegments(s, known)
	var b strings.Builder
	for i, seg := range segs {
		if quotes[i] {
			b.WriteString(`<bdi>`)
			b.WriteString(template.HTMLEscapeString(seg))
			b.WriteString(`</bdi>`)
			continue
		}
		b.WriteString(template.HTMLEscapeString(seg))
	}
	return template.HTML(b.String())
}

// ClaimTexts are the publisher strings a claim's problems may quote bare: its names, summary,
// tags, game and license, and its site's name.
func ClaimTexts(c *network.Claim) []string {
	if c == nil {
		return nil
	}
	out := []string{c.Name, c.Record.Entry.Name, c.Record.Entry.SummaryText()}
	if m := c.Manifest; m != nil {
		out = append(out, m.Project.Name, m.Project.Summary, m.Project.Game, m.Project.License)
		out = append(out, m.Project.Tags...)
	}
	if c.Origin != nil {
		out = append(out, wording.Deref(c.Origin.SiteName))
	}
	return out
}

// originTexts are the publisher strings a site's problems and publication issues may quote
// bare: its name and generator, and the names of the projects it lists.
func originTexts(o *network.Origin) []string {
	if o == nil {
		return nil
	}
	out := []string{wording.Deref(o.SiteName), wording.Deref(o.Generator)}
	for _, c := range o.Claims {
		out = append(out, c.Name, c.Record.Entry.Name)
	}
	return out
}

// IssueTexts are the publisher strings one publication issue of site o may quote bare: the
// site's name and generator, and the names of the claim the issue is about, found by the
// project id the issue starts with ("<id> (<name>): ..."). Looking that one claim up (o.Claims is sorted by project id)
// instead of offering every name the site lists keeps a site's issue list linear in its
// claims: one issue per claim, each searched for every name, was quadratic.
func IssueTexts(o *network.Origin, issue string) []string {
	out := []string{wording.Deref(o.SiteName), wording.Deref(o.Generator)}
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

// QuoteFor is ProblemHTML with the publisher strings of ctx known: a claim's (ClaimTexts), or
// for a site's publication issue, the site's and the named claim's (IssueTexts).
func QuoteFor(s string, ctx any) template.HTML {
	switch v := ctx.(type) {
	case *network.Claim:
		return ProblemHTML(s, ClaimTexts(v)...)
	case *network.Origin:
		return ProblemHTML(s, IssueTexts(v, s)...)
	}
	return ProblemHTML(s)
}
