package refresh

import (
	"context"
	"sort"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// SiteCheck is what a publisher's check of a deployed site finds (`ashyams validate URL`):
// the read a refresh makes of the site (Inspect's report), and every manifest its index lists
// with all the findings of the bytes the site served for it.
type SiteCheck struct {
	*InspectReport
	Manifests []ManifestCheck // the manifests read, in the index's order
}

// ManifestCheck is one manifest a site index lists, as a refresh reads it.
type ManifestCheck struct {
	ID       string             // the index entry's project id
	Entry    int                // the entry's place in the index: /projects/<Entry>
	URL      string             // the manifest's URL, resolved against the index's
	Health   string             // the claim health a refresh records (store.ClaimCurrent when accepted)
	Problem  string             // why the manifest's bytes could not be checked; "" when they were
	Findings []protocol.Finding // every finding of the served bytes against the entry; none when accepted
}

// CheckSite reads the site at rawURL exactly as Inspect does (discovery, the address guard,
// the size and time limits, the digest rule with its waits and re-reads) and checks every
// manifest the site index lists with protocol.ValidateForEntry, the check a refresh accepts a
// manifest by. Where a refresh stops at the first fault, a check reports every finding of
// the bytes served: a manifest whose digest never matched is still validated, so its
// manifest-sha256 finding comes with the others. A manifest that could not be read says why
// (Problem). Nothing is written. The error is Inspect's: a bad URL or a cancelled context.
func CheckSite(ctx context.Context, rawURL string, o Options) (*SiteCheck, error) {
	var mu sync.Mutex
	seen := map[string]fetchResult{}
	urls := map[string]string{}
	o.observe = func(indexURL string, f fetchResult) {
		mu.Lock()
		defer mu.Unlock()
		seen[f.entry.ID] = f
		urls[f.entry.ID] = resolve(indexURL, f.entry.Manifest)
	}
	rep, mem, err := inspect(ctx, rawURL, o)
	if err != nil {
		return nil, err
	}
	sc := &SiteCheck{InspectReport: rep}
	if rep.Origin == nil {
		return sc, nil
	}
	place := map[string]int{}
	if b, err := mem.ReadBytes(store.OriginIndexPath(rep.Origin.ID)); err == nil {
		if d, _ := protocol.Decode(b); d != nil && d.Index != nil {
			for n := len(d.Index.Projects) - 1; n >= 0; n-- {
				place[d.Index.Projects[n].ID] = n // the first entry of an id is the one read
			}
		}
	}
	for id, f := range seen {
		mc := ManifestCheck{ID: id, Entry: place[id], URL: urls[id], Health: store.ClaimCurrent}
		body := f.body
		if body == nil {
			body = f.served
		}
		switch {
		case body == nil:
			mc.Health, mc.Problem = f.health, f.problem
		default:
			_, mc.Findings = protocol.ValidateForEntry(body, f.entry, "")
			if f.health != "" {
				mc.Health = f.health
			} else if len(mc.Findings) > 0 {
				mc.Health, _ = manifestVerdict(mc.Findings)
			}
		}
		sc.Manifests = append(sc.Manifests, mc)
	}
	sort.Slice(sc.Manifests, func(i, j int) bool { return sc.Manifests[i].Entry < sc.Manifests[j].Entry })
	return sc, nil
}
