package network

import (
	"errors"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Load reads and checks the state at dir and builds the model with cur (nil is an empty
// curation). The error lists the problems of the kinds the model Refuses, one per line as
// "path: what is wrong" in store.Check's words.
func Load(dir *store.Dir, cur *curation.Curation) (*Network, error) {
	n, _, err := LoadChecked(dir, cur)
	return n, err
}

// LoadChecked is Load that also returns every problem the check found, sorted as store.Check
// sorts them, for a caller that refuses more than the model does.
func LoadChecked(dir *store.Dir, cur *curation.Curation) (*Network, []store.Problem, error) {
	snap, probs := dir.CheckLoadForRender()
	var refused []string
	for _, p := range probs {
		if Refuses(p.Kind) {
			refused = append(refused, p.String())
		}
	}
	if len(refused) > 0 {
		return nil, probs, errors.New(strings.Join(refused, "\n"))
	}
	return build(snap, cur), probs, nil
}

// Refuses reports whether the model cannot be built from a state with a problem of kind k.
// Odd publisher data is shown as it is.
func Refuses(k store.Kind) bool {
	switch k {
	case store.Unreadable, store.UnknownHealth, store.Misplaced, store.NoOrigin,
		store.ManifestMissing, store.ManifestDigest, store.ManifestContent:
		return true
	}
	return false
}

// build computes the model from a snapshot with no problem Refuses names; cur nil is an empty
// curation.
func build(snap *store.Snapshot, cur *curation.Curation) *Network {
	if cur == nil {
		cur = &curation.Curation{}
	}
	n := &Network{
		State:            snap.Network,
		Curation:         cur,
		Sources:          snap.Sources,
		Events:           snap.Events,
		ByKey:            map[Key]*Claim{},
		ByProject:        map[string]*Project{},
		OriginByID:       map[string]*Origin{},
		CapabilityByName: map[string]*Capability{},
	}
	for _, o := range snap.Origins {
		org := &Origin{Origin: o}
		org.Health, _ = store.OriginHealthToken(o.Health)
		n.Origins = append(n.Origins, org)
		n.OriginByID[o.ID] = org
	}
	sort.Slice(n.Origins, func(i, j int) bool { return n.Origins[i].ID < n.Origins[j].ID })
	for i := range snap.Claims {
		c := loadClaim(snap, &snap.Claims[i], n)
		n.Claims = append(n.Claims, c)
		n.ByKey[c.Key] = c
	}
	sort.Slice(n.Claims, func(i, j int) bool { return n.Claims[i].Key.Less(n.Claims[j].Key) })
	for i := range n.Events {
		e := &n.Events[i]
		if c := n.ByKey[Key{e.Project, e.Origin}]; c != nil {
			c.Events = append(c.Events, e)
		}
	}
	for _, c := range n.Claims {
		c.firstSeen()
	}
	for _, c := range n.Claims {
		p := n.ByProject[c.Project]
		if p == nil {
			p = &Project{ID: c.Project}
			n.ByProject[c.Project] = p
			n.Projects = append(n.Projects, p)
		}
		p.Claims = append(p.Claims, c)
		c.Origin.Claims = append(c.Origin.Claims, c)
		if c.Listed {
			n.Listed = append(n.Listed, c)
			p.Listed = append(p.Listed, c)
			c.Origin.Listed = append(c.Origin.Listed, c)
		}
	}
	n.moves()
	n.conflicts()
	n.resolveAll()
	n.capabilities()
	n.usedBy()
	n.cycles()
	n.gaps()
	n.featured()
	return n
}

func loadClaim(snap *store.Snapshot, rec *store.ClaimRecord, n *Network) *Claim {
	health, _ := store.ClaimHealthToken(rec.Health)
	c := &Claim{
		Key:          Key{rec.Project, rec.Origin},
		Record:       rec.Claim,
		Health:       health,
		ManifestPath: store.ManifestPath(rec.Project, rec.Origin),
		Name:         rec.Entry.Name,
		Scheme:       version.Numeric,
		Withdrawn:    health == store.ClaimWithdrawn,
		Origin:       n.OriginByID[rec.Origin],
	}
	if m := snap.Manifests[rec.Dir]; m != nil {
		c.Manifest, c.HeldSHA256 = m, snap.ManifestDigests[rec.Dir]
		c.Cached = c.HeldSHA256 != rec.AdvertisedSHA256
		c.Name = m.Project.Name
		c.Scheme = version.SchemeOf(m.Project.Versioning)
		c.releases()
	}
	switch {
	case c.Withdrawn:
		c.Excluded = "withdrawn: no longer listed by its site's index, or the site is no longer read"
	case c.Manifest == nil:
		c.Excluded = "no manifest for this claim has passed every check yet"
	default:
		c.Listed = true
	}
	return c
}

func (c *Claim) releases() {
	m := c.Manifest
	byPtr := make(map[*protocol.Release]*Release, len(m.Releases))
	for i := range m.Releases {
		r := &Release{Release: &m.Releases[i], Claim: c, openmw: m.Releases[i].OpenMWExtension()}
		c.Releases = append(c.Releases, r)
		byPtr[r.Release] = r
	}
	find := func(p *protocol.Release) *Release {
		if p == nil {
			return nil
		}
		if r := byPtr[p]; r != nil {
			return r
		}
		for _, r := range c.Releases { // a copy rather than a pointer into m.Releases
			if r.Version == p.Version && r.Channel == p.Channel {
				return r
			}
		}
		return nil
	}
	for ch, p := range protocol.Heads(m) {
		if r := find(p); r != nil {
			c.Heads = append(c.Heads, Head{Channel: ch, Release: r})
			r.Head = append(r.Head, ch)
		}
	}
	sort.Slice(c.Heads, func(i, j int) bool { return channelLess(c.Heads[i].Channel, c.Heads[j].Channel) })
	for _, r := range c.Releases {
		sort.Slice(r.Head, func(i, j int) bool { return channelLess(r.Head[i], r.Head[j]) })
	}
	ch, cur := protocol.Current(m)
	if r := find(cur); r != nil {
		c.Current, c.CurrentChannel = r, ch
		r.Current = true
	}
}

// channelLess orders channels for display: stable, then others by name, development last.
func channelLess(a, b string) bool {
	rank := func(s string) int {
		switch s {
		case "stable":
			return 0
		case "development":
			return 2
		}
		return 1
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra < rb
	}
	return a < b
}
