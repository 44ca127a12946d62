package refresh

import (
	"sort"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// ManifestCheck is one manifest a site index lists, as a refresh reads it.
type ManifestCheck struct {
	ID       string             // the index entry's project id
	Entry    int                // the entry's place in the index: /projects/<Entry>
	URL      string             // the manifest's URL, resolved against the index's
	Health   string             // the claim health a refresh records
	Problem  string             // why the bytes could not be checked; "" when they were
	Findings []protocol.Finding // every finding of the served bytes against the entry; none when accepted

	want protocol.IndexEntry // the entry
	body []byte              // the bytes served; nil when none were read
}

// manifestChecks collects every manifest a read fetched, from the claims' goroutines.
type manifestChecks struct {
	mu   sync.Mutex
	seen map[string]fetchResult
	urls map[string]string
}

func (mc *manifestChecks) observe(indexURL string, f fetchResult) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	mc.seen[f.entry.ID] = f
	mc.urls[f.entry.ID] = resolve(indexURL, f.entry.Manifest)
}

// checks is every manifest fetched, in index order, with all findings of
// protocol.ValidateForEntry (a digest mismatch included); one not read says why.
func (mc *manifestChecks) checks(mem *memState, origin *store.Origin) []ManifestCheck {
	place := map[string]int{}
	if origin != nil {
		if b, err := mem.ReadBytes(store.OriginIndexPath(origin.ID)); err == nil {
			if d, _ := protocol.Decode(b); d != nil && d.Index != nil {
				for n := len(d.Index.Projects) - 1; n >= 0; n-- {
					place[d.Index.Projects[n].ID] = n // the first entry of an id is read
				}
			}
		}
	}
	var out []ManifestCheck
	for id, f := range mc.seen {
		c := ManifestCheck{ID: id, Entry: place[id], URL: mc.urls[id], Health: store.ClaimCurrent, want: f.entry}
		body := f.body
		if body == nil {
			body = f.served
		}
		c.body = body
		switch {
		case body == nil:
			c.Health, c.Problem = f.health, f.problem
		default:
			_, c.Findings = protocol.ValidateForEntry(body, f.entry, "")
			if f.health != "" {
				c.Health = f.health
			} else if len(c.Findings) > 0 {
				c.Health, _ = manifestVerdict(c.Findings)
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Entry < out[j].Entry })
	return out
}
