package store

import (
	"slices"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// CheckLoad is Check and Load in one pass: every problem (sorted) and the records that parsed,
// with the digests of the held bytes. A caller uses the snapshot only when it tolerates every
// problem returned.
func (d *Dir) CheckLoad() (*Snapshot, []Problem) { return d.check(false).snapshot() }

// CheckLoadForRender is CheckLoad in the scope a build needs: every invariant but the bytes of
// media/, and the held manifests that pass, decoded once (Snapshot.Manifests).
func (d *Dir) CheckLoadForRender() (*Snapshot, []Problem) { return d.check(true).snapshot() }

func (c *checker) snapshot() (*Snapshot, []Problem) {
	if c.indexSums == nil { // no state directory: nothing was read
		return &Snapshot{}, c.out
	}
	keys := sortedKeys(c.claims)
	s := &Snapshot{Network: c.net, IndexDigests: c.indexSums, ManifestDigests: map[string]string{},
		Claims: slices.Grow([]ClaimRecord(nil), len(keys))}
	if c.render {
		s.Manifests = map[string]*protocol.Manifest{}
	}
	for _, f := range c.sourceFiles { // file name order, as listed
		if src, ok := c.sources[strings.TrimSuffix(f, ".json")]; ok {
			s.Sources = append(s.Sources, *src)
			s.SourceFiles = append(s.SourceFiles, f)
		}
	}
	for _, site := range sortedKeys(c.origins) {
		s.Origins = append(s.Origins, *c.origins[site])
	}
	sort.SliceStable(keys, func(i, j int) bool { // by project, then site
		pi, si, _ := strings.Cut(keys[i], "/")
		pj, sj, _ := strings.Cut(keys[j], "/")
		if pi != pj {
			return pi < pj
		}
		return si < sj
	})
	for _, k := range keys {
		dir := ClaimsDir + "/" + k
		s.Claims = append(s.Claims, ClaimRecord{Claim: *c.claims[k], Dir: dir})
		if sum, ok := c.manSums[k]; ok {
			s.ManifestDigests[dir] = sum
		}
		if m, ok := c.manifests[k]; ok && c.render {
			s.Manifests[dir] = m
		}
	}
	s.Events = c.events
	sortEvents(s.Events)
	return s, c.out
}
