package network

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Load reads the state at dir (store.Dir.Load) and builds the model with cur (nil is an
// empty curation). Errors are Build's, or the snapshot's.
func Load(dir *store.Dir, cur *curation.Curation) (*Network, error) {
	snap, err := dir.Load()
	if err != nil {
		return nil, err
	}
	return Build(dir, snap, cur)
}

// Build computes the model from a snapshot of the state at dir, reading each claim's held
// manifest through dir. cur nil is an empty curation.
//
// A state that contradicts itself is the index's own bug and an error naming the path: a
// claim record whose project or site differs from its directory, a claim whose site has no
// origin record, a claim that records an ingested digest but whose manifest.json is missing,
// does not hash to that digest, does not parse as a project manifest or describes another
// project, an unknown health value. Odd publisher data (cycles, self-references, unparseable
// constraints, ...) is not an error: it is shown as what it is.
func Build(dir *store.Dir, snap *store.Snapshot, cur *curation.Curation) (*Network, error) {
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
		h, err := OriginHealth(o.Health)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", store.OriginPath(o.ID), err)
		}
		org := &Origin{Origin: o}
		org.Health = h
		if _, dup := n.OriginByID[o.ID]; dup {
			return nil, fmt.Errorf("%s: two origin records with id %q", store.OriginPath(o.ID), o.ID)
		}
		n.Origins = append(n.Origins, org)
		n.OriginByID[o.ID] = org
	}
	sort.Slice(n.Origins, func(i, j int) bool { return n.Origins[i].ID < n.Origins[j].ID })
	for i := range snap.Claims {
		c, err := loadClaim(dir, &snap.Claims[i], n)
		if err != nil {
			return nil, err
		}
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
	return n, nil
}

// loadClaim reads one claim's manifest and computes its heads and current release.
func loadClaim(dir *store.Dir, rec *store.ClaimRecord, n *Network) (*Claim, error) {
	path := rec.Dir + "/" + store.ClaimFile
	parts := strings.Split(rec.Dir, "/")
	if len(parts) != 3 || parts[1] != rec.Project || parts[2] != rec.Origin {
		return nil, fmt.Errorf("%s: the record names claim %s/%s but sits in %s", path, rec.Project, rec.Origin, rec.Dir)
	}
	health, err := ClaimHealth(rec.Health)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &Claim{
		Key:          Key{rec.Project, rec.Origin},
		Record:       rec.Claim,
		Health:       health,
		ManifestPath: store.ManifestPath(rec.Project, rec.Origin),
		Name:         rec.Entry.Name,
		Scheme:       version.Numeric,
		Withdrawn:    health == store.ClaimWithdrawn,
	}
	c.Origin = n.OriginByID[rec.Origin]
	if c.Origin == nil {
		return nil, fmt.Errorf("%s: site %s has no %s", path, rec.Origin, store.OriginPath(rec.Origin))
	}
	var want []string
	if rec.IngestedSHA256 != nil {
		want = append(want, *rec.IngestedSHA256)
	}
	if rec.PendingSHA256 != nil {
		want = append(want, *rec.PendingSHA256)
	}
	// Only a pending digest: the first manifest for this claim was being written when a refresh
	// was cut short; without the file there is simply no manifest yet.
	if len(want) > 0 && (rec.IngestedSHA256 != nil || dir.Exists(c.ManifestPath)) {
		m, digest, err := readManifest(dir, c.ManifestPath, want, rec.Project)
		if err != nil {
			return nil, err
		}
		c.Manifest, c.HeldSHA256 = m, digest
		c.Cached = digest != rec.AdvertisedSHA256
		c.Name = m.Project.Name
		c.Scheme = version.SchemeOf(m.Project.Versioning)
		c.releases()
	}
	switch {
	case c.Withdrawn:
		c.Excluded = "withdrawn: no longer listed by its site's index, or the site is no longer read" // the record's problem says which
	case c.Manifest == nil:
		c.Excluded = "no manifest for this claim has passed every check yet"
	default:
		c.Listed = true
	}
	return c, nil
}

// readManifest reads a held manifest and checks it is one the claim vouches for: it hashes to
// one of want (ingested_sha256, and pending_sha256 while a replacement was being written, as
// Check accepts). It returns the manifest and its digest.
func readManifest(dir *store.Dir, rel string, want []string, project string) (*protocol.Manifest, string, error) {
	b, err := dir.ReadBytes(rel)
	if err != nil {
		return nil, "", fmt.Errorf("%s: the claim records ingested_sha256 %s but the manifest cannot be read: %w", rel, want[0], err)
	}
	sum := sha256.Sum256(b)
	digest := hex.EncodeToString(sum[:])
	if !slices.Contains(want, digest) {
		return nil, "", fmt.Errorf("%s: hashes to %s, but the claim vouches only for %s", rel, digest, strings.Join(want, " or "))
	}
	var m protocol.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, "", fmt.Errorf("%s: the held manifest does not parse: %w", rel, err)
	}
	if m.Document != protocol.DocProject {
		return nil, "", fmt.Errorf("%s: the held manifest has document %q, not %q", rel, m.Document, protocol.DocProject)
	}
	if m.Project.ID != project {
		return nil, "", fmt.Errorf("%s: the held manifest describes project %q, not the claim's %s", rel, m.Project.ID, project)
	}
	return &m, digest, nil
}

// releases builds the release views, heads and the current release.
func (c *Claim) releases() {
	m := c.Manifest
	byPtr := make(map[*protocol.Release]*Release, len(m.Releases))
	for i := range m.Releases {
		r := &Release{Release: &m.Releases[i], Claim: c}
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

// ClaimHealth maps a claim record's health to the catalog v1 claim_health token. It accepts
// the tokens themselves and the words of the seeds/state.txt health table ("invalid
// publication", ...); anything else is an error naming the value.
func ClaimHealth(s string) (string, error) {
	for _, tok := range []string{store.ClaimCurrent, store.ClaimOriginUnavailable, store.ClaimManifestUnreachable,
		store.ClaimInvalid, store.ClaimInconsistent, store.ClaimRefused, store.ClaimWithdrawn} {
		if s == tok || s == store.HealthLabel(tok) {
			return tok, nil
		}
	}
	return "", fmt.Errorf("unknown claim health %q (want one of current, origin-unavailable, manifest-unreachable, invalid, inconsistent, refused, withdrawn)", s)
}

// OriginHealth maps an origin record's health to the catalog v1 origin_health token. It
// accepts the tokens, and the same words with spaces for hyphens; anything else is an error.
func OriginHealth(s string) (string, error) {
	for _, tok := range []string{store.OriginHealthy, store.OriginUnreachable, store.OriginRefused,
		store.OriginNoIndex, store.OriginInvalidIndex, store.OriginUnsupportedVersion} {
		if s == tok || s == strings.ReplaceAll(tok, "-", " ") {
			return tok, nil
		}
	}
	return "", fmt.Errorf("unknown origin health %q (want one of healthy, unreachable, refused, no-index, invalid-index, unsupported-version)", s)
}
