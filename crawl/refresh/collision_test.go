package refresh

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// collidingIndexURLs finds two query variants of one index URL whose site ids collide (the id
// keeps the slug of host and path and 32 bits of the URL's digest: a birthday search finds a
// pair in about 2^16 tries).
func collidingIndexURLs(t *testing.T, base string) (string, string) {
	t.Helper()
	// The query is not in the slug, so only the digest's first 32 bits need to meet.
	seen := map[uint32]int{}
	for i := 0; i < 1<<22; i++ {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s?v=%d", base, i)))
		k := binary.BigEndian.Uint32(sum[:4])
		if j, ok := seen[k]; ok {
			a, b := fmt.Sprintf("%s?v=%d", base, j), fmt.Sprintf("%s?v=%d", base, i)
			if store.SiteID(a) != store.SiteID(b) {
				t.Fatalf("%s and %s: the digests meet but the site ids differ", a, b)
			}
			return a, b
		}
		seen[k] = i
	}
	t.Fatal("no site id collision found")
	return "", ""
}

// linkPage serves an HTML page at dir/ whose <link> names the site index u, and returns its URL.
func (l *lab) linkPage(dir, u string) string {
	l.set(dir+"/index.html", []byte(`<!doctype html><html><head><title>x</title><link rel="alternate" type="application/vnd.dreamweave.index+json" href="`+u+`"></head><body>x</body></html>`))
	return l.url(dir + "/")
}

// Two different index URLs sharing a site id (an enrolled page links the
// other one): the site already recorded keeps its records untouched, and the second source
// says why it cannot be recorded.
func TestDrillSiteIDCollision(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	a, b := collidingIndexURLs(t, l.url(tplDir+"/dreamweave.json"))
	att := l.linkPage("att", b)
	site := store.SiteID(a)
	if store.SiteID(b) != site || a == b {
		t.Fatal("not a collision")
	}
	l.refresh(a)
	before := snapshotFiles(t, l.state)
	origin := l.originByID(site)

	sum := l.refresh(a, att)
	if o := l.originByID(site); o.IndexURL != a || len(o.Sources) != 1 || o.Sources[0] != a || o.Health != store.OriginHealthy {
		t.Errorf("the first site changed: %+v", o)
	}
	after := snapshotFiles(t, l.state)
	for _, p := range []string{store.OriginIndexPath(site), store.ManifestPath(candle, site), store.ManifestPath(tallow, site)} {
		if string(after[p]) != string(before[p]) {
			t.Errorf("%s changed", p)
		}
	}
	if len(load(t, l.state).Origins) != 1 {
		t.Error("a second origin was recorded")
	}
	want := "site id " + site + " is already used by " + a + "; this source leads to the site index " + b + ", which cannot be recorded under the same id"
	s := l.sourceRecord(att)
	if s.Health != store.SourceRefused || s.Origin != nil || deref(s.Problem) != want {
		t.Errorf("second source: %s %v %q\nwant problem %q", s.Health, s.Origin, deref(s.Problem), want)
	}
	if len(sum.Failures) != 1 || sum.Failures[0] != "source "+att+": refused: "+want {
		t.Errorf("failures %q", sum.Failures)
	}
	for _, p := range []string{candle, tallow} {
		var c store.Claim
		if err := store.Open(l.state).ReadJSON(store.ClaimPath(p, site), &c); err != nil {
			t.Fatal(err)
		}
		wantClaim(t, c, store.ClaimCurrent)
		if c.IngestedSHA256 == nil {
			t.Errorf("%s: %+v", p, c)
		}
	}
	if origin.LastSuccess == nil {
		t.Error("the first site was never read")
	}

	// Both new in one refresh: the lower index URL gets the id, the other source is refused,
	// whichever index URL its page links.
	for _, swap := range []bool{false, true} {
		l2 := l
		l2.state = filepath.Join(t.TempDir(), "state")
		a2, b2 := a, b
		if swap {
			a2, b2 = b2, a2
		}
		p1, p2 := l2.linkPage("one", a2), l2.linkPage("two", b2)
		l2.refresh(p1, p2)
		low := min(a2, b2)
		if o := l2.originByID(store.SiteID(low)); o.IndexURL != low {
			t.Errorf("the id went to %s, want the lower URL %s", o.IndexURL, low)
		}
		refused := p2
		if low == b2 {
			refused = p1
		}
		if s := l2.sourceRecord(refused); s.Health != store.SourceRefused || s.Origin != nil {
			t.Errorf("the source leading to the higher URL: %+v", s)
		}
	}
}

func (l *lab) originByID(id string) store.Origin {
	l.t.Helper()
	var o store.Origin
	if err := store.Open(l.state).ReadJSON(store.OriginPath(id), &o); err != nil {
		l.t.Fatal(err)
	}
	return o
}

// Two enrolled URLs whose source record names collide cannot both be recorded: the refresh
// refuses the list before anything is read or written.
func TestRunRefusesCollidingSourceNames(t *testing.T) {
	t.Parallel()
	a, b := collidingIndexURLs(t, "https://x.example/site/")
	state := filepath.Join(t.TempDir(), "state")
	_, err := Run(t.Context(), options(state, &sleeper{}, a, b))
	want := "the enrolled sources " + a + " and " + b + " would share the record " + store.SourcePath(store.SourceID(a)) + ": enroll one of them by another URL"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if _, serr := os.Stat(state); serr == nil {
		t.Error("the refused list still created the state")
	}
}
