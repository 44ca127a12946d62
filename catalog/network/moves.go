package network

import (
	"fmt"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// moves collects the evidence of moves (SPEC sections 3 and 4): the crawler's records and the
// reviewed [[migration]] entries. Nothing else moves a claim.
func (n *Network) moves() {
	ms := &moveSet{n: n, byKey: map[[2]Key]*Move{}}
	ms.fromClaims()
	ms.fromOrigins()
	ms.fromEvents()
	ms.fromMigrations()
	n.linkMoves()
}

// moveSet gathers the moves of n, one per (project, from site, to site).
type moveSet struct {
	n     *Network
	byKey map[[2]Key]*Move
}

// add records ev as evidence that project moved; to or from nowhere, or to itself, is no move.
func (ms *moveSet) add(project, from, to string, ev Evidence) {
	if from == "" || to == "" || from == to {
		return
	}
	n := ms.n
	k := [2]Key{{project, from}, {project, to}}
	m := ms.byKey[k]
	if m == nil {
		m = &Move{Project: project, From: k[0], To: k[1], FromClaim: n.ByKey[k[0]], ToClaim: n.ByKey[k[1]]}
		ms.byKey[k] = m
		n.Moves = append(n.Moves, m)
	}
	for _, e := range m.Evidence {
		if e.Kind == ev.Kind && e.Detail == ev.Detail {
			return
		}
	}
	m.Evidence = append(m.Evidence, ev)
}

func (ms *moveSet) fromClaims() {
	n := ms.n
	for _, c := range n.Claims {
		if c.Record.MovedTo != nil {
			ms.add(c.Project, c.Site, n.siteRef(*c.Record.MovedTo), Evidence{Kind: "crawler",
				Detail: fmt.Sprintf("%s records moved_to %s", c.Key.recordPath(), *c.Record.MovedTo)})
		}
		if c.Record.MovedFrom != nil {
			ms.add(c.Project, n.siteRef(*c.Record.MovedFrom), c.Site, Evidence{Kind: "crawler",
				Detail: fmt.Sprintf("%s records moved_from %s", c.Key.recordPath(), *c.Record.MovedFrom)})
		}
	}
}

// fromOrigins: an origin's previous sites, for the claims the previous site also had.
func (ms *moveSet) fromOrigins() {
	n := ms.n
	for _, o := range n.Origins {
		for _, prev := range o.PreviousIDs() {
			from := n.siteRef(prev)
			for _, c := range o.Claims {
				if n.ByKey[Key{c.Project, from}] == nil {
					continue
				}
				ms.add(c.Project, from, o.ID, Evidence{Kind: "crawler",
					Detail: fmt.Sprintf("%s lists %s as a previous site", store.OriginPath(o.ID), prev)})
			}
		}
	}
}

func (ms *moveSet) fromEvents() {
	n := ms.n
	for _, e := range n.Events {
		if e.MovedFrom != nil {
			ms.add(e.Project, n.siteRef(*e.MovedFrom), e.Origin, Evidence{Kind: "crawler",
				Detail: fmt.Sprintf("event %s (%s) records moved_from %s", e.ID, e.ObservedAt, *e.MovedFrom)})
		}
	}
}

// fromMigrations: the curation file's [[migration]] entries. One without its old claim moves
// nothing; one without its new claim moves the old claim without a successor.
func (ms *moveSet) fromMigrations() {
	n := ms.n
	for i := range n.Curation.Migrations {
		mg := &n.Curation.Migrations[i]
		from, to := store.SiteID(mg.From), store.SiteID(mg.To)
		if n.ByKey[Key{mg.Project, from}] == nil {
			n.Unmatched = append(n.Unmatched, fmt.Sprintf("[[migration]] #%d: no claim for project %s at %s (site %s)", mg.Entry, mg.Project, mg.From, from))
			continue
		}
		if n.ByKey[Key{mg.Project, to}] == nil {
			n.Unmatched = append(n.Unmatched, fmt.Sprintf("[[migration]] #%d: no claim for project %s at %s (site %s) yet; the old claim is labelled as moved without a successor", mg.Entry, mg.Project, mg.To, to))
		}
		ms.add(mg.Project, from, to, Evidence{Kind: "migration",
			Detail: fmt.Sprintf("curation [[migration]] #%d, reviewed %s: %s", mg.Entry, mg.Reviewed, mg.Reason), Migration: mg})
	}
}

func (n *Network) linkMoves() {
	sort.Slice(n.Moves, func(i, j int) bool {
		a, b := n.Moves[i], n.Moves[j]
		if a.From != b.From {
			return a.From.Less(b.From)
		}
		return a.To.Site < b.To.Site
	})
	for _, m := range n.Moves {
		sort.Slice(m.Evidence, func(i, j int) bool {
			if m.Evidence[i].Kind != m.Evidence[j].Kind {
				return m.Evidence[i].Kind < m.Evidence[j].Kind
			}
			return m.Evidence[i].Detail < m.Evidence[j].Detail
		})
		if m.ToClaim != nil {
			m.ToClaim.MovedFrom = append(m.ToClaim.MovedFrom, m)
		}
		// A claim moved to two sites takes the first by site id.
		if fc := m.FromClaim; fc != nil && fc.MovedTo == nil {
			fc.MovedTo = m
			if m.ToClaim != nil && m.ToClaim.Listed {
				fc.SupersededBy = m.ToClaim
			}
		}
	}
}

// siteRef turns a recorded site reference (an origin id or an index URL) into a site id.
func (n *Network) siteRef(s string) string {
	if n.OriginByID[s] != nil {
		return s
	}
	if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return store.SiteID(s)
	}
	return s
}

func (k Key) recordPath() string { return store.ClaimPath(k.Project, k.Site) }

// conflicts finds identity conflicts: an id listed by two or more sites that did not move.
func (n *Network) conflicts() {
	for _, p := range n.Projects {
		var in []*Claim
		for _, c := range p.Listed {
			if c.MovedTo == nil {
				in = append(in, c)
			}
		}
		if len(in) < 2 {
			continue
		}
		cf := &Conflict{Project: p.ID, Claims: in}
		p.Conflict = cf
		for _, c := range in {
			c.Conflict = cf
		}
		n.Conflicts = append(n.Conflicts, cf)
	}
}
