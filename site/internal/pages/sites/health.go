package sites

import (
	"sort"
	"strconv"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/cards"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

type healthData struct {
	N *network.Network
	// Summary counts sources, sites and claims by health, failures first.
	Summary []*healthCount
	// Sources, Sites and Claims in the order shown: failures first, then the rest; sources
	// and sites no longer enrolled last. Claims are those that are not current.
	Sources []*view.SourceRow
	Sites   []*view.OriginRow
	Claims  []*network.Claim
	// Cards are the claims whose card image cannot be shown, with why.
	Cards []*cardProblem
}

// healthCount is one line of the health page's summary: what is counted ("sites") and the
// count of each health, failures first.
type healthCount struct {
	// What is the count in words ("14 sites"); Anchor, when set, is where its entries are.
	What   string
	Anchor string
	Parts  []healthPart
}

// healthPart is a count of one health: Text says it with its count ("3 healthy", "1 healthy
// with 2 claims cached"); Anchor is the first entry with it ("" for none), Bad marks a failure,
// Rank orders the parts (failures first).
type healthPart struct {
	Label  string
	N      int
	Extra  int // what the label counts besides the entries (cached claims of healthy sites)
	Text   string
	Anchor string
	Bad    bool
	Rank   int
}

type cardProblem struct {
	C    *network.Claim
	Card *cards.Image
}

// tally counts labels (of one rank) in first-seen order, remembering the first anchor of each.
type tally struct {
	parts []healthPart
	at    map[string]int
}

func (t *tally) add(label, anchor string, rank int, bad bool, extra int) {
	if t.at == nil {
		t.at = map[string]int{}
	}
	key := strconv.Itoa(rank) + " " + label // one label of two ranks is two groups
	i, ok := t.at[key]
	if !ok {
		i = len(t.parts)
		t.at[key] = i
		t.parts = append(t.parts, healthPart{Label: label, Anchor: anchor, Bad: bad, Rank: rank})
	}
	t.parts[i].N++
	t.parts[i].Extra += extra
}

// sorted orders the parts by rank (failures first), then as the labels were first seen, and
// words each: the count, then the label, with what the label counts besides (Extra) after
// "with" when cached says the noun.
func (t *tally) sorted(cached string) []healthPart {
	out := append([]healthPart(nil), t.parts...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rank < out[j].Rank })
	for i := range out {
		p := &out[i]
		p.Text = strconv.Itoa(p.N) + " " + p.Label
		if p.Extra > 0 && cached != "" {
			p.Text += " with " + wording.Plural(p.Extra, cached, cached+"s") + " cached"
		}
	}
	return out
}

// sourceRank orders sources on the health page: not resolved first, then resolved, then no
// longer enrolled.
func sourceRank(s store.Source) int {
	switch s.Health {
	case store.SourceResolved:
		return 1
	case store.SourceRemoved:
		return 2
	}
	return 0
}

// claimRank orders claims: no manifest yet, then cached, then current, then withdrawn.
func claimRank(c *network.Claim) int {
	switch health.StalenessOf(c) {
	case health.StaleNever:
		return 0
	case health.StaleCached:
		return 1
	case health.StaleNone:
		return 2
	}
	return 3
}

// siteSummaryLabel is a site's health as the Health page's summary counts it: like
// view.SiteHealthText, but sites with cached claims are one group whatever their count ("healthy",
// then "with N claims cached" from the tally).
func siteSummaryLabel(r *view.OriginRow) string {
	if health.Enrolled(r.O) {
		return store.OriginHealthLabel(r.O.Health)
	}
	return "no longer enrolled"
}

func Health(b *render.Site) error {
	d := &healthData{N: b.N}
	sources := append([]store.Source(nil), b.N.Sources...)
	sort.SliceStable(sources, func(i, j int) bool { return sourceRank(sources[i]) < sourceRank(sources[j]) })
	for _, s := range sources {
		d.Sources = append(d.Sources, b.SourceRow(s))
	}
	var src tally
	for _, s := range d.Sources {
		switch s.Health {
		case store.SourceResolved:
			src.add("resolved", health.SourceAnchor(s.URL), 1, false, 0)
		case store.SourceRemoved:
			src.add("no longer enrolled", health.SourceAnchor(s.URL), 2, false, 0)
		default:
			src.add("not resolved", health.SourceAnchor(s.URL), 0, true, 0)
		}
	}
	for _, o := range b.N.Origins {
		d.Sites = append(d.Sites, b.SiteRow(o))
	}
	sort.SliceStable(d.Sites, func(i, j int) bool { return view.SiteRank(d.Sites[i]) < view.SiteRank(d.Sites[j]) })
	var sites tally
	for _, r := range d.Sites {
		// Read sites with cached claims (rank 1) count apart from those without (rank 2).
		sites.add(siteSummaryLabel(r), health.SiteAnchor(r.O.ID), view.SiteRank(r), view.SiteRank(r) < 2, r.Stale)
	}
	var claims tally
	for _, c := range view.ByName(b.N.Claims) {
		st := health.StalenessOf(c)
		if st == health.StaleNone {
			claims.add("current", "", claimRank(c), false, 0)
			continue
		}
		claims.add(health.CountedText(c), health.ClaimAnchor(c), claimRank(c), st != health.StaleWithdrawn, 0)
		d.Claims = append(d.Claims, c)
	}
	sort.SliceStable(d.Claims, func(i, j int) bool { return claimRank(d.Claims[i]) < claimRank(d.Claims[j]) })
	for _, c := range view.ByName(b.N.Claims) {
		if ci := b.Cards[c.Key]; ci != nil && ci.Problem != "" {
			d.Cards = append(d.Cards, &cardProblem{C: c, Card: ci})
		}
	}
	d.Summary = []*healthCount{
		{What: wording.Plural(len(d.Sources), "source", "sources"), Parts: src.sorted("")},
		{What: wording.Plural(len(d.Sites), "site", "sites"), Parts: sites.sorted("claim")},
		{What: wording.Plural(len(b.N.Claims), "claim", "claims"), Parts: claims.sorted("")},
	}
	if len(d.Cards) > 0 {
		d.Summary = append(d.Summary, &healthCount{Anchor: "cards",
			What: wording.Plural(len(d.Cards), "card image cannot be shown", "card images cannot be shown")})
	}
	return b.Page("health", &render.Page{Path: "health/index.html", Title: "Network health", Section: "health",
		Desc: "Every source with its discovery trail, every site with its last problem, every claim that is not current and why.", Data: d})
}
