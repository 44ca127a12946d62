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
	// First: the list's first page, which has the summary.
	First bool
	// Summary counts sources, sites and claims by health, failures first.
	Summary []*healthCount
	// This page's entries of each section of view.HealthList (Show: which sections it
	// prints, render.Cut): the claims that are not current by site, the sites, the sources
	// and the claims whose card image cannot be shown.
	Claims  []claimGroup
	Sites   []*view.OriginRow
	Sources []*view.SourceRow
	Cards   []*cardProblem
	Show    [4]bool
}

// claimGroup is one site's claims on one page of the health list; First: the page holds
// its first one.
type claimGroup struct {
	Site   *view.OriginRow
	Claims []*network.Claim
	First  bool
}

// healthCount is one line of the health page's summary: what is counted ("sites") and the
// count of each health, failures first.
type healthCount struct {
	// What is the count in words ("14 sites"); Link, when set, is where its entries are.
	What  string
	Link  string
	Parts []healthPart
}

// healthPart is a count of one health: Text says it with its count ("3 healthy", "1 healthy
// with 2 claims cached"); Link is the first entry with it ("" for none), Bad marks a failure,
// Rank orders the parts (failures first).
type healthPart struct {
	Label string
	N     int
	Extra int // what the label counts besides the entries (cached claims of healthy sites)
	Text  string
	Link  string
	Bad   bool
	Rank  int
}

type cardProblem struct {
	C    *network.Claim
	Card *cards.Image
}

// tally counts labels (of one rank) in first-seen order, remembering the first link of each.
type tally struct {
	parts []healthPart
	at    map[string]int
}

func (t *tally) add(label, link string, rank int, bad bool, extra int) {
	if t.at == nil {
		t.at = map[string]int{}
	}
	key := strconv.Itoa(rank) + " " + label // one label of two ranks is two groups
	i, ok := t.at[key]
	if !ok {
		i = len(t.parts)
		t.at[key] = i
		t.parts = append(t.parts, healthPart{Label: label, Link: link, Bad: bad, Rank: rank})
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

// siteSummaryLabel is a site's health as the Health page's summary counts it: like
// view.SiteHealthText, but sites with cached claims are one group whatever their count ("healthy",
// then "with N claims cached" from the tally).
func siteSummaryLabel(r *view.OriginRow) string {
	if health.Enrolled(r.O) {
		return store.OriginHealthLabel(r.O.Health)
	}
	return "no longer enrolled"
}

// Health writes the health list: one list of sections (view.HealthList), paged, with the
// summary on its first page.
func Health(b *render.Site) error {
	hl := b.Health
	var cards []*cardProblem
	for _, c := range view.ByName(b.N.Claims) {
		if ci := b.Cards[c.Key]; ci != nil && ci.Problem != "" {
			cards = append(cards, &cardProblem{C: c, Card: ci})
		}
	}
	summary := healthSummary(b, cards)
	n := len(hl.Claims) + len(hl.Sites) + len(hl.Sources) + len(cards)
	return b.PagedList("health", &render.Page{Path: view.HealthPage, Title: "Network health", Section: "health",
		Desc: "Every source with its discovery trail, every site with its last problem, every claim that is not current and why."}, n,
		func(lo, hi int, pg *render.Pager) any {
			d := &healthData{N: b.N, First: pg == nil || pg.N == 1}
			if d.First {
				d.Summary = summary
			}
			parts := render.Cut(lo, hi, len(hl.Claims), len(hl.Sites), len(hl.Sources), len(cards))
			for i, p := range parts {
				d.Show[i] = p.Show
			}
			for i := parts[0].A; i < parts[0].B; i++ {
				c := hl.Claims[i]
				if k := len(d.Claims); k == 0 || d.Claims[k-1].Site.O != c.Origin {
					d.Claims = append(d.Claims, claimGroup{Site: b.SiteRow(c.Origin), First: i == 0 || hl.Claims[i-1].Origin != c.Origin})
				}
				d.Claims[len(d.Claims)-1].Claims = append(d.Claims[len(d.Claims)-1].Claims, c)
			}
			for _, r := range hl.Sites[parts[1].A:parts[1].B] {
				d.Sites = append(d.Sites, b.SiteRow(r.O))
			}
			for _, s := range hl.Sources[parts[2].A:parts[2].B] {
				d.Sources = append(d.Sources, b.SourceRow(s))
			}
			d.Cards = cards[parts[3].A:parts[3].B]
			return d
		})
}

// healthSummary counts the health list's sources, sites and claims by health, failures
// first, each count linking its first entry.
func healthSummary(b *render.Site, cards []*cardProblem) []*healthCount {
	hl := b.Health
	var src tally
	for _, s := range hl.Sources {
		link := hl.Link(health.SourceAnchor(s.URL))
		switch s.Health {
		case store.SourceResolved:
			src.add("resolved", link, 1, false, 0)
		case store.SourceRemoved:
			src.add("no longer enrolled", link, 2, false, 0)
		default:
			src.add("not resolved", link, 0, true, 0)
		}
	}
	var sites tally
	for _, r := range hl.Sites {
		// Read sites with cached claims (rank 1) count apart from those without (rank 2).
		sites.add(siteSummaryLabel(r), hl.Link(health.SiteAnchor(r.O.ID)), view.SiteRank(r), view.SiteRank(r) < 2, r.Stale)
	}
	var claims tally
	for _, c := range view.ByName(b.N.Claims) {
		st := health.StalenessOf(c)
		if st == health.StaleNone {
			claims.add("current", "", view.ClaimRank(c), false, 0)
			continue
		}
		claims.add(health.CountedText(c), hl.Link(health.ClaimAnchor(c)), view.ClaimRank(c), st != health.StaleWithdrawn, 0)
	}
	out := []*healthCount{
		{What: wording.Plural(len(hl.Sources), "source", "sources"), Parts: src.sorted("")},
		{What: wording.Plural(len(hl.Sites), "site", "sites"), Parts: sites.sorted("claim")},
		{What: wording.Plural(len(b.N.Claims), "claim", "claims"), Parts: claims.sorted("")},
	}
	if len(cards) > 0 {
		out = append(out, &healthCount{Link: hl.Link("cards"),
			What: wording.Plural(len(cards), "card image cannot be shown", "card images cannot be shown")})
	}
	return out
}
