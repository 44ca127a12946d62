package view

import (
	"sort"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
)

// HealthPage is the health list's first page.
const HealthPage = "health/index.html"

// HealthList is the health list's entries in the order shown, one section after the other:
// the claims that are not current, by site (in Sites' order), failures first within a site;
// the sites, failures first (SiteRank); the enrolled sources, failures first; then, once the
// cards are made, the claims whose card image cannot be shown. Each entry's anchor is on the
// page of the list that shows it (Link).
type HealthList struct {
	Claims  []*network.Claim
	Sites   []*OriginRow
	Sources []store.Source
	at      map[string]string
}

// newHealthList orders n's entries for the health list and locates their anchors.
func newHealthList(n *network.Network) *HealthList {
	h := &HealthList{at: map[string]string{}}
	pos := map[*network.Origin]int{}
	for _, o := range n.Origins {
		h.Sites = append(h.Sites, NewOriginRow(o))
	}
	sort.SliceStable(h.Sites, func(i, j int) bool { return SiteRank(h.Sites[i]) < SiteRank(h.Sites[j]) })
	for i, r := range h.Sites {
		pos[r.O] = i
	}
	for _, c := range ByName(n.Claims) {
		if health.StalenessOf(c) != health.StaleNone {
			h.Claims = append(h.Claims, c)
		}
	}
	sort.SliceStable(h.Claims, func(i, j int) bool {
		a, b := h.Claims[i], h.Claims[j]
		if pos[a.Origin] != pos[b.Origin] {
			return pos[a.Origin] < pos[b.Origin]
		}
		return ClaimRank(a) < ClaimRank(b)
	})
	h.Sources = append(h.Sources, n.Sources...)
	sort.SliceStable(h.Sources, func(i, j int) bool { return SourceRank(h.Sources[i]) < SourceRank(h.Sources[j]) })
	i := 0
	at := func(anchor string) {
		h.at[anchor] = paths.PageOf(HealthPage, i) + "#" + anchor
		i++
	}
	for _, c := range h.Claims {
		at(health.ClaimAnchor(c))
	}
	for _, r := range h.Sites {
		at(health.SiteAnchor(r.O.ID))
	}
	for _, s := range h.Sources {
		at(health.SourceAnchor(s.URL))
	}
	h.at["cards"] = paths.PageOf(HealthPage, i) + "#cards"
	return h
}

// Link is the health list's page and anchor of an entry; its first page for an anchor it
// does not hold (a claim that is current).
func (h *HealthList) Link(anchor string) string {
	if p, ok := h.at[anchor]; ok {
		return p
	}
	return HealthPage
}

// SourceRank orders sources on the health list: not resolved first, then resolved, then no
// longer enrolled.
func SourceRank(s store.Source) int {
	switch s.Health {
	case store.SourceResolved:
		return 1
	case store.SourceRemoved:
		return 2
	}
	return 0
}

// ClaimRank orders claims: no manifest yet, then cached, then current, then withdrawn.
func ClaimRank(c *network.Claim) int {
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
